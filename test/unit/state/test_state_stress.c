/* test_state_stress.c - no index is ever handed out twice: by concurrent
 * processes, by threads sharing a handle or holding their own, by forked
 * children using an inherited handle, or after signers are SIGKILLed at
 * random instants (FASTSIG_SOAK=1 for the long run). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/statefile.h"
#include "state_fixture.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Number of values that occur more than once (sorts v). */
static size_t repeats(uint64_t *v, size_t n)
{
    size_t r = 0;
    qsort(v, n, sizeof(*v), cmp_u64);
    for (size_t i = 1; i < n; i++)
        r += v[i] == v[i - 1];
    return r;
}

/* Reads 8-byte indices from fd until EOF into v (capacity cap); returns n. */
static size_t collect(int fd, uint64_t *v, size_t cap)
{
    size_t n = 0;
    uint64_t x;
    ssize_t r;
    while ((r = read(fd, &x, sizeof(x))) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r != (ssize_t)sizeof(x))
            break;
        if (n < cap)
            v[n] = x;
        n++;
    }
    return n;
}

/* Waits for every child; returns how many did not exit with status 0. */
static int reap(const pid_t *pids, int n)
{
    int bad = 0, status;
    for (int i = 0; i < n; i++)
        bad += waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
               WEXITSTATUS(status) != 0;
    return bad;
}

/* ---- 8 processes x 100 takes ------------------------------------------------- */

enum { NPROC = 8, PER_PROC = 100 };

/* Child: `takes` indices on its own handle (reopened halfway, which gives its
 * tail back), each written to out. Exit status 0 on success. */
static int signer(const char *path, unsigned tag, uint64_t batch, int takes, int out)
{
    fastsig_state *st = NULL;
    for (int i = 0; i < takes; i++) {
        uint64_t idx;
        if (st == NULL && ((st = sf_open(path, tag, NULL)) == NULL ||
                           fastsig_state_set_batch(st, batch) != FASTSIG_OK))
            return 3;
        if (fastsig_state_take(st, &idx, NULL) != FASTSIG_OK)
            return 4;
        if (write(out, &idx, sizeof(idx)) != (ssize_t)sizeof(idx))
            return 5;
        if (i == takes / 2) {
            if (fastsig_state_close(st) != FASTSIG_OK)
                return 6;
            st = NULL;
        }
    }
    return fastsig_state_close(st) == FASTSIG_OK ? 0 : 6;
}

static void test_processes_distinct(void)
{
    char path[PATH_MAX];
    int out[2], go[2];
    pid_t pids[NPROC];
    static uint64_t got[NPROC * PER_PROC + 1];
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "procs.state", 21, 1u << 20, 0), FASTSIG_OK);
    CU_ASSERT_FATAL(pipe(out) == 0 && pipe(go) == 0);
    fflush(NULL);
    for (int p = 0; p < NPROC; p++) {
        pids[p] = fork();
        CU_ASSERT_FATAL(pids[p] >= 0);
        if (pids[p] == 0) {
            char c;
            close(out[0]);
            close(go[1]);
            while (read(go[0], &c, 1) < 0 && errno == EINTR) /* start together */
                ;
            _exit(signer(path, 21, 1 + (uint64_t)(p % 4), PER_PROC, out[1]));
        }
    }
    close(out[1]);
    close(go[0]);
    close(go[1]); /* EOF: go */
    size_t n = collect(out[0], got, NPROC * PER_PROC + 1);
    close(out[0]);
    CU_ASSERT_EQUAL(reap(pids, NPROC), 0);
    CU_ASSERT_EQUAL_FATAL(n, NPROC * PER_PROC);
    CU_ASSERT_EQUAL(repeats(got, n), 0);
    CU_ASSERT(sf_file_next(path, 21) > got[n - 1]);
}

/* ---- threads ------------------------------------------------------------------ */

enum { NTHREAD = 8, PER_THREAD = 200 };

struct thread_job {
    fastsig_state *shared; /* NULL: open a handle of its own */
    const char *path;
    uint64_t *out;         /* PER_THREAD slots */
    int failures;
};

static void *thread_signer(void *arg)
{
    struct thread_job *j = arg;
    fastsig_state *st = j->shared ? j->shared : sf_open(j->path, 22, NULL);
    if (st == NULL || (j->shared == NULL && fastsig_state_set_batch(st, 3) != FASTSIG_OK)) {
        j->failures = PER_THREAD;
        return NULL;
    }
    for (int i = 0; i < PER_THREAD; i++)
        j->failures += fastsig_state_take(st, &j->out[i], NULL) != FASTSIG_OK;
    if (j->shared == NULL)
        j->failures += fastsig_state_close(st) != FASTSIG_OK;
    return NULL;
}

