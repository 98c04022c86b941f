/* test_state_ahead.c - the block reserved ahead by the worker thread: a
 * take() does not wait for a slow fdatasync, one-shot signers start no
 * worker, release() gives both blocks back, the worker's errors surface at
 * the take() that needs its block, forked children ignore it, threads and
 * processes never share an index, a steady signer's requests reach the
 * worker while it polls and after it went back to sleep. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/statefile.h"
#include "state/statefile_hook.h"
#include "state/stateslot.h"
#include "state_fixture.h"

static fastsig_state *must_open(const char *path, unsigned tag, uint64_t batch)
{
    int rc;
    fastsig_state *st = sf_open(path, tag, &rc);
    CU_ASSERT_EQUAL(rc, FASTSIG_OK);
    if (st != NULL) {
        CU_ASSERT_EQUAL(fastsig_state_set_batch(st, batch), FASTSIG_OK);
        CU_ASSERT_EQUAL(fastsig_state_set_prefetch(st, 1), FASTSIG_OK);
    }
    return st;
}

/* A new state <scratch>/name of key tag with max indices, opened. */
static fastsig_state *fresh(char *path, const char *name, unsigned tag, uint64_t max,
                            uint64_t batch)
{
    CU_ASSERT_EQUAL_FATAL(sf_create(path, name, tag, max, 0), FASTSIG_OK);
    return must_open(path, tag, batch);
}

static int threads_now(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* ---- a slow disk --------------------------------------------------------- */

/* Holds every fdatasync of a thread other than the test's own (the
 * worker's) until the gate opens; gives up after 10 s so that a take() that
 * wrongly waits for the worker fails the test instead of hanging it. */
static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static pthread_t main_thread;
static int gate_open, held, gave_up;

static int slow_disk_hook(enum fs_state_io_op op)
{
    if (op != FS_STATE_IO_SYNC || pthread_equal(pthread_self(), main_thread))
        return 0;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&gate_mu);
    held++;
    pthread_cond_broadcast(&gate_cv);
    while (!gate_open && !gave_up)
        gave_up = pthread_cond_timedwait(&gate_cv, &gate_mu, &until) == ETIMEDOUT;
    held--;
    pthread_mutex_unlock(&gate_mu);
    return 0;
}

static void test_take_does_not_wait_for_slow_sync(void)
{
    char path[PATH_MAX];
    uint64_t idx;
    fastsig_state *st = fresh(path, "slow.state", 40, 1000, 8);
    CU_ASSERT_FATAL(st != NULL);
    main_thread = pthread_self();
    gate_open = gave_up = 0;
    fs_state_io_hook = slow_disk_hook;
    /* [0,1), then [1,9) reserved here; its first take asks for [9,17) */
    for (uint64_t i = 0; i < 9; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    /* all of [1,9) was handed out without waiting for the worker, which
     * is (or soon will be) held in its fdatasync */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&gate_mu);
    while (held == 0 && pthread_cond_timedwait(&gate_cv, &gate_mu, &until) == 0)
        ;
    int was_held = held, timed_out = gave_up;
    gate_open = 1;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_mu);
    CU_ASSERT_EQUAL(was_held, 1);
    CU_ASSERT_EQUAL(timed_out, 0);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 9);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK); /* the worker ends */
    fs_state_io_hook = NULL;
    CU_ASSERT_EQUAL(sf_file_next(path, 40), 10);
}

/* ---- one-shot signers, the switch --------------------------------------- */

