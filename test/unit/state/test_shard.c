/* test_shard.c - carving ranges of a state into shard state files
 * (crypto/state/shard.h): the ranges taken, what is refused and leaves the
 * parent as it was, shards of shards, and SIGKILL in the window between the
 * parent's update and the shard's file (FASTSIG_SOAK=1: 1000 kills). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/shard.h"
#include "state/statefile.h"
#include "state/statefile_hook.h"
#include "state_fixture.h"

/* the key id of the files a test makes (one per test: the kill tests count
 * the files of theirs) */
static unsigned TAG = 7;

static fastsig_state *must_open(const char *path)
{
    int rc;
    fastsig_state *st = sf_open(path, TAG, &rc);
    CU_ASSERT_EQUAL(rc, FASTSIG_OK);
    return st;
}

/* What a state file holds: max and next (both UINT64_MAX if unusable). */
static void file_range(const char *path, uint64_t *max, uint64_t *next)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, TAG);
    *max = *next = UINT64_MAX;
    fastsig_state_peek(path, id, next, NULL, max, NULL);
}

static int carve(fastsig_state *st, uint64_t first, uint64_t count, const char *path,
                 char *out, uint64_t *got)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, TAG);
    return fastsig_state_carve(st, id, first, count, path ? NULL : sf_dir(), path, out,
                               PATH_MAX, got, NULL);
}

static void test_carve_from_next_and_range(void)
{
    char parent[PATH_MAX], child[PATH_MAX], want[PATH_MAX];
    uint64_t got, max, next, idx;
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];

    CU_ASSERT_EQUAL_FATAL(sf_create(parent, "carve.state", TAG, 1000, 0), FASTSIG_OK);
    fastsig_state *st = must_open(parent);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 0); /* block [0, 1) */

    /* from next: [1, 101), named by key id and range in the directory */
    CU_ASSERT_EQUAL(carve(st, FASTSIG_STATE_FROM_NEXT, 100, NULL, child, &got), FASTSIG_OK);
    CU_ASSERT_EQUAL(got, 1);
    sf_key(id, TAG);
    CU_ASSERT_EQUAL(fastsig_state_shard_path(sf_dir(), id, 1, 101, want, sizeof(want)),
                    FASTSIG_OK);
    CU_ASSERT_STRING_EQUAL(child, want);
    file_range(child, &max, &next);
    CU_ASSERT(max == 101 && next == 1);
    CU_ASSERT_EQUAL(sf_file_next(parent, TAG), 101);

    /* an explicit range: what lies between next and it is burnt */
    CU_ASSERT_EQUAL(carve(st, 500, 100, NULL, child, &got), FASTSIG_OK);
    CU_ASSERT_EQUAL(got, 500);
    file_range(child, &max, &next);
    CU_ASSERT(max == 600 && next == 500);
    CU_ASSERT_EQUAL(sf_file_next(parent, TAG), 600);

    /* the parent's own signing goes on past the shards */
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 600);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
}

