/* statefile.c - state handles: locking, durable slot updates, rollback marks, the
 * process-local reservation block and the block reserved ahead of it by a
 * worker thread. The contract is in statefile.h. */
#define _GNU_SOURCE /* renameat2, MADV_WIPEONFORK */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "statefile.h"
#include "fileio.h"
#include "stateslot.h"
#include "statemark.h"

struct fastsig_state {
    pthread_mutex_t mu;    /* guards everything below */
    unsigned refs;         /* atomic */
    int fd;                /* opened by fd_pid (a forked child reopens) */
    pid_t fd_pid;
    char *path;            /* absolute when it could be resolved */
    uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t max;
    uint64_t batch;        /* largest block take() reserves */
    int first_block;       /* take()'s next block is this process's first: one index */
    pid_t pool_pid;        /* the block [pool_next, pool_end) is this pid's */
    uint64_t pool_next, pool_end;
    /* The next block, reserved ahead by a worker thread while this one is
     * used, so that a steady signer does not wait for fdatasync. The worker
     * has a file description of its own (wfd: its OFD lock excludes st->fd's
     * like any other holder's) and touches nothing else but the ahead_*
     * fields, under wmu, never under mu: a fork() while it holds wmu leaves
     * a child that takes mu and makes wmu anew. Callers hold mu, then wmu.
     * Like the block, all of it belongs to pool_pid. */
    int prefetch;          /* reserve ahead at all (FASTSIG_STATE_PREFETCH) */
    pthread_mutex_t wmu;   /* guards ahead* and stop */
    pthread_cond_t cv;     /* ahead changed, or stop */
    pthread_t worker;
    pid_t worker_pid;      /* the worker runs in this pid; 0: none */
    int wfd;               /* the worker's description; -1: none */
    int stop;              /* tells the worker to end */
    enum { AHEAD_NONE, AHEAD_ASKED, AHEAD_DONE } ahead;
    uint64_t ahead_want, ahead_first, ahead_count;
    int ahead_rc, ahead_errno; /* the worker's result, errno for the message */
    cpu_set_t wmask;       /* the CPUs the worker may use (inherited) */
    int wmask_ok;          /* wmask was read: the worker can be steered */
    int wcpu;              /* the CPU the worker is kept off; -1: none */
    int wpoll;             /* the worker polls for requests: no need to wake it */
    /* Rollback (doc/state.md section 7): mark is the highest index end this
     * handle reserved (the worker raises it too); a file whose next is below
     * it was rolled back under us, and the handle is poisoned for good: no
     * take hands out anything again. rb_* say what was seen (set once,
     * under wmu, before poisoned). */
    uint64_t mark;         /* atomic */
    int poisoned;          /* atomic */
    uint64_t rb_next, rb_mark;
    int rb_registry;       /* the registry's mark refused it (at open) */
    char *mark_path;       /* the registry's mark file (statemark.h), atomic; NULL: none */
};

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

static pid_t current_pid(void)
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

/* ---- reading and writing the image -------------------------------------- */

/* Reads the image (img: FS_STATE_FILE_SIZE + 1 bytes, zero-filled past what
 * the file holds): 0, STATE_IO, or STATE_CORRUPT when it is no regular file
 * of exactly FS_STATE_FILE_SIZE bytes. */
static int read_image(int fd, uint8_t *img)
{
    const size_t cap = FS_STATE_FILE_SIZE + 1; /* one byte more: the size must be exact */
    struct stat sb;
    memset(img, 0, cap);
    if (fstat(fd, &sb) != 0)
        return FASTSIG_ERR_STATE_IO;
    if (!S_ISREG(sb.st_mode))
        return FASTSIG_ERR_STATE_CORRUPT;
    ssize_t got = fs_file_read_all(fd, img, cap, 0);
    if (got < 0)
        return FASTSIG_ERR_STATE_IO;
    return got == FS_STATE_FILE_SIZE && sb.st_size == FS_STATE_FILE_SIZE
               ? FASTSIG_OK
               : FASTSIG_ERR_STATE_CORRUPT;
}

/* Reads and validates the file: 0, STATE_IO or STATE_CORRUPT. */
static int read_state(int fd, fs_state_slot *cur, int *cur_pos)
{
    uint8_t img[FS_STATE_FILE_SIZE + 1];
    int rc = read_image(fd, img);
    if (rc == FASTSIG_OK && fs_state_image_decode(img, cur, cur_pos) != 0)
        rc = FASTSIG_ERR_STATE_CORRUPT;
    return rc;
}