static void test_one_shot_starts_no_worker(void)
{
    char path[PATH_MAX];
    uint64_t idx, next, rem;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "oneshot.state", 41, 1000, 0), FASTSIG_OK);
    int before = threads_now();
    fastsig_state *st = must_open(path, 41, 64);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 0);
    CU_ASSERT_EQUAL(threads_now(), before);
    CU_ASSERT_EQUAL(sf_file_next(path, 41), 1);
    /* the second block is reserved here, the third ahead */
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 1);
    CU_ASSERT_EQUAL(threads_now(), before + 1);
    CU_ASSERT(fastsig_state_query(st, &next, &rem, NULL, NULL) == FASTSIG_OK && next == 2 &&
              rem == 998);
    CU_ASSERT_EQUAL(sf_file_next(path, 41), 129);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(threads_now(), before);
    CU_ASSERT_EQUAL(sf_file_next(path, 41), 2);

    /* off: the blocks of before, no thread */
    st = must_open(path, 41, 64);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(fastsig_state_set_prefetch(st, 0), FASTSIG_OK);
    for (uint64_t i = 2; i < 4; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT_EQUAL(threads_now(), before);
    CU_ASSERT_EQUAL(sf_file_next(path, 41), 67);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_set_prefetch(NULL, 1), FASTSIG_ERR_NULL_ARG);

    /* batch 1: one durable write per index, nothing ahead */
    st = must_open(path, 41, 1);
    CU_ASSERT_FATAL(st != NULL);
    for (uint64_t i = 4; i < 7; i++) {
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
        CU_ASSERT_EQUAL(sf_file_next(path, 41), i + 1);
    }
    CU_ASSERT_EQUAL(threads_now(), before);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);

    /* and from the environment at open */
    setenv("FASTSIG_STATE_PREFETCH", "0", 1);
    st = sf_open(path, 41, NULL);
    unsetenv("FASTSIG_STATE_PREFETCH");
    CU_ASSERT_FATAL(st != NULL);
    for (uint64_t i = 7; i < 9; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT_EQUAL(sf_file_next(path, 41), 72);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
}

/* ---- giving back ---------------------------------------------------------- */

static void test_release_gives_back_both_blocks(void)
{
    char path[PATH_MAX];
    uint64_t idx, first, count, rem;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "both.state", 42, 1000, 0), FASTSIG_OK);
    fastsig_state *a = must_open(path, 42, 8), *b = must_open(path, 42, 8);
    CU_ASSERT_FATAL(a && b);
    for (uint64_t i = 0; i < 3; i++)
        CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == i);
    /* a holds [3,9) and [9,17): both are counted as its own */
    CU_ASSERT(fastsig_state_query(a, &idx, &rem, NULL, NULL) == FASTSIG_OK && idx == 3 &&
              rem == 997);
    CU_ASSERT_EQUAL(sf_file_next(path, 42), 17);
    CU_ASSERT_EQUAL(fastsig_state_release(a, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 42), 3); /* one range, one update */

    /* b reserves beyond a's two blocks: both stay burnt */
    for (uint64_t i = 3; i < 5; i++)
        CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT(fastsig_state_query(a, NULL, NULL, NULL, NULL) == FASTSIG_OK); /* worker done */
    CU_ASSERT(fastsig_state_reserve(b, 5, &first, &count, NULL) == FASTSIG_OK && first == 20);
    CU_ASSERT_EQUAL(fastsig_state_release(a, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 42), 25);
    CU_ASSERT_EQUAL(fastsig_state_close(b), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 42), 20);
    CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == 20);
    CU_ASSERT_EQUAL(fastsig_state_close(a), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 42), 21);
}

/* ---- the worker's errors -------------------------------------------------- */

static enum fs_state_io_op fail_op;
static int fail_errno;
static int worker_fault_hook(enum fs_state_io_op op)
{
    return op == fail_op && !pthread_equal(pthread_self(), main_thread) ? fail_errno : 0;
}