static void run_threads(int shared)
{
    char path[PATH_MAX];
    static uint64_t got[NTHREAD * PER_THREAD];
    struct thread_job jobs[NTHREAD];
    pthread_t th[NTHREAD];
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "threads.state", 22, 1u << 20, 0), FASTSIG_OK);
    fastsig_state *st = shared ? sf_open(path, 22, NULL) : NULL;
    if (shared) {
        CU_ASSERT_FATAL(st != NULL);
        fastsig_state_set_batch(st, 5);
    }
    for (int t = 0; t < NTHREAD; t++) {
        jobs[t] = (struct thread_job){ st ? fastsig_state_ref(st) : NULL, path,
                                       got + t * PER_THREAD, 0 };
        CU_ASSERT_FATAL(pthread_create(&th[t], NULL, thread_signer, &jobs[t]) == 0);
    }
    int failures = 0;
    for (int t = 0; t < NTHREAD; t++) {
        pthread_join(th[t], NULL);
        failures += jobs[t].failures;
        fastsig_state_close(jobs[t].shared);
    }
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(failures, 0);
    CU_ASSERT_EQUAL(repeats(got, NTHREAD * PER_THREAD), 0);
    CU_ASSERT(sf_file_next(path, 22) > got[NTHREAD * PER_THREAD - 1]);
}

static void test_threads_sharing_a_handle(void)
{
    run_threads(1);
}

static void test_threads_with_own_handles(void)
{
    run_threads(0);
}

/* ---- fork --------------------------------------------------------------------- */

enum { NFORK = 4, PER_FORK = 100 };

static void test_forked_children_re_reserve(void)
{
    char path[PATH_MAX];
    int out[2];
    pid_t pids[NFORK];
    static uint64_t got[(NFORK + 1) * PER_FORK + 2];
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "fork.state", 23, 1u << 20, 0), FASTSIG_OK);
    fastsig_state *st = sf_open(path, 23, NULL);
    CU_ASSERT_FATAL(st != NULL);
    fastsig_state_set_batch(st, 8);
    uint64_t first, count, idx;
    CU_ASSERT_FATAL(fastsig_state_reserve(st, 8, &first, &count, NULL) == FASTSIG_OK && first == 0);
    CU_ASSERT_FATAL(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 0);
    /* the parent holds 1..7 now; children use the inherited handle at once.
     * Odd children come from _Fork(), which runs no atfork handlers: the
     * handle must notice the new process all the same. */
    CU_ASSERT_FATAL(pipe(out) == 0);
    fflush(NULL);
    for (int c = 0; c < NFORK; c++) {
        pids[c] = c % 2 ? _Fork() : fork();
        CU_ASSERT_FATAL(pids[c] >= 0);
        if (pids[c] == 0) {
            close(out[0]);
            for (int i = 0; i < PER_FORK; i++) {
                if (fastsig_state_take(st, &idx, NULL) != FASTSIG_OK)
                    _exit(4);
                if (idx < 8) /* the parent's block */
                    _exit(7);
                if (write(out[1], &idx, sizeof(idx)) != (ssize_t)sizeof(idx))
                    _exit(5);
            }
            _exit(fastsig_state_close(st) == FASTSIG_OK ? 0 : 6);
        }
    }
    close(out[1]);
    size_t n = 0;
    got[n++] = 0;
    int failures = 0;
    for (int i = 0; i < PER_FORK; i++) { /* the parent signs meanwhile */
        failures += fastsig_state_take(st, &got[n], NULL) != FASTSIG_OK;
        n++;
    }
    n += collect(out[0], got + n, NFORK * PER_FORK + 1);
    close(out[0]);
    CU_ASSERT_EQUAL(failures, 0);
    CU_ASSERT_EQUAL(reap(pids, NFORK), 0);
    CU_ASSERT_EQUAL_FATAL(n, (NFORK + 1) * PER_FORK + 1);
    CU_ASSERT_EQUAL(repeats(got, n), 0);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
}

/* ---- SIGKILL at random instants ------------------------------------------------ */

/* Appends idx to the log and makes it durable: the record exists before the
 * index could be used. */
static int log_index(int fd, uint64_t idx)
{
    return write(fd, &idx, sizeof(idx)) == (ssize_t)sizeof(idx) && fdatasync(fd) == 0 ? 0 : -1;
}

/* Even runs are killed at a blind instant after fork() (often while the
 * child opens or reserves), odd runs at a random instant after the child's
 * first logged signature, so that every run of the test surely exercises
 * both. */

/* Child: signs forever in sessions of a few signatures (each session a fresh
 * handle that gives its tail back) until it is killed. Writes a byte to
 * `ready` once its first index is logged. */