static int check_identity(const fs_state_slot *cur, const uint8_t *key_id, uint64_t max)
{
    if (memcmp(cur->key_id, key_id, FASTSIG_STATE_KEY_ID_LEN) != 0)
        return FASTSIG_ERR_STATE_WRONG_KEY;
    if (max != 0 && cur->max != max) /* same key, other size: not to be trusted */
        return FASTSIG_ERR_STATE_CORRUPT;
    return FASTSIG_OK;
}

static int read_checked(int fd, const uint8_t *key_id, uint64_t max, fs_state_slot *cur)
{
    int pos;
    int rc = read_state(fd, cur, &pos);
    return rc ? rc : check_identity(cur, key_id, max);
}

/* Reads under a shared lock and checks the key. */
static int read_locked(int fd, const uint8_t *key_id, uint64_t max, fs_state_slot *cur)
{
    if (fs_file_lock(fd, F_RDLCK, 1) != 0)
        return fs_file_lock_error();
    int rc = read_checked(fd, key_id, max, cur);
    fs_file_unlock(fd);
    return rc;
}

/* Opens path and reads its state for key_id under a shared lock; *fd stays
 * open only on success. */
static int open_checked(const char *path, int flags, const uint8_t *key_id, int *fd,
                        fs_state_slot *cur)
{
    if ((*fd = fs_file_open(path, flags, 0)) < 0)
        return fs_file_open_error();
    int rc = read_locked(*fd, key_id, 0, cur);
    if (rc != FASTSIG_OK) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

/* A new file description of st->path under the number *fd (st->fd with
 * st->mu held, or the worker's wfd): the number stays, so a forked child
 * never reads a stale one. */
static int reopen(fastsig_state *st, int *fd)
{
    int nfd = fs_file_open(st->path, O_RDWR, 0);
    if (nfd < 0)
        return fs_file_open_error();
    int r = dup3(nfd, *fd, O_CLOEXEC), e = errno;
    close(nfd);
    errno = e;
    return r < 0 ? FASTSIG_ERR_STATE_IO : FASTSIG_OK;
}

/* Locks the file that st->path names now (st->mu held). If the path was
 * renamed over since the handle opened it, going on with the old inode would
 * spend from a state nobody else sees: follow the path to the new file (its
 * key is checked as always). If the path is gone, refuse. */
static int lock_path_file(fastsig_state *st, int *fd, short type)
{
    for (int tries = 0; tries < 8; tries++) {
        if (fs_file_lock(*fd, type, 1) != 0)
            return fs_file_lock_error();
        struct stat now, ours;
        int missing = stat(st->path, &now) != 0, e = errno;
        if (!missing && fstat(*fd, &ours) == 0 && now.st_dev == ours.st_dev &&
            now.st_ino == ours.st_ino)
            return FASTSIG_OK;
        fs_file_unlock(*fd);
        if (missing)
            return e == ENOENT || e == ENOTDIR ? FASTSIG_ERR_STATE_MISSING : FASTSIG_ERR_STATE_IO;
        int rc = reopen(st, fd);
        if (rc != FASTSIG_OK)
            return rc;
    }
    return FASTSIG_ERR_STATE_IO; /* replaced again and again: give up */
}

/* Poisons the handle (first sighting kept): every call fails from now on. */
static int poison(fastsig_state *st, uint64_t next, uint64_t mark, int registry)
{
    pthread_mutex_lock(&st->wmu);
    if (!__atomic_load_n(&st->poisoned, __ATOMIC_RELAXED)) {
        st->rb_next = next;
        st->rb_mark = mark;
        st->rb_registry = registry;
        __atomic_store_n(&st->poisoned, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&st->wmu);
    errno = 0;
    return FASTSIG_ERR_STATE_ROLLED_BACK;
}

/* The handle's verdict on a slot it read: rolled back (poisoned from now
 * on) when its next is below what this handle reserved itself, or when it
 * was poisoned before. */
static int check_rollback(fastsig_state *st, const fs_state_slot *cur)
{
    if (__atomic_load_n(&st->poisoned, __ATOMIC_ACQUIRE))
        return errno = 0, FASTSIG_ERR_STATE_ROLLED_BACK;
    uint64_t mark = __atomic_load_n(&st->mark, __ATOMIC_ACQUIRE);
    return cur->next < mark ? poison(st, cur->next, mark, 0) : FASTSIG_OK;
}

/* After a durable reservation ending at end: raises the handle's mark and
 * the registry's, which must never be above the file's next, hence only
 * now, after the fdatasync. A failed registry write only lets it lag. */
static void raise_marks(fastsig_state *st, uint64_t end)
{
    int e = errno;
    uint64_t m = __atomic_load_n(&st->mark, __ATOMIC_RELAXED);
    while (m < end && !__atomic_compare_exchange_n(&st->mark, &m, end, 0, __ATOMIC_RELEASE,
                                                   __ATOMIC_RELAXED))
        ;
    const char *mp = __atomic_load_n(&st->mark_path, __ATOMIC_ACQUIRE);
    if (mp != NULL)
        fs_mark_raise(mp, st->key_id, st->path, end);
    errno = e;
}

/* A step of an update: inspects the current slot and sets *next to the new
 * value; returns 0 to write it, 1 to leave the file as it is, or an error. */
typedef int (*update_step)(const fs_state_slot *cur, uint64_t *next, void *arg);

/* Exclusive lock (of the file the path names, through *fd), read,
 * validate, step, write the older slot with seq + 1, fdatasync, unlock.
 * Nothing the step decided counts unless this returns 0. */
static int update(fastsig_state *st, int *fd, update_step step, void *arg)
{
    fs_state_slot cur;
    int pos;
    int rc = lock_path_file(st, fd, F_WRLCK);
    if (rc != FASTSIG_OK)
        return rc;
    uint64_t next = 0;
    rc = read_state(*fd, &cur, &pos);
    if (rc == FASTSIG_OK)
        rc = check_identity(&cur, st->key_id, st->max);
    if (rc == FASTSIG_OK)
        rc = check_rollback(st, &cur);
    if (rc == FASTSIG_OK)
        rc = step(&cur, &next, arg);
    if (rc == 1) {
        rc = FASTSIG_OK;
    } else if (rc == FASTSIG_OK) {
        uint8_t rec[FS_STATE_SLOT_LEN];
        cur.seq++;
        cur.next = next;
        fs_state_slot_encode(&cur, rec);
        off_t older = (off_t)(1 - pos) * FS_STATE_SLOT_STRIDE;
        if (fs_file_write_all(*fd, rec, sizeof(rec), older) != 0 ||
            fs_file_sync(*fd, 1) != 0)
            rc = FASTSIG_ERR_STATE_IO;
    }
    fs_file_unlock(*fd);
    return rc;
}

/* ---- handles ------------------------------------------------------------- */

int fastsig_state_open(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                       fastsig_state **out)
{
    if (path == NULL || key_id == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    fs_state_slot cur;
    int fd;
    int rc = open_checked(path, O_RDWR, key_id, &fd, &cur);
    if (rc != FASTSIG_OK)
        return rc;
    fastsig_state *st = calloc(1, sizeof(*st));
    char *abs = realpath(path, NULL);
    if (st != NULL && (abs != NULL || (abs = strdup(path)) != NULL)) {
        pthread_mutex_init(&st->mu, NULL);
        pthread_mutex_init(&st->wmu, NULL);
        pthread_cond_init(&st->cv, NULL);
        const char *pf = secure_getenv("FASTSIG_STATE_PREFETCH");
        st->prefetch = pf == NULL || strcmp(pf, "0") != 0;
        st->wfd = -1;
        st->refs = 1;
        st->fd = fd;
        st->fd_pid = current_pid();
        st->path = abs;
        memcpy(st->key_id, key_id, FASTSIG_STATE_KEY_ID_LEN);
        st->max = cur.max;
        st->batch = FASTSIG_STATE_DEFAULT_BATCH;
        st->first_block = 1;
        st->pool_pid = st->fd_pid;
        *out = st;
        return FASTSIG_OK;
    }
    free(st);
    free(abs);
    close(fd);
    return FASTSIG_ERR_NOMEM;
}

fastsig_state *fastsig_state_ref(fastsig_state *st)
{
    if (st != NULL)
        __atomic_add_fetch(&st->refs, 1, __ATOMIC_RELAXED);
    return st;
}

/* In a forked child: drop the parent's blocks (the one in use and the one
 * reserved ahead) and its worker (threads do not survive fork; the copy of
 * its descriptor is closed, the parent's stays open; wmu and cv are made
 * anew: the copies may be held by, or count, the parent's worker, and the
 * condition variable could then never be destroyed). Called with st->mu
 * held. */
static void drop_parents_blocks(fastsig_state *st, pid_t pid)
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

/* drop_parents_blocks, and in a forked child a file description (and so an
 * OFD lock) of our own. Called with st->mu held. */
static int own_process(fastsig_state *st, pid_t pid)
{
    drop_parents_blocks(st, pid);
    if (st->fd_pid == pid)
        return FASTSIG_OK;
    int rc = reopen(st, &st->fd); /* the parent's description stays open in the parent */
    if (rc == FASTSIG_OK)
        st->fd_pid = pid;
    return rc;
}

struct reserve_arg {
    uint64_t want, first, count;
};

static int reserve_step(const fs_state_slot *cur, uint64_t *next, void *arg)
{
    struct reserve_arg *a = arg;
    uint64_t left = cur->max - cur->next;
    if (left == 0)
        return cur->max == 1 ? FASTSIG_ERR_OTS_USED : FASTSIG_ERR_KEY_EXHAUSTED;
    a->first = cur->next;
    a->count = a->want < left ? a->want : left;
    *next = cur->next + a->count;
    return 0;
}

/* Called with st->mu held and own_process done. */
static int reserve_locked(fastsig_state *st, uint64_t want, uint64_t *first, uint64_t *count)
{
    struct reserve_arg a = { want, 0, 0 };
    int rc = update(st, &st->fd, reserve_step, &a);
    if (rc != FASTSIG_OK)
        return rc;
    if (st->pool_next == st->pool_end || st->pool_end != a.first)
        st->pool_next = a.first; /* not contiguous: the old rest is burnt */
    st->pool_end = a.first + a.count;
    raise_marks(st, st->pool_end);
    if (first)
        *first = a.first;
    if (count)
        *count = a.count;
    return FASTSIG_OK;
}

/* ---- the block reserved ahead ------------------------------------------- */

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Waits for a request or stop (wmu held). Waking a sleeping thread on
 * another CPU costs the waker tens of microseconds on a virtual machine
 * (an interrupt to an idle vCPU), several signatures' time, paid by the
 * signature that asks, one per block. So while the signer is steady (gap:
 * the time between its last two requests) the worker polls, every gap / 8,
 * for up to 4 gaps after the last request; after that it sleeps until
 * woken (ask_ahead wakes it only then). */
static void wait_for_ask(fastsig_state *st, int64_t last, int64_t gap)
{
    const int64_t us = 1000, cap = 50000 * us;
    if (gap > 0 && gap < cap) {
        int64_t step = gap / 8 < 20 * us ? 20 * us : gap / 8 > 1000 * us ? 1000 * us : gap / 8;
        int64_t until = last + 4 * gap;
        st->wpoll = 1;
        while (!st->stop && st->ahead != AHEAD_ASKED && mono_ns() < until) {
            struct timespec d = { 0, (long)step };
            pthread_mutex_unlock(&st->wmu);
            nanosleep(&d, NULL);
            pthread_mutex_lock(&st->wmu);
        }
        st->wpoll = 0;
    }
    while (!st->stop && st->ahead != AHEAD_ASKED)
        pthread_cond_wait(&st->cv, &st->wmu);
}

/* The worker: reserves a block whenever one is asked for, publishes the
 * result (errno with it, for the message) and waits for the next request. */
static void *worker_main(void *arg)
{
    fastsig_state *st = arg;
    int64_t last = 0, gap = 0; /* the last request's time, the one before it's distance */
    pthread_mutex_lock(&st->wmu);
    for (;;) {
        wait_for_ask(st, last, gap);
        if (st->stop)
            break;
        int64_t now = mono_ns();
        gap = last != 0 ? now - last : 0;
        last = now;
        struct reserve_arg a = { st->ahead_want, 0, 0 };
        pthread_mutex_unlock(&st->wmu);
        int rc = update(st, &st->wfd, reserve_step, &a), e = errno;
        if (rc == FASTSIG_OK) /* before it is published: release() waits for that */
            raise_marks(st, a.first + a.count);
        pthread_mutex_lock(&st->wmu);
        st->ahead_first = a.first;
        st->ahead_count = a.count;
        st->ahead_rc = rc;
        st->ahead_errno = e;
        st->ahead = AHEAD_DONE;
        pthread_cond_broadcast(&st->cv);
    }
    pthread_mutex_unlock(&st->wmu);
    return NULL;
}

/* Starts this process's worker (st->mu held); 0 on success. Signals are
 * blocked in it: they are the application's threads' business. */
static int start_worker(fastsig_state *st, pid_t pid)
{
    if ((st->wfd = fs_file_open(st->path, O_RDWR, 0)) < 0)
        return -1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    st->stop = 0;
    st->wpoll = 0;
    int r = pthread_create(&st->worker, NULL, worker_main, st);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r != 0) {
        close(st->wfd);
        st->wfd = -1;
        return -1;
    }
    st->worker_pid = pid;
    st->wmask_ok = pthread_getaffinity_np(st->worker, sizeof(st->wmask), &st->wmask) == 0;
    st->wcpu = -1;
    return 0;
}

/* Keeps the worker off the CPU the signer runs on (st->mu held), when it may
 * use another: woken there, it would preempt the signer, and the signature
 * that asked for the block would pay for the wake-up and the worker's
 * system calls up to fdatasync's wait, every block. A system call only when
 * the signer has moved. */
static void steer_worker(fastsig_state *st)
{
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu == st->wcpu || !st->wmask_ok || CPU_COUNT(&st->wmask) < 2 ||
        cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &st->wmask))
        return;
    cpu_set_t m = st->wmask;
    CPU_CLR(cpu, &m);
    if (pthread_setaffinity_np(st->worker, sizeof(m), &m) == 0) /* else: preempting, still correct */
        st->wcpu = cpu;
}