static void test_worker_errors_surface_at_the_take(void)
{
    static const struct {
        enum fs_state_io_op op;
        int err;
    } faults[] = {
        { FS_STATE_IO_WRITE, ENOSPC }, { FS_STATE_IO_SYNC, EIO },
        { FS_STATE_IO_LOCK, ENOLCK },  { FS_STATE_IO_READ, EIO },
    };
    char path[PATH_MAX];
    uint64_t idx, seen[64];
    size_t n = 0;
    main_thread = pthread_self();
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "werr.state", 43, 1000, 0), FASTSIG_OK);
    for (size_t f = 0; f < sizeof(faults) / sizeof(faults[0]); f++) {
        fastsig_state *st = must_open(path, 43, 4);
        CU_ASSERT_FATAL(st != NULL);
        fail_op = faults[f].op;
        fail_errno = faults[f].err;
        fs_state_io_hook = worker_fault_hook;
        /* the block in use is unharmed by the failed one ahead */
        for (int i = 0; i < 5; i++)
            CU_ASSERT(fastsig_state_take(st, &seen[n++], NULL) == FASTSIG_OK);
        idx = 777777;
        fastsig_cause cause;
        CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, &cause), FASTSIG_ERR_STATE_IO);
        CU_ASSERT_EQUAL(cause.sys_errno, faults[f].err); /* the worker's, handed over */
        CU_ASSERT_EQUAL(idx, 777777);
        fs_state_io_hook = NULL;
        CU_ASSERT(fastsig_state_take(st, &seen[n++], NULL) == FASTSIG_OK);
        CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            CU_ASSERT(seen[i] != seen[j]);
}

static void test_exhaustion_ahead(void)
{
    char path[PATH_MAX];
    uint64_t idx, rem;
    fastsig_state *st = fresh(path, "wend.state", 44, 7, 3);
    CU_ASSERT_FATAL(st != NULL);
    /* [0,1), [1,4), ahead [4,7); at 4 the worker finds nothing left, which
     * only the take after 6 learns */
    uint64_t got[8], n = 0;
    int rc;
    while (n < 8 && (rc = fastsig_state_take(st, &got[n], NULL)) == FASTSIG_OK)
        n++;
    CU_ASSERT_EQUAL(n, 7);
    CU_ASSERT_EQUAL(rc, FASTSIG_ERR_KEY_EXHAUSTED);
    for (uint64_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(got[i], i);
    CU_ASSERT(fastsig_state_query(st, &idx, &rem, NULL, NULL) == FASTSIG_OK && rem == 0);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_KEY_EXHAUSTED); /* on the spot */
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 44), 7);
}

/* ---- fork ------------------------------------------------------------------ */

/* Child: takes 20 (its own worker starts), none below 17 (the parent's
 * block and the one reserved ahead for it). */
static int child_takes(void *arg)
{
    fastsig_state *st = arg;
    for (int i = 0; i < 20; i++) {
        uint64_t idx;
        if (fastsig_state_take(st, &idx, NULL) != FASTSIG_OK)
            return 4;
        if (idx < 17)
            return 7;
    }
    return fastsig_state_close(st) == FASTSIG_OK ? 0 : 6;
}

/* Child: frees the inherited handle at once, as a forked server's child
 * that does not sign would (the parent's worker waits on a condition
 * variable the child has a copy of); the alarm turns a hang into a failure. */
static int child_closes(void *arg)
{
    alarm(10);
    return fastsig_state_close(arg) == FASTSIG_OK ? 0 : 6;
}

