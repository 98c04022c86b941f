/* test_lockwait.c - bounded lock waits: the lock timeout's text form, and a
 * state file whose lock another holder keeps: open, take, query, peek and
 * inspect give up after the timeout with STATE_LOCKED (nothing handed out)
 * instead of waiting forever, and work once the lock is free; a holder
 * that keeps changing the file (signers taking turns) is waited for. */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/statefile.h"
#include "state_fixture.h"

static void test_parse(void)
{
    static const struct {
        const char *text;
        int rc;
        unsigned ms;
    } rows[] = {
        { "5", FASTSIG_OK, 5000 },       { "0", FASTSIG_OK, 0 },
        { "0.25", FASTSIG_OK, 250 },     { "1.5", FASTSIG_OK, 1500 },
        { ".5", FASTSIG_OK, 500 },       { "2.", FASTSIG_OK, 2000 },
        { "0.001", FASTSIG_OK, 1 },      { "86400", FASTSIG_OK, 86400000 },
        { "", FASTSIG_ERR_BAD_PARAM, 0 }, { ".", FASTSIG_ERR_BAD_PARAM, 0 },
        { "abc", FASTSIG_ERR_BAD_PARAM, 0 }, { "-1", FASTSIG_ERR_BAD_PARAM, 0 },
        { "1.2345", FASTSIG_ERR_BAD_PARAM, 0 }, { "1e3", FASTSIG_ERR_BAD_PARAM, 0 },
        { "86401", FASTSIG_ERR_BAD_PARAM, 0 }, { "5 ", FASTSIG_ERR_BAD_PARAM, 0 },
        { "99999999999999999999", FASTSIG_ERR_BAD_PARAM, 0 },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        unsigned ms = 12345;
        CU_ASSERT_EQUAL(fastsig_state_parse_timeout(rows[i].text, &ms), rows[i].rc);
        CU_ASSERT_EQUAL(ms, rows[i].rc == FASTSIG_OK ? rows[i].ms : 12345u);
    }
    CU_ASSERT_EQUAL(fastsig_state_parse_timeout(NULL, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fastsig_state_lock_timeout(), FASTSIG_STATE_LOCK_TIMEOUT_MS);
}

/* Another open file description holding an exclusive OFD lock on path (as
 * a signer in another process updating it): its descriptor. */
static int hold(const char *path)
{
    int fd = open(path, O_RDWR);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    CU_ASSERT_FATAL(fd >= 0 && fcntl(fd, F_OFD_SETLK, &fl) == 0);
    return fd;
}

static void test_locked_state(void)
{
    char path[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t idx = 99, next;
    fastsig_state_info info;
    int rc;
    sf_key(id, 1);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "locked.state", 1, 100, 0), FASTSIG_OK);
    fastsig_state *st = sf_open(path, 1, &rc);
    CU_ASSERT_FATAL(rc == FASTSIG_OK && st != NULL);

    fastsig_state_set_lock_timeout(50);
    int fd = hold(path);
    CU_ASSERT_PTR_NULL(sf_open(path, 1, &rc));
    CU_ASSERT_EQUAL(rc, FASTSIG_ERR_STATE_LOCKED);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_LOCKED);
    CU_ASSERT_EQUAL(idx, 99); /* nothing handed out */
    CU_ASSERT_EQUAL(fastsig_state_query(st, &next, NULL, NULL, NULL), FASTSIG_ERR_STATE_LOCKED);
    CU_ASSERT_EQUAL(fastsig_state_peek(path, id, &next, NULL, NULL, NULL), FASTSIG_ERR_STATE_LOCKED);
    CU_ASSERT_EQUAL(fastsig_state_inspect(path, &info, NULL), FASTSIG_ERR_STATE_LOCKED);
    fastsig_state_set_lock_timeout(0); /* tries once */
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_LOCKED);
    close(fd);

    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(idx, 0);
    fastsig_state_set_lock_timeout(FASTSIG_STATE_LOCK_TIMEOUT_MS);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 1), 1);
}

/* Holds the lock for 15 x 20 ms while changing the file's time, as signers
 * taking turns would, then lets go. */
static void *busy_holder(void *arg)
{
    int fd = *(int *)arg;
    struct timespec ms20 = { 0, 20 * 1000 * 1000 };
    for (int i = 0; i < 15; i++) {
        nanosleep(&ms20, NULL);
        futimens(fd, NULL);
    }
    close(fd);
    return NULL;
}

static void test_progress_restarts_the_wait(void)
{
    char path[PATH_MAX];
    uint64_t idx = 99;
    int rc;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "busy.state", 2, 100, 0), FASTSIG_OK);
    fastsig_state *st = sf_open(path, 2, &rc);
    CU_ASSERT_FATAL(rc == FASTSIG_OK && st != NULL);
    int fd = hold(path);
    pthread_t t;
    fastsig_state_set_lock_timeout(100); /* shorter than the holder's 300 ms */
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, busy_holder, &fd), 0);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(idx, 0);
    pthread_join(t, NULL);
    fastsig_state_set_lock_timeout(FASTSIG_STATE_LOCK_TIMEOUT_MS);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
}

int main(void)
{
    static const fs_test tests[] = {
        { "lock timeout as text", test_parse },
        { "a state locked elsewhere: bounded waits, nothing handed out", test_locked_state },
        { "a holder that keeps changing the file is waited for", test_progress_restarts_the_wait },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "lock waits", tests }, { NULL, NULL } };
    sf_dir();
    return fs_cu_main(suites);
}