static void endless_signer(const char *path, const char *log, uint64_t seed, int ready)
{
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        _exit(2);
    for (;;) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        fastsig_state *st = sf_open(path, 24, NULL);
        if (st == NULL || fastsig_state_set_batch(st, 1 + (seed >> 33) % 8) != FASTSIG_OK)
            _exit(3);
        for (uint64_t i = 0, n = 1 + (seed >> 40) % 20; i < n; i++) {
            uint64_t idx;
            if (fastsig_state_take(st, &idx, NULL) != FASTSIG_OK)
                _exit(4);
            if (log_index(fd, idx) != 0)
                _exit(5);
            if (ready >= 0) {
                if (write(ready, "", 1) != 1)
                    _exit(7);
                close(ready);
                ready = -1;
            }
        }
        if (fastsig_state_close(st) != FASTSIG_OK)
            _exit(6);
    }
}

/* Appends the complete 8-byte records of a log file to *v. */
static void read_log(const char *log, uint64_t **v, size_t *n, size_t *cap)
{
    int fd = open(log, O_RDONLY);
    if (fd < 0)
        return;
    uint64_t x;
    while (read(fd, &x, sizeof(x)) == (ssize_t)sizeof(x)) {
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 4096;
            *v = realloc(*v, *cap * sizeof(**v));
            if (*v == NULL)
                abort();
        }
        (*v)[(*n)++] = x;
    }
    close(fd);
}

static void test_sigkill_never_repeats(void)
{
    char path[PATH_MAX], log[PATH_MAX + 32];
    int kills = sf_soak() ? 1000 : 80, not_killed = 0, signed_runs = 0;
    uint64_t *v = NULL;
    size_t n = 0, cap = 0;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "kill.state", 24, 1u << 24, 0), FASTSIG_OK);
    for (int k = 0; k < kills; k++) {
        snprintf(log, sizeof(log), "%s/kill-%d.log", sf_dir(), k);
        uint64_t r = fs_test_rand64();
        int ready[2];
        CU_ASSERT_FATAL(pipe(ready) == 0);
        fflush(NULL);
        pid_t pid = fork();
        CU_ASSERT_FATAL(pid >= 0);
        if (pid == 0) {
            close(ready[0]);
            endless_signer(path, log, r, ready[1]);
        }
        close(ready[1]);
        char c;
        if (k % 2) /* odd runs: the instant counts from the first signature */
            signed_runs += read(ready[0], &c, 1) == 1;
        struct timespec d = { 0, (long)(r % 15000) * 1000 }; /* 0..15 ms */
        nanosleep(&d, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        close(ready[0]); /* only now: an early close would SIGPIPE the child */
        if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
            fprintf(stderr, "(run %d: status %#x instead of SIGKILL)\n", k, status);
        not_killed += !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        read_log(log, &v, &n, &cap);
    }
    /* then sign normally: still distinct from everything before */
    fastsig_state *st = sf_open(path, 24, NULL);
    CU_ASSERT_FATAL(st != NULL);
    for (int i = 0; i < 50; i++) {
        uint64_t idx;
        CU_ASSERT_FATAL(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK);
        if (n == cap)
            v = realloc(v, (cap = 2 * cap + 64) * sizeof(*v));
        v[n++] = idx;
    }
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    uint64_t spent = sf_file_next(path, 24);
    CU_ASSERT_EQUAL(not_killed, 0);
    CU_ASSERT_EQUAL(signed_runs, kills / 2); /* half the children surely signed */
    CU_ASSERT(n >= (size_t)signed_runs + 50);
    CU_ASSERT_EQUAL(repeats(v, n), 0);
    CU_ASSERT(spent != UINT64_MAX && spent > v[n - 1]);
    fprintf(stderr, "(%d kills: %zu indices signed, %llu spent, %llu burnt)\n", kills, n,
            (unsigned long long)spent, (unsigned long long)(spent - n));
    free(v);
}

static const fs_test stress_tests[] = {
    { "8 processes x 100 takes: all distinct", test_processes_distinct },
    { "8 threads sharing a handle: all distinct", test_threads_sharing_a_handle },
    { "8 threads with their own handles: all distinct", test_threads_with_own_handles },
    { "children of fork() and _Fork() re-reserve, never use the parent's block", test_forked_children_re_reserve },
    { "SIGKILL at random instants: no index repeats", test_sigkill_never_repeats },
    { NULL, NULL },
};

int main(void)
{
    static const fs_suite suites[] = {
        { "state under concurrency and crashes", stress_tests },
        { NULL, NULL },
    };
    sf_dir();
    return fs_cu_main(suites);
}