static void test_fork_ignores_the_block_ahead(void)
{
    char path[PATH_MAX];
    uint64_t idx;
    fastsig_state *st = fresh(path, "wfork.state", 45, 1000, 8);
    CU_ASSERT_FATAL(st != NULL);
    for (uint64_t i = 0; i < 2; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT(fastsig_state_query(st, NULL, NULL, NULL, NULL) == FASTSIG_OK); /* [9,17) is in */
    CU_ASSERT_EQUAL(sf_in_child(child_closes, st, 0), 0);
    CU_ASSERT_EQUAL(sf_file_next(path, 45), 17);
    CU_ASSERT_EQUAL(sf_in_child(child_takes, st, 0), 0);
    uint64_t after_child = sf_file_next(path, 45);
    CU_ASSERT(after_child > 17);
    /* the parent goes on with its two blocks */
    for (uint64_t i = 2; i < 17; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    /* and then with blocks beyond the child's */
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx >= after_child);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
}

/* ---- a state file rolled back under a live signer ----------------------------- */

/* Takes until a take fails or n indices came; marks each in seen (1000
 * entries), counting one handed out twice in *twice. Returns the failure. */
static int take_all(fastsig_state *st, int n, uint8_t *seen, int *twice, uint64_t *last)
{
    for (int i = 0; i < n; i++) {
        uint64_t idx;
        int rc = fastsig_state_take(st, &idx, NULL);
        if (rc != FASTSIG_OK)
            return rc;
        CU_ASSERT_FATAL(idx < 1000);
        *twice += seen[idx]++ != 0;
        *last = idx;
    }
    return FASTSIG_OK;
}

static void test_rolled_back_under_a_live_signer(void)
{
    char path[PATH_MAX], old[PATH_MAX];
    uint8_t img[FS_STATE_FILE_SIZE], seen[1000] = { 0 };
    int twice = 0;
    uint64_t last = 0, next, mark, idx = 77, first, count;
    const char *reg = "";
    fastsig_state *st = fresh(path, "rollback.state", 48, 1000, 8);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(take_all(st, 3, seen, &twice, &last), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, img, sizeof(img)), 0); /* the backup */
    /* its next from the copy itself: the worker may move the live file on meanwhile */
    CU_ASSERT_EQUAL_FATAL(sf_write_file(sf_path(old, "rollback.old"), img, sizeof(img)), 0);
    uint64_t old_next = sf_file_next(old, 48);
    /* several blocks more, reserved by the worker */
    CU_ASSERT_EQUAL(take_all(st, 40, seen, &twice, &last), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_query(st, NULL, NULL, NULL, NULL), FASTSIG_OK); /* worker done */
    uint64_t reserved = sf_file_next(path, 48);
    CU_ASSERT(reserved > old_next + 32);
    /* the old copy renamed over the live file */
    CU_ASSERT_EQUAL_FATAL(rename(old, path), 0);
    /* what was reserved before is handed out; the next reservation is refused */
    CU_ASSERT_EQUAL(take_all(st, 100, seen, &twice, &last), FASTSIG_ERR_STATE_ROLLED_BACK);
    CU_ASSERT_EQUAL(twice, 0);
    CU_ASSERT(last < reserved);
    CU_ASSERT(fastsig_state_rollback(st, &next, &mark, &reg) == 1 && next == old_next
              && mark == reserved && reg == NULL);
    /* poisoned: nothing is ever handed out again, nor written */
    for (int i = 0; i < 20; i++)
        CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_ROLLED_BACK);
    CU_ASSERT_EQUAL(idx, 77);
    CU_ASSERT_EQUAL(fastsig_state_reserve(st, 4, &first, &count, NULL),
                    FASTSIG_ERR_STATE_ROLLED_BACK);
    CU_ASSERT_EQUAL(fastsig_state_query(st, NULL, NULL, NULL, NULL), FASTSIG_ERR_STATE_ROLLED_BACK);
    fastsig_state_close(st);
    CU_ASSERT_EQUAL(sf_file_next(path, 48), old_next);
}

/* A forked child knows what its parent reserved (a rollback is refused) but
 * not the parent's unused blocks, which the parent may give back. */
static int child_after_rollback(void *arg)
{
    uint64_t idx;
    return fastsig_state_take(arg, &idx, NULL) == FASTSIG_ERR_STATE_ROLLED_BACK ? 0 : 1;
}

/* Forks a child that waits until the parent gave its blocks back, then
 * takes: its exit status (0: the take worked). */
