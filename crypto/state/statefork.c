/* statefork.c - which process a handle's calls run in: the cached pid
 * (MADV_WIPEONFORK canary), and in a forked child, the handle made the
 * child's own (the parent's blocks and worker dropped, a file description
 * of its own). */
#define _GNU_SOURCE /* MADV_WIPEONFORK */
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "statefile_internal.h"

/* ---- which process we are ------------------------------------------------ */

/* A block belongs to the pid that reserved it, so every take() must know its
 * pid, but getpid() is a system call, a noticeable share of a fast
 * signature. A page marked MADV_WIPEONFORK reads as zeros in any child,
 * however it was forked (fork, _Fork, clone: no atfork handler needed), so
 * the cached pid is trusted while the page says "armed"; without the madvise
 * flag every call asks getpid(). */
static unsigned char *fork_canary; /* NULL: no WIPEONFORK here */
static pid_t canary_pid;           /* atomic */
static pthread_once_t canary_once = PTHREAD_ONCE_INIT;

static void canary_setup(void)
{
#ifdef MADV_WIPEONFORK
    long page = sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (p == MAP_FAILED)
        return;
    if (madvise(p, (size_t)page, MADV_WIPEONFORK) != 0) {
        munmap(p, (size_t)page);
        return;
    }
    fork_canary = p;
#endif
}

pid_t fs_state_current_pid(void)
{
    pthread_once(&canary_once, canary_setup);
    if (fork_canary == NULL)
        return getpid();
    if (__atomic_load_n(fork_canary, __ATOMIC_ACQUIRE) == 1)
        return __atomic_load_n(&canary_pid, __ATOMIC_RELAXED);
    pid_t pid = getpid(); /* first call, or first since a fork */
    __atomic_store_n(&canary_pid, pid, __ATOMIC_RELAXED);
    __atomic_store_n(fork_canary, 1, __ATOMIC_RELEASE);
    return pid;
}


/* In a forked child: drop the parent's blocks (the one in use and the one
 * reserved ahead) and its worker (threads do not survive fork; the copy of
 * its descriptor is closed, the parent's stays open; wmu and cv are made
 * anew: the copies may be held by, or count, the parent's worker, and the
 * condition variable could then never be destroyed). Called with st->mu
 * held. */
void fs_state_drop_parents_blocks(fastsig_state *st, pid_t pid)
{
    if (st->pool_pid != pid) {
        /* the parent may still give back its unused indices, down to its
         * block's next: the child's mark must not count them */
        if (st->mark > st->pool_next)
            st->mark = st->pool_next;
        st->pool_pid = pid;
        st->pool_next = st->pool_end = 0;
        st->first_block = 1;
        st->ahead = AHEAD_NONE;
        if (st->worker_pid != 0) {
            pthread_mutex_init(&st->wmu, NULL);
            pthread_cond_init(&st->cv, NULL);
            if (st->wfd >= 0)
                close(st->wfd);
            st->wfd = -1;
            st->worker_pid = 0;
            st->stop = 0;
        }
    }
}

/* fs_state_drop_parents_blocks, and in a forked child a file description (and so an
 * OFD lock) of our own. Called with st->mu held. */
int fs_state_own_process(fastsig_state *st, pid_t pid, fastsig_cause *c)
{
    fs_state_drop_parents_blocks(st, pid);
    if (st->fd_pid == pid)
        return FASTSIG_OK;
    int rc = fs_state_reopen(st, &st->fd, c); /* the parent's description stays open in the parent */
    if (rc == FASTSIG_OK)
        st->fd_pid = pid;
    return rc;
}
