/* test_observe.c - the monitor's calls of crypto/state: a state read
 * without a lock (fastsig_state_observe: never waits on a held lock, never
 * reports a view the file did not have while another process updates it,
 * refuses a damaged file) and a registry entry following its state to a new
 * path (fastsig_registry_move_state: every name of the entry, its seed
 * fingerprint's too, gets the new lines). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/registry.h"
#include "state/statefile.h"
#include "state_fixture.h"

#define TAG 31

static void test_observe_fresh_and_damaged(void)
{
    char path[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN], img[1024];
    fastsig_state_view v;
    fastsig_cause c;

    sf_key(id, TAG);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "obs.state", TAG, 1000, 17), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_observe(path, &v, &c), FASTSIG_OK);
    CU_ASSERT(v.next == 17 && v.max == 1000 && v.mtime_sec > 0 && v.ino != 0);
    CU_ASSERT(memcmp(v.key_id, id, sizeof(id)) == 0);
    /* one byte of the padding of slot 1: the file is no view at all */
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, img, sizeof(img)), 0);
    img[512 + 100] ^= 1;
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, sizeof(img)), 0);
    CU_ASSERT_EQUAL(fastsig_state_observe(path, &v, &c), FASTSIG_ERR_STATE_CORRUPT);
    CU_ASSERT_STRING_EQUAL(c.path, path);
    sf_path(path, "obs-none.state");
    CU_ASSERT_EQUAL(fastsig_state_observe(path, &v, &c), FASTSIG_ERR_STATE_MISSING);
}

/* A child holds an exclusive OFD lock on path until killed. */
static pid_t hold(const char *path)
{
    int p[2];
    char ok;
    CU_ASSERT_FATAL(pipe(p) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
        int fd = open(path, O_RDWR);
        if (fd < 0 || fcntl(fd, F_OFD_SETLK, &fl) != 0 || write(p[1], "k", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    CU_ASSERT_FATAL(read(p[0], &ok, 1) == 1);
    close(p[0]);
    close(p[1]);
    return pid;
}

static void test_observe_ignores_a_held_lock(void)
{
    char path[PATH_MAX];
    fastsig_state_view v;
    unsigned saved = fastsig_state_lock_timeout();

    CU_ASSERT_EQUAL_FATAL(sf_create(path, "obs-locked.state", TAG, 64, 5), FASTSIG_OK);
    pid_t pid = hold(path);
    fastsig_state_set_lock_timeout(0); /* a locked read would fail at once */
    CU_ASSERT_EQUAL(fastsig_state_observe(path, &v, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(v.next, 5);
    CU_ASSERT_EQUAL(fastsig_state_peek(path, v.key_id, NULL, NULL, NULL, NULL),
                    FASTSIG_ERR_STATE_LOCKED); /* what a locked reader meets */
    fastsig_state_set_lock_timeout(saved);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* A child spends indices one update at a time while this process reads:
 * every view is one the file had, in order (next and seq never go back). */
static void test_observe_while_a_process_updates(void)
{
    char path[PATH_MAX];
    fastsig_state_view v;
    uint64_t last_next = 0, last_seq = 0, views = 0;
    int bad = 0, status;

    CU_ASSERT_EQUAL_FATAL(sf_create(path, "obs-busy.state", TAG, 100000, 0), FASTSIG_OK);
    pid_t pid = fork();
    if (pid == 0) {
        fastsig_state *st = sf_open(path, TAG, NULL);
        uint64_t idx;
        for (int i = 0; st != NULL && i < 400; i++)
            if (fastsig_state_take_batch(st, 1, &idx, NULL) != FASTSIG_OK)
                _exit(1);
        _exit(st != NULL ? 0 : 1);
    }
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (fastsig_state_observe(path, &v, NULL) != FASTSIG_OK)
            continue; /* fifty reads each meeting an update: no view, never a wrong one */
        bad += v.next < last_next || v.seq < last_seq || v.next > 400 || v.max != 100000;
        last_next = v.next;
        last_seq = v.seq;
        views++;
    }
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(views > 0);
    CU_ASSERT(fastsig_state_observe(path, &v, NULL) == FASTSIG_OK && v.next == 400);
}

static void test_registry_entry_follows_a_move(void)
{
    char dir[PATH_MAX], entry[PATH_MAX], seed[PATH_MAX], found[PATH_MAX], buf[256];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN], fp[FASTSIG_REGISTRY_FP_LEN];
    fastsig_registry_kind which;
    struct stat a, b;
    int moved = -1;

    sf_key(id, 41);
    sf_key(fp, 42);
    CU_ASSERT_EQUAL_FATAL(mkdir(sf_path(dir, "reg-move"), 0700), 0);
    CU_ASSERT_EQUAL(fastsig_registry_move_state(dir, id, "/s/a.state", "/t/a.state", &moved, NULL),
                    FASTSIG_OK); /* no entry: nothing to follow */
    CU_ASSERT_EQUAL(moved, 0);
    CU_ASSERT_EQUAL_FATAL(fastsig_registry_claim_key(dir, id, fp, "/s/a.state", found,
                                                     sizeof(found), &which, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_registry_move_state(dir, id, "/s/other.state", "/t/a.state", &moved,
                                                NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(moved, 0); /* a line that is not there */
    CU_ASSERT_EQUAL(fastsig_registry_move_state(dir, id, "/s/a.state", "/t/a.state", &moved, NULL),
                    FASTSIG_OK);
    CU_ASSERT_EQUAL(moved, 1);
    fastsig_registry_entry_path(dir, id, entry, sizeof(entry));
    fastsig_registry_path_as(FASTSIG_REGISTRY_SEED, dir, fp, seed, sizeof(seed));
    CU_ASSERT(stat(entry, &a) == 0 && stat(seed, &b) == 0);
    CU_ASSERT(a.st_ino == b.st_ino && a.st_nlink == 2 && (a.st_mode & 0777) == 0600);
    FILE *f = fopen(seed, "r");
    size_t n = f != NULL ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f != NULL)
        fclose(f);
    buf[n] = '\0';
    CU_ASSERT_STRING_EQUAL(buf, "/t/a.state\n");
    CU_ASSERT_EQUAL(fastsig_registry_holder_as(FASTSIG_REGISTRY_KEY_ID, dir, id, found,
                                               sizeof(found), NULL), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_STRING_EQUAL(found, "/t/a.state");
}

int main(void)
{
    static const fs_test tests[] = {
        { "observe: a fresh file, a damaged one, none", test_observe_fresh_and_damaged },
        { "observe: a held lock is not waited for", test_observe_ignores_a_held_lock },
        { "observe: views in order while another process updates",
          test_observe_while_a_process_updates },
        { "a registry entry follows its state, under both names",
          test_registry_entry_follows_a_move },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "state observe", tests }, { NULL, NULL } };
    sf_dir();
    return fs_cu_main(suites);
}