static int child_takes_after_parents_give_back(fastsig_state *st)
{
    int p[2];
    char c = 0;
    CU_ASSERT_FATAL(pipe(p) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        uint64_t idx;
        alarm(10);
        close(p[1]);
        _exit(read(p[0], &c, 1) == 1 && fastsig_state_take(st, &idx, NULL) == FASTSIG_OK ? 0 : 1);
    }
    close(p[0]);
    CU_ASSERT_EQUAL(fastsig_state_release(st, NULL), FASTSIG_OK); /* below the child's inherited mark */
    CU_ASSERT_EQUAL(write(p[1], &c, 1), 1);
    close(p[1]);
    int status = -1;
    CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_rolled_back_under_a_forked_child(void)
{
    char path[PATH_MAX];
    uint8_t img[FS_STATE_FILE_SIZE], seen[1000] = { 0 };
    int twice = 0;
    uint64_t last;
    fastsig_state *st = fresh(path, "rbfork.state", 49, 1000, 8);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, img, sizeof(img)), 0); /* next 0 */
    CU_ASSERT_EQUAL(take_all(st, 20, seen, &twice, &last), FASTSIG_OK);
    /* a child forked now, the parent gives back its unused indices (the
     * file's next goes down to 20), then the child signs: no alarm */
    CU_ASSERT_EQUAL(fastsig_state_query(st, NULL, NULL, NULL, NULL), FASTSIG_OK); /* worker done */
    CU_ASSERT_EQUAL(sf_file_next(path, 49), 33);
    CU_ASSERT_EQUAL(child_takes_after_parents_give_back(st), 0);
    CU_ASSERT(sf_file_next(path, 49) > 20);
    CU_ASSERT_EQUAL(take_all(st, 12, seen, &twice, &last), FASTSIG_OK);
    /* the state rolled back to next 0: the child refuses what its parent spent */
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, sizeof(img)), 0);
    CU_ASSERT_EQUAL(sf_in_child(child_after_rollback, st, 0), 0);
    CU_ASSERT_EQUAL(twice, 0);
    fastsig_state_close(st);
}

/* ---- threads and processes --------------------------------------------------- */

enum { NTHREAD = 4, PER_THREAD = 300, NPROC = 4, PER_PROC = 150 };

static fastsig_state *shared;
static uint64_t got[NTHREAD * PER_THREAD];

static void *taker(void *arg)
{
    uint64_t *out = arg;
    for (int i = 0; i < PER_THREAD; i++)
        if (fastsig_state_take(shared, &out[i], NULL) != FASTSIG_OK)
            out[i] = UINT64_MAX - (uint64_t)i;
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_threads_and_processes(void)
{
    char path[PATH_MAX];
    pthread_t t[NTHREAD];
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "wthreads.state", 46, 1u << 20, 0), FASTSIG_OK);
    shared = must_open(path, 46, 3);
    CU_ASSERT_FATAL(shared != NULL);
    for (int i = 0; i < NTHREAD; i++)
        CU_ASSERT_FATAL(pthread_create(&t[i], NULL, taker, got + i * PER_THREAD) == 0);
    for (int i = 0; i < NTHREAD; i++)
        pthread_join(t[i], NULL);
    CU_ASSERT_EQUAL(fastsig_state_close(shared), FASTSIG_OK);
    /* one handle, nobody else: every index from 0 on, none burnt */
    qsort(got, NTHREAD * PER_THREAD, sizeof(got[0]), cmp_u64);
    for (uint64_t i = 0; i < NTHREAD * PER_THREAD; i++)
        CU_ASSERT_FATAL(got[i] == i);
    CU_ASSERT_EQUAL(sf_file_next(path, 46), NTHREAD * PER_THREAD);

    /* processes, each with its own handle and worker, at once */
    int out[2];
    pid_t pids[NPROC];
    CU_ASSERT_FATAL(pipe(out) == 0);
    fflush(NULL);
    for (int p = 0; p < NPROC; p++) {
        pids[p] = fork();
        CU_ASSERT_FATAL(pids[p] >= 0);
        if (pids[p] == 0) {
            close(out[0]);
            fastsig_state *st = sf_open(path, 46, NULL);
            if (st == NULL || fastsig_state_set_batch(st, 2 + (uint64_t)p) != FASTSIG_OK)
                _exit(3);
            for (int i = 0; i < PER_PROC; i++) {
                uint64_t idx;
                if (fastsig_state_take(st, &idx, NULL) != FASTSIG_OK ||
                    write(out[1], &idx, sizeof(idx)) != (ssize_t)sizeof(idx))
                    _exit(4);
            }
            _exit(fastsig_state_close(st) == FASTSIG_OK ? 0 : 6);
        }
    }
    close(out[1]);
    size_t n = 0;
    uint64_t x;
    while (n < NTHREAD * PER_THREAD && read(out[0], &x, sizeof(x)) == (ssize_t)sizeof(x))
        got[n++] = x;
    close(out[0]);
    int bad = 0, status;
    for (int p = 0; p < NPROC; p++)
        bad += waitpid(pids[p], &status, 0) != pids[p] || !WIFEXITED(status) ||
               WEXITSTATUS(status) != 0;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL_FATAL(n, NPROC * PER_PROC);
    qsort(got, n, sizeof(got[0]), cmp_u64);
    for (size_t i = 1; i < n; i++)
        CU_ASSERT(got[i] != got[i - 1] && got[i] >= NTHREAD * PER_THREAD);
}