/* Asks the worker for the block after this one (st->mu held). Without a
 * worker (none could be started), the next take reserves it itself. */
static void ask_ahead(fastsig_state *st, uint64_t want)
{
    /* batch 1 asks for one durable write per index and nothing held beyond */
    if (!st->prefetch || want < 2)
        return;
    if (st->worker_pid != st->pool_pid && start_worker(st, st->pool_pid) != 0)
        return;
    steer_worker(st);
    pthread_mutex_lock(&st->wmu);
    int asked = st->ahead == AHEAD_NONE, wake = asked && !st->wpoll;
    if (asked) {
        st->ahead_want = want;
        st->ahead = AHEAD_ASKED;
    }
    pthread_mutex_unlock(&st->wmu);
    /* after the unlock: a woken worker does not block on wmu straight
     * away (st->mu, held, keeps st and cv alive); a polling one needs none */
    if (wake)
        pthread_cond_broadcast(&st->cv);
}

/* Waits until the worker is not reserving (st->mu held) and returns what
 * is ahead, AHEAD_NONE or AHEAD_DONE (then ahead_* hold its result: the
 * worker leaves them alone until it is asked again, under mu); with
 * `take`, the caller takes it over (AHEAD_NONE after). */
static int settle_ahead(fastsig_state *st, int take)
{
    pthread_mutex_lock(&st->wmu);
    while (st->ahead == AHEAD_ASKED)
        pthread_cond_wait(&st->cv, &st->wmu);
    int was = st->ahead;
    if (take)
        st->ahead = AHEAD_NONE;
    pthread_mutex_unlock(&st->wmu);
    return was;
}

