/* stateworker.c - the background reservation worker: a thread per handle
 * and process that reserves the next block while the current one is used,
 * and how take() asks it, waits for it and collects its block. */
#define _GNU_SOURCE /* sched_getcpu, pthread_*affinity_np */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "statefile_internal.h"
#include "fileio.h"

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
 * woken (fs_state_ask_ahead wakes it only then). */
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
 * result (its cause with it, for the message) and waits for the next request. */
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
        struct fs_state_reserve_arg a = { st->ahead_want, 0, 0 };
        pthread_mutex_unlock(&st->wmu);
        /* the cause is the worker's while asked: nobody reads it before DONE */
        int rc = fs_state_update(st, &st->wfd, fs_state_reserve_step, &a, &st->ahead_cause);
        if (rc == FASTSIG_OK) /* before it is published: release() waits for that */
            fs_state_raise_marks(st, a.first + a.count);
        pthread_mutex_lock(&st->wmu);
        st->ahead_first = a.first;
        st->ahead_count = a.count;
        st->ahead_rc = rc;
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
    fastsig_cause ignored; /* no worker: the next take reserves itself */
    if ((st->wfd = fs_file_open(st->path, O_RDWR, 0, &ignored)) < 0)
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
void fs_state_ask_ahead(fastsig_state *st, uint64_t want)
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
int fs_state_settle_ahead(fastsig_state *st, int take)
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

/* Makes the block the worker reserved (fs_state_settle_ahead taken: AHEAD_DONE) the
 * current one (the current one is empty; st->mu held). Its error and its
 * cause (errno as the failing call set it) are this caller's. */
int fs_state_collect_ahead(fastsig_state *st, fastsig_cause *c)
{
    if (st->ahead_rc != FASTSIG_OK) {
        *c = st->ahead_cause;
        return st->ahead_rc;
    }
    st->pool_next = st->ahead_first;
    st->pool_end = st->ahead_first + st->ahead_count;
    return FASTSIG_OK;
}

/* Ends this process's worker (st->mu not held). */
void fs_state_stop_worker(fastsig_state *st)
{
    pthread_mutex_lock(&st->mu);
    int ours = st->worker_pid != 0 && st->worker_pid == fs_state_current_pid();
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