/* ---- a polling worker ------------------------------------------------------- */

static void pause_us(long us)
{
    struct timespec d = { 0, us * 1000 };
    nanosleep(&d, NULL);
}

/* Takes from `from` to `to` - 1, each the next index, us apart. */
static void steady(fastsig_state *st, uint64_t from, uint64_t to, long us)
{
    uint64_t idx;
    for (uint64_t i = from; i < to; i++) {
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
        pause_us(us);
    }
}

static void test_polling_worker(void)
{
    char path[PATH_MAX];
    fastsig_state *st = fresh(path, "poll.state", 47, 10000, 4);
    CU_ASSERT_FATAL(st != NULL);
    /* blocks of 4 every ~0.2 ms: the worker polls for the requests, which
     * only set a flag */
    steady(st, 0, 200, 50);
    /* idle far beyond its polling window: it sleeps, the next request must
     * wake it (else this take waits for ever) */
    pause_us(200000);
    steady(st, 200, 240, 0);
    /* closing while it polls ends it and gives both blocks back */
    steady(st, 240, 300, 50);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 47), 300);
}

int main(void)
{
    static const fs_test ahead_tests[] = {
        { "a take does not wait for the worker's slow fdatasync",
          test_take_does_not_wait_for_slow_sync },
        { "one signature: one index, no worker; the switch", test_one_shot_starts_no_worker },
        { "release gives back the block ahead too, or burns both",
          test_release_gives_back_both_blocks },
        { "the worker's errors surface at the take that needs its block",
          test_worker_errors_surface_at_the_take },
        { "exhaustion found by the worker", test_exhaustion_ahead },
        { "a forked child ignores the block reserved ahead", test_fork_ignores_the_block_ahead },
        { "threads sharing a handle, processes with their own: all distinct",
          test_threads_and_processes },
        { "a steady signer's requests reach the worker, polling or asleep", test_polling_worker },
        { "a state file rolled back under a live signer is refused",
          test_rolled_back_under_a_live_signer },
        { "a forked child refuses a rollback below its parent's reservations, not a give-back",
          test_rolled_back_under_a_forked_child },
        { NULL, NULL },
    };
    static const fs_suite suites[] = {
        { "state: block reserved ahead", ahead_tests },
        { NULL, NULL },
    };
    sf_dir();
    return fs_cu_main(suites);
}