/* Makes the block the worker reserved (settle_ahead taken: AHEAD_DONE) the
 * current one (the current one is empty; st->mu held). Its error (errno as
 * the failing call set it) is this caller's. */
static int collect_ahead(fastsig_state *st)
{
    if (st->ahead_rc != FASTSIG_OK) {
        errno = st->ahead_errno;
        return st->ahead_rc;
    }
    st->pool_next = st->ahead_first;
    st->pool_end = st->ahead_first + st->ahead_count;
    return FASTSIG_OK;
}

/* Ends this process's worker (st->mu not held). */
static void stop_worker(fastsig_state *st)
{
    pthread_mutex_lock(&st->mu);
    int ours = st->worker_pid != 0 && st->worker_pid == current_pid();
    pthread_mutex_lock(&st->wmu);
    st->stop = 1;
    pthread_cond_broadcast(&st->cv);
    pthread_mutex_unlock(&st->wmu);
    pthread_mutex_unlock(&st->mu);
    if (ours)
        pthread_join(st->worker, NULL);
    if (st->wfd >= 0) /* ours, or a forked child's copy of the parent's */
        close(st->wfd);
}

/* ---- giving back --------------------------------------------------------- */

/* Ranges to give back, the highest first: each one is given back only if
 * the file's `next` is its end by then, i.e. nobody reserved beyond. */
