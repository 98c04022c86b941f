/* test_cause.c - a failing call of crypto/state fills its caller's cause
 * (statecause.h) at the failure: the code, errno of the failing system
 * call, what the path is, the path and the reason in words, for each kind
 * of failure the provider reports; and two threads failing at once on
 * different files each get their own cause. */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/statefile.h"
#include "state/registry.h"
#include "state_fixture.h"

/* Opens path for key tag; the result, its cause in *c. */
static int open_with_cause(const char *path, unsigned tag, fastsig_cause *c)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_state *st = NULL;
    sf_key(id, tag);
    memset(c, 0x5a, sizeof(*c)); /* whatever was there before is overwritten */
    int rc = fastsig_state_open(path, id, &st, c);
    fastsig_state_close(st);
    return rc;
}

static void assert_cause(const fastsig_cause *c, int code, int sys_errno, const char *what,
                         const char *path, const char *why)
{
    CU_ASSERT_EQUAL(c->code, code);
    CU_ASSERT_EQUAL(c->sys_errno, sys_errno);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c->what);
    CU_ASSERT_STRING_EQUAL(c->what, what);
    CU_ASSERT_STRING_EQUAL(c->path, path);
    CU_ASSERT_PTR_NOT_NULL(strstr(c->why, why));
}

static void test_missing(void)
{
    char path[PATH_MAX];
    fastsig_cause c;
    sf_path(path, "cause-missing.state");
    CU_ASSERT_EQUAL(open_with_cause(path, 1, &c), FASTSIG_ERR_STATE_MISSING);
    assert_cause(&c, FASTSIG_ERR_STATE_MISSING, ENOENT, "state file", path, "");
    CU_ASSERT_STRING_EQUAL(c.why, "");
}

static void test_not_a_regular_file(void)
{
    char path[PATH_MAX];
    fastsig_cause c;
    sf_path(path, "cause-fifo.state");
    unlink(path);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
    CU_ASSERT_EQUAL(open_with_cause(path, 2, &c), FASTSIG_ERR_STATE_NOT_FILE);
    CU_ASSERT_EQUAL(c.code, FASTSIG_ERR_STATE_NOT_FILE);
    CU_ASSERT(c.sys_errno == EINVAL || c.sys_errno == ENXIO);
    CU_ASSERT_STRING_EQUAL(c.what, "state file");
    CU_ASSERT_STRING_EQUAL(c.path, path);
    unlink(path);
}

static void test_untrusted_mode(void)
{
    char path[PATH_MAX];
    fastsig_cause c;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "cause-open.state", 3, 100, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL(chmod(path, 0666), 0);
    CU_ASSERT_EQUAL(open_with_cause(path, 3, &c), FASTSIG_ERR_STATE_UNTRUSTED);
    assert_cause(&c, FASTSIG_ERR_STATE_UNTRUSTED, EPERM, "state file", path,
                 "writable by group or others (mode 0666)");
    CU_ASSERT_EQUAL(c.is_dir, 0);
}

static void test_locked(void)
{
    char path[PATH_MAX];
    fastsig_cause c;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "cause-locked.state", 4, 100, 0), FASTSIG_OK);
    int fd = open(path, O_RDWR);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    CU_ASSERT_FATAL(fd >= 0 && fcntl(fd, F_OFD_SETLK, &fl) == 0);
    unsigned before = fastsig_state_lock_timeout();
    fastsig_state_set_lock_timeout(0);
    CU_ASSERT_EQUAL(open_with_cause(path, 4, &c), FASTSIG_ERR_STATE_LOCKED);
    CU_ASSERT(c.sys_errno == EAGAIN || c.sys_errno == EACCES);
    assert_cause(&c, FASTSIG_ERR_STATE_LOCKED, c.sys_errno, "state file", path, "");
    fastsig_state_set_lock_timeout(before);
    close(fd);
}

/* A copy put back under a live handle: no errno says anything there. */
static void test_rolled_back(void)
{
    char path[PATH_MAX], real[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_cause c;
    uint64_t idx;
    sf_key(id, 5);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "cause-rollback.state", 5, 100, 0), FASTSIG_OK);
    CU_ASSERT_FATAL(realpath(path, real) != NULL);
    fastsig_state *st = sf_open(path, 5, NULL);
    CU_ASSERT_FATAL(st != NULL);
    fastsig_state_set_batch(st, 1);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, &c), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, &c), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 100, 0, FASTSIG_STATE_OVERWRITE, NULL),
                    FASTSIG_OK);
    errno = EIO; /* a stale errno must not become the cause's */
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, &c), FASTSIG_ERR_STATE_ROLLED_BACK);
    assert_cause(&c, FASTSIG_ERR_STATE_ROLLED_BACK, 0, "state file", real, "");
    fastsig_state_close(st);
}

static void test_registry_entry(void)
{
    char dir[PATH_MAX], entry[PATH_MAX], found[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_cause c;
    sf_key(id, 6);
    sf_path(dir, "cause-registry");
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
    CU_ASSERT_EQUAL(fastsig_registry_claim(dir, id, "/s/a.state", found, sizeof(found), &c),
                    FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_registry_claim(dir, id, "/s/b.state", found, sizeof(found), &c),
                    FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_EQUAL(fastsig_registry_entry_path(dir, id, entry, sizeof(entry)), FASTSIG_OK);
    assert_cause(&c, FASTSIG_ERR_STATE_REGISTERED, 0, "registry entry", entry, "");
    CU_ASSERT_STRING_EQUAL(found, "/s/a.state");
}

/* Two threads fail again and again at the same time, each on its own file
 * and for its own reason; each cause is only ever its own. */
#define ROUNDS 300
struct racer {
    char path[PATH_MAX];
    unsigned tag;
    int code, sys_errno;
    pthread_barrier_t *go;
    int wrong;
};

static void *race(void *arg)
{
    struct racer *r = arg;
    fastsig_cause c;
    pthread_barrier_wait(r->go);
    for (int i = 0; i < ROUNDS; i++) {
        int rc = open_with_cause(r->path, r->tag, &c);
        if (rc != r->code || c.code != r->code || c.sys_errno != r->sys_errno
            || strcmp(c.path, r->path) != 0)
            r->wrong++;
    }
    return NULL;
}

static void test_two_threads_own_causes(void)
{
    pthread_barrier_t go;
    pthread_t t[2];
    struct racer r[2] = { { .tag = 7, .code = FASTSIG_ERR_STATE_MISSING, .sys_errno = ENOENT },
                          { .tag = 8, .code = FASTSIG_ERR_STATE_UNTRUSTED, .sys_errno = EPERM } };
    sf_path(r[0].path, "cause-race-missing.state");
    CU_ASSERT_EQUAL_FATAL(sf_create(r[1].path, "cause-race-open.state", 8, 100, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL(chmod(r[1].path, 0666), 0);
    pthread_barrier_init(&go, NULL, 2);
    for (int i = 0; i < 2; i++) {
        r[i].go = &go;
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    CU_ASSERT_EQUAL(r[0].wrong, 0);
    CU_ASSERT_EQUAL(r[1].wrong, 0);
}

int main(void)
{
    static const fs_test tests[] = {
        { "missing file", test_missing },
        { "not a regular file", test_not_a_regular_file },
        { "open to other users", test_untrusted_mode },
        { "locked by another holder", test_locked },
        { "rolled back under a live handle", test_rolled_back },
        { "registry entry held", test_registry_entry },
        { "two threads failing at once keep their own causes", test_two_threads_own_causes },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "state causes", tests }, { NULL, NULL } };
    sf_dir();
    return fs_cu_main(suites);
}