static void test_refusals_leave_parent_alone(void)
{
    char parent[PATH_MAX], child[PATH_MAX], path[PATH_MAX];
    uint64_t got = 42;

    CU_ASSERT_EQUAL_FATAL(sf_create(parent, "refuse.state", TAG, 100, 50), FASTSIG_OK);
    fastsig_state *st = must_open(parent);
    CU_ASSERT_FATAL(st != NULL);
    /* spent already, past max, overflowing, empty */
    CU_ASSERT_EQUAL(carve(st, 10, 5, NULL, child, &got), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(st, 49, 2, NULL, child, &got), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(st, 90, 11, NULL, child, &got), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(st, 100, 1, NULL, child, &got), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(st, 60, UINT64_MAX - 10, NULL, child, &got), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(st, FASTSIG_STATE_FROM_NEXT, 51, NULL, child, &got),
                    FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(st, FASTSIG_STATE_FROM_NEXT, 0, NULL, child, &got),
                    FASTSIG_ERR_BAD_PARAM);
    /* a shard path that exists: refused before the parent moves */
    CU_ASSERT_EQUAL(carve(st, FASTSIG_STATE_FROM_NEXT, 5, parent, child, &got),
                    FASTSIG_ERR_STATE_EXISTS);
    CU_ASSERT_EQUAL(got, 42);
    CU_ASSERT_EQUAL(sf_file_next(parent, TAG), 50);
    /* the whole rest, to a named file */
    sf_path(path, "refuse-all.state");
    unlink(path);
    CU_ASSERT_EQUAL(carve(st, FASTSIG_STATE_FROM_NEXT, 50, path, child, &got), FASTSIG_OK);
    CU_ASSERT_STRING_EQUAL(child, path);
    CU_ASSERT_EQUAL(sf_file_next(parent, TAG), 100);
    CU_ASSERT_EQUAL(carve(st, FASTSIG_STATE_FROM_NEXT, 1, NULL, child, &got),
                    FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
}

/* A shard's file in a missing directory, or an explicit range whose file
 * exists already: refused before the parent moves, out naming the path. */
static void test_missing_dir_spends_nothing(void)
{
    char parent[PATH_MAX], child[PATH_MAX], missing[PATH_MAX], name[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t got = 42;

    sf_key(id, TAG);
    CU_ASSERT_EQUAL_FATAL(sf_create(parent, "nodir.state", TAG, 100, 10), FASTSIG_OK);
    fastsig_state *st = must_open(parent);
    CU_ASSERT_FATAL(st != NULL);
    sf_path(missing, "no-such-dir/shard.state");
    CU_ASSERT_EQUAL(carve(st, FASTSIG_STATE_FROM_NEXT, 5, missing, child, &got),
                    FASTSIG_ERR_STATE_NO_DIR);
    sf_path(missing, "no-such-dir");
    CU_ASSERT_EQUAL(fastsig_state_carve(st, id, 20, 5, missing, NULL, child, PATH_MAX, &got, NULL),
                    FASTSIG_ERR_STATE_NO_DIR);
    CU_ASSERT_STRING_EQUAL(child, missing);
    /* [20, 25)'s name taken by a stray file */
    CU_ASSERT_EQUAL(fastsig_state_shard_path(sf_dir(), id, 20, 25, name, sizeof(name)),
                    FASTSIG_OK);
    FILE *stray = fopen(name, "w");
    CU_ASSERT_FATAL(stray != NULL);
    fclose(stray);
    CU_ASSERT_EQUAL(carve(st, 20, 5, NULL, child, &got), FASTSIG_ERR_STATE_EXISTS);
    CU_ASSERT_STRING_EQUAL(child, name);
    CU_ASSERT_EQUAL(got, 42);
    CU_ASSERT_EQUAL(sf_file_next(parent, TAG), 10);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    unlink(name);
}

/* A shard's state is carved like any other: the grandchild lies inside the
 * shard's unspent part, never outside the shard. */
static void test_shard_of_shard(void)
{
    char parent[PATH_MAX], child[PATH_MAX], grand[PATH_MAX];
    uint64_t got, max, next;

    CU_ASSERT_EQUAL_FATAL(sf_create(parent, "sos.state", TAG, 1 << 20, 0), FASTSIG_OK);
    fastsig_state *st = must_open(parent);
    CU_ASSERT_EQUAL_FATAL(carve(st, 4096, 4096, NULL, child, &got), FASTSIG_OK);
    fastsig_state *sh = must_open(child);
    CU_ASSERT_FATAL(sh != NULL);
    CU_ASSERT_EQUAL(carve(sh, 0, 10, NULL, grand, &got), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(sh, 8000, 200, NULL, grand, &got), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(sh, FASTSIG_STATE_FROM_NEXT, 1024, NULL, grand, &got), FASTSIG_OK);
    CU_ASSERT_EQUAL(got, 4096);
    file_range(grand, &max, &next);
    CU_ASSERT(max == 5120 && next == 4096);
    file_range(child, &max, &next);
    CU_ASSERT(max == 8192 && next == 5120);
    fastsig_state_close(sh);
    fastsig_state_close(st);
}

static void kill_self(void)
{
    raise(SIGKILL);
}

struct carve_child {
    const char *parent;
    int in_window; /* die between the parent's update and the shard's file */
};

static int carve_child(void *arg)
{
    const struct carve_child *c = arg;
    char out[PATH_MAX];
    uint64_t got, idx;
    fastsig_state *st = sf_open(c->parent, TAG, NULL);
    if (st == NULL)
        return 1;
    fastsig_state_take(st, &idx, NULL); /* a signer's block too */
    if (c->in_window)
        fs_state_carve_hook = kill_self;
    return carve(st, FASTSIG_STATE_FROM_NEXT, 3, NULL, out, &got) == FASTSIG_OK ? 0 : 2;
}

/* Files in the scratch directory named <prefix>*.state. */
static int count_files(const char *prefix)
{
    const char *base = strrchr(prefix, '/') + 1;
    DIR *d = opendir(sf_dir());
    struct dirent *e;
    int n = 0;
    size_t bl = strlen(base), l;
    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        l = strlen(e->d_name);
        n += strncmp(e->d_name, base, bl) == 0 && l > 6 && strcmp(e->d_name + l - 6, ".state") == 0;
    }
    closedir(d);
    return n;
}

/* Every shard file and the parent's next: no index may be in two shards
 * or in a shard and the parent's unspent part. */
static void check_disjoint(const char *parent, int expect_shards)
{
    char prefix[PATH_MAX], path[PATH_MAX + 48];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t pnext = sf_file_next(parent, TAG), max, next;
    static uint8_t seen[8192];
    int shards = 0, overlap = 0;

    memset(seen, 0, sizeof(seen));
    sf_key(id, TAG);
    fastsig_state_shard_path(sf_dir(), id, 0, 0, prefix, sizeof(prefix));
    *strrchr(prefix, '.') = '\0'; /* ".state" */
    *strrchr(prefix, '.') = '\0'; /* ".0-0" */
    int files = count_files(prefix); /* any shard outside [0, pnext) is missed below */
    for (uint64_t a = 0; a + 3 <= pnext && a < sizeof(seen); a++) {
        snprintf(path, sizeof(path), "%s.%llu-%llu.state", prefix, (unsigned long long)a,
                 (unsigned long long)(a + 3));
        if (access(path, F_OK) != 0)
            continue;
        file_range(path, &max, &next);
        CU_ASSERT(max == a + 3 && next == a);
        for (uint64_t i = a; i < a + 3; i++)
            overlap += seen[i]++ != 0;
        shards++;
        unlink(path);
    }
    CU_ASSERT_EQUAL(overlap, 0);
    CU_ASSERT_EQUAL(files, shards);
    if (expect_shards >= 0)
        CU_ASSERT_EQUAL(shards, expect_shards);
}

static void test_sigkill_in_the_window(void)
{
    char parent[PATH_MAX];
    int runs = sf_soak() ? 1000 : 100, status;
    struct carve_child c = { parent, 1 };
    TAG = 8;

    CU_ASSERT_EQUAL_FATAL(sf_create(parent, "kill.state", TAG, 8192, 0), FASTSIG_OK);
    for (int i = 0; i < runs; i++) {
        uint64_t before = sf_file_next(parent, TAG);
        status = sf_in_child(carve_child, &c, 0);
        CU_ASSERT_EQUAL(status, -1); /* killed */
        /* the parent moved past the signer's block and the range, and no
         * shard file appeared: the range is lost, not reissued */
        CU_ASSERT_EQUAL(sf_file_next(parent, TAG), before + 4);
    }
    check_disjoint(parent, 0);
}

/* Killed at any moment of a carve (and of a signer's reservation before
 * it): whatever files exist, no index is in two places. */
static void test_sigkill_at_random_times(void)
{
    char parent[PATH_MAX];
    int runs = sf_soak() ? 1000 : 100;
    struct carve_child c = { parent, 0 };
    TAG = 9;

    CU_ASSERT_EQUAL_FATAL(sf_create(parent, "killr.state", TAG, 8192, 0), FASTSIG_OK);
    for (int i = 0; i < runs; i++) {
        pid_t pid = fork();
        if (pid == 0)
            _exit(carve_child(&c));
        CU_ASSERT_FATAL(pid > 0);
        usleep((useconds_t)(fs_test_rand64() % 400));
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    check_disjoint(parent, -1);
}

static const fs_test shard_tests[] = {
    { "carve from next and an explicit range", test_carve_from_next_and_range },
    { "refusals leave the parent as it was", test_refusals_leave_parent_alone },
    { "a shard state in a missing directory spends nothing", test_missing_dir_spends_nothing },
    { "a shard of a shard stays inside it", test_shard_of_shard },
    { "SIGKILL between parent update and shard file", test_sigkill_in_the_window },
    { "SIGKILL at random times during carves", test_sigkill_at_random_times },
    { NULL, NULL },
};

int main(void)
{
    static const fs_suite suites[] = {
        { "state shards", shard_tests },
        { NULL, NULL },
    };
    sf_dir();
    return fs_cu_main(suites);
}