struct release_arg {
    fastsig_state *st;
    uint64_t from[2], end[2];
};

static int release_step(const fs_state_slot *cur, uint64_t *next, void *arg)
{
    const struct release_arg *a = arg;
    uint64_t n = cur->next;
    for (int i = 0; i < 2; i++)
        if (n == a->end[i])
            n = a->from[i];
    if (n == cur->next)
        return 1; /* someone reserved beyond our blocks: they stay burnt */
    /* the registry's mark goes down first, durably (a crash in between must
     * not leave it above the file's next), else the blocks stay burnt; this
     * handle's mark is what it writes (lower on a failed write: safe) */
    const char *mp = __atomic_load_n(&a->st->mark_path, __ATOMIC_ACQUIRE);
    if (mp != NULL && fs_mark_lower(mp, a->st->key_id, a->st->path, n) != 0)
        return 1;
    __atomic_store_n(&a->st->mark, n, __ATOMIC_RELEASE);
    *next = n;
    return 0;
}

static int release_locked(fastsig_state *st)
{
    if (st->pool_pid != current_pid())
        return FASTSIG_OK; /* nothing of ours (a child never gives back the parent's) */
    struct release_arg a = { st, { st->pool_next, st->pool_next },
                             { st->pool_end, st->pool_end } };
    if (settle_ahead(st, 1) == AHEAD_DONE && st->ahead_rc == FASTSIG_OK && st->ahead_count > 0) {
        a.from[0] = st->ahead_first;
        a.end[0] = st->ahead_first + st->ahead_count;
    }
    if (a.from[0] == a.end[0] && a.from[1] == a.end[1])
        return FASTSIG_OK;
    st->pool_end = st->pool_next; /* empty from now on, whatever happens */
    st->first_block = 1;
    return update(st, &st->fd, release_step, &a);
}

int fastsig_state_close(fastsig_state *st)
{
    if (st == NULL || __atomic_sub_fetch(&st->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return FASTSIG_OK;
    pthread_mutex_lock(&st->mu);
    drop_parents_blocks(st, current_pid()); /* a child's close: no worker to wait for */
    int rc = release_locked(st);
    pthread_mutex_unlock(&st->mu);
    stop_worker(st);
    close(st->fd);
    pthread_cond_destroy(&st->cv);
    pthread_mutex_destroy(&st->wmu);
    pthread_mutex_destroy(&st->mu);
    free(st->mark_path);
    free(st->path);
    free(st);
    return rc;
}

int fastsig_state_set_batch(fastsig_state *st, uint64_t batch)
{
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (batch == 0)
        return FASTSIG_ERR_BAD_PARAM;
    pthread_mutex_lock(&st->mu);
    st->batch = batch;
    pthread_mutex_unlock(&st->mu);
    return FASTSIG_OK;
}

int fastsig_state_set_prefetch(fastsig_state *st, int on)
{
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    st->prefetch = on != 0;
    pthread_mutex_unlock(&st->mu);
    return FASTSIG_OK;
}

int fastsig_state_take(fastsig_state *st, uint64_t *idx)
{
    return fastsig_state_take_batch(st, 0, idx);
}

/* Makes the empty block non-empty (st->mu held): the block reserved ahead,
 * else one reserved now. *ask: the worker is to reserve the one after it
 * (from the second block on: a process that signs once reserves one index
 * and starts no thread). */
static int refill(fastsig_state *st, uint64_t want, int *ask)
{
    *ask = 0;
    if (settle_ahead(st, 1) == AHEAD_DONE) {
        int rc = collect_ahead(st);
        *ask = rc == FASTSIG_OK;
        return rc;
    }
    /* the first block is one index (a process that signs once reserves
     * exactly one), every later one a whole batch */
    int first = st->first_block;
    int rc = reserve_locked(st, first ? 1 : want, NULL, NULL);
    if (rc == FASTSIG_OK)
        st->first_block = 0;
    *ask = rc == FASTSIG_OK && !first;
    return rc;
}

int fastsig_state_take_batch(fastsig_state *st, uint64_t batch, uint64_t *idx)
{
    if (st == NULL || idx == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    uint64_t want = batch != 0 ? batch : st->batch;
    int ask = 0;
    int rc = own_process(st, current_pid());
    if (__atomic_load_n(&st->poisoned, __ATOMIC_ACQUIRE)) /* its block too */
        rc = FASTSIG_ERR_STATE_ROLLED_BACK, errno = 0;
    if (rc == FASTSIG_OK && st->pool_next == st->pool_end)
        rc = refill(st, want, &ask);
    if (rc == FASTSIG_OK)
        *idx = st->pool_next++;
    if (ask) /* at a block's first take: the whole block's time to reserve the next */
        ask_ahead(st, want);
    int e = errno;
    pthread_mutex_unlock(&st->mu);
    errno = e;
    return rc;
}

int fastsig_state_reserve(fastsig_state *st, uint64_t want, uint64_t *first,
                          uint64_t *count)
{
    if (st == NULL || first == NULL || count == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (want == 0)
        return FASTSIG_ERR_BAD_PARAM;
    pthread_mutex_lock(&st->mu);
    int rc = own_process(st, current_pid());
    if (rc == FASTSIG_OK)
        rc = reserve_locked(st, want, first, count);
    pthread_mutex_unlock(&st->mu);
    return rc;
}

int fastsig_state_release(fastsig_state *st)
{
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    int rc = release_locked(st);
    pthread_mutex_unlock(&st->mu);
    return rc;
}

static void put_counts(const fs_state_slot *cur, uint64_t pool_left, uint64_t pool_next,
                       uint64_t *next, uint64_t *remaining, uint64_t *max)
{
    if (next)
        *next = pool_left ? pool_next : cur->next;
    if (remaining)
        *remaining = cur->max - cur->next + pool_left;
    if (max)
        *max = cur->max;
}

int fastsig_state_query(fastsig_state *st, uint64_t *next, uint64_t *remaining,
                        uint64_t *max)
{
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    fs_state_slot cur;
    int rc = own_process(st, current_pid());
    int ahead = settle_ahead(st, 0); /* its block is ours once it is written */
    if (rc == FASTSIG_OK && (rc = lock_path_file(st, &st->fd, F_RDLCK)) == FASTSIG_OK) {
        rc = read_checked(st->fd, st->key_id, st->max, &cur);
        fs_file_unlock(st->fd);
    }
    if (rc == FASTSIG_OK)
        rc = check_rollback(st, &cur);
    uint64_t own = st->pool_end - st->pool_next, own_next = st->pool_next;
    if (ahead == AHEAD_DONE && st->ahead_rc == FASTSIG_OK) {
        if (own == 0)
            own_next = st->ahead_first;
        own += st->ahead_count;
    }
    if (rc == FASTSIG_OK)
        put_counts(&cur, own, own_next, next, remaining, max);
    pthread_mutex_unlock(&st->mu);
    return rc;
}

int fastsig_state_peek(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                       uint64_t *next, uint64_t *remaining, uint64_t *max)
{
    if (path == NULL || key_id == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_state_slot cur;
    int fd;
    int rc = open_checked(path, O_RDONLY, key_id, &fd, &cur);
    if (rc != FASTSIG_OK)
        return rc;
    close(fd);
    put_counts(&cur, 0, 0, next, remaining, max);
    return FASTSIG_OK;
}

int fastsig_state_inspect(const char *path, fastsig_state_info *info)
{
    if (path == NULL || info == NULL)
        return FASTSIG_ERR_NULL_ARG;
    memset(info, 0, sizeof(*info));
    int fd = fs_file_open(path, O_RDONLY, 0);
    if (fd < 0)
        return fs_file_open_error();
    uint8_t img[FS_STATE_FILE_SIZE + 1];
    int rc = fs_file_lock(fd, F_RDLCK, 1) == 0 ? FASTSIG_OK : fs_file_lock_error();
    if (rc == FASTSIG_OK) {
        rc = read_image(fd, img); /* a short file reads as zeros: invalid slots */
        fs_file_unlock(fd);
    }
    close(fd);
    if (rc == FASTSIG_ERR_STATE_IO || rc == FASTSIG_ERR_STATE_LOCKED)
        return rc;
    fs_state_slot s;
    int pos;
    info->file_ok = rc == FASTSIG_OK && fs_state_image_decode(img, &s, &pos) == 0;
    for (int i = 0; i < 2; i++) {
        if (fs_state_slot_decode(img + i * FS_STATE_SLOT_STRIDE, &s) != 0)
            continue;
        info->valid[i] = 1;
        info->seq[i] = s.seq;
        info->max[i] = s.max;
        info->next[i] = s.next;
        memcpy(info->key_id[i], s.key_id, FASTSIG_STATE_KEY_ID_LEN);
    }
    return FASTSIG_OK;
}

/* ---- spending a range for a shard (shard.c) ------------------------------- */

struct spend_arg {
    uint64_t first, count;
};

static int spend_step(const fs_state_slot *cur, uint64_t *next, void *arg)
{
    struct spend_arg *a = arg;
    if (a->first == FASTSIG_STATE_FROM_NEXT)
        a->first = cur->next;
    /* only unspent indices: [first, first + count) inside [next, max) */
    if (a->first < cur->next || a->first >= cur->max || a->count > cur->max - a->first)
        return FASTSIG_ERR_STATE_RANGE;
    *next = a->first + a->count;
    return 0;
}

int fastsig_state_spend_range(fastsig_state *st, uint64_t first, uint64_t count,
                              uint64_t *got_first)
{
    if (st == NULL || got_first == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (count == 0)
        return FASTSIG_ERR_BAD_PARAM;
    struct spend_arg a = { first, count };
    pthread_mutex_lock(&st->mu);
    int rc = own_process(st, current_pid());
    if (rc == FASTSIG_OK)
        rc = update(st, &st->fd, spend_step, &a);
    if (rc == FASTSIG_OK)
        *got_first = a.first;
    pthread_mutex_unlock(&st->mu);
    return rc;
}

/* ---- the registry's high-water mark (statemark.h) ----------------------- */

int fastsig_state_use_registry(fastsig_state *st, const char *state_dir)
{
    char mp[PATH_MAX];
    if (st == NULL || state_dir == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = fs_mark_path(state_dir, st->key_id, st->path, mp, sizeof(mp));
    if (rc != FASTSIG_OK)
        return rc;
    char *dup = strdup(mp);
    if (dup == NULL)
        return FASTSIG_ERR_NOMEM;
    pthread_mutex_lock(&st->mu);
    fs_state_slot cur;
    if (st->mark_path != NULL)
        rc = FASTSIG_ERR_BAD_PARAM; /* once, right after open */
    else if ((rc = own_process(st, current_pid())) == FASTSIG_OK
             && (rc = lock_path_file(st, &st->fd, F_RDLCK)) == FASTSIG_OK) {
        /* under the state's lock: a release lowers both under it */
        rc = read_checked(st->fd, st->key_id, st->max, &cur);
        uint64_t mark = rc == FASTSIG_OK ? fs_mark_read(dup, st->key_id, st->path, st->max) : 0;
        fs_file_unlock(st->fd);
        if (rc == FASTSIG_OK && cur.next < mark)
            rc = poison(st, cur.next, mark, 1);
    }
    if (rc == FASTSIG_OK || rc == FASTSIG_ERR_STATE_ROLLED_BACK)
        __atomic_store_n(&st->mark_path, dup, __ATOMIC_RELEASE);
    else
        free(dup);
    int e = errno;
    pthread_mutex_unlock(&st->mu);
    errno = e;
    return rc;
}

int fastsig_state_rollback(fastsig_state *st, uint64_t *next, uint64_t *mark,
                           const char **mark_file)
{
    if (st == NULL || !__atomic_load_n(&st->poisoned, __ATOMIC_ACQUIRE))
        return 0;
    if (next)
        *next = st->rb_next;
    if (mark)
        *mark = st->rb_mark;
    if (mark_file)
        *mark_file = st->rb_registry ? st->mark_path : NULL;
    return 1;
}
