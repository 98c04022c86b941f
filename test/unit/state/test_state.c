/* test_state.c - the state file: slot codec, create/open/take/release round
 * trips, one-time keys, exhaustion, 64-bit indices, missing/foreign/corrupt/
 * read-only state, injected I/O failures, default paths. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/cachefile.h"
#include "state/statefile.h"
#include "state/statefile_hook.h"
#include "state/stateslot.h"
#include "state_fixture.h"

#define TWO(e) (UINT64_C(1) << (e))

/* Opens, asserting success. */
static fastsig_state *must_open(const char *path, unsigned tag)
{
    int rc;
    fastsig_state *st = sf_open(path, tag, &rc);
    CU_ASSERT_EQUAL(rc, FASTSIG_OK);
    return st;
}

/* ---- slot codec ----------------------------------------------------------- */

static void test_crc64_check_value(void)
{
    CU_ASSERT_EQUAL(fs_state_crc64((const uint8_t *)"123456789", 9),
                    UINT64_C(0x995DC9BBDF1939FA));
    CU_ASSERT_EQUAL(fs_state_crc64(NULL, 0), 0);
}

static void test_slot_round_trip(void)
{
    fs_state_slot s = { .seq = 0x0102030405060708u, .max = TWO(60), .next = TWO(60) - 1 }, t;
    uint8_t rec[FS_STATE_SLOT_LEN];
    sf_key(s.key_id, 9);
    fs_state_slot_encode(&s, rec);
    CU_ASSERT_EQUAL(memcmp(rec, "FSIGSTAT", 8), 0);
    CU_ASSERT_EQUAL(rec[16], 0x08); /* little-endian */
    CU_ASSERT_EQUAL_FATAL(fs_state_slot_decode(rec, &t), 0);
    CU_ASSERT(t.seq == s.seq && t.max == s.max && t.next == s.next);
    CU_ASSERT_EQUAL(memcmp(t.key_id, s.key_id, FASTSIG_STATE_KEY_ID_LEN), 0);
}

/* ---- round trips ------------------------------------------------------------ */

static void test_create_open_take(void)
{
    char path[PATH_MAX];
    uint64_t next, rem, max, idx;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "basic.state", 1, 100, 0), FASTSIG_OK);
    struct stat sb;
    CU_ASSERT(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600 &&
              sb.st_size == FS_STATE_FILE_SIZE);
    fastsig_state *st = must_open(path, 1);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(fastsig_state_query(st, &next, &rem, &max, NULL), FASTSIG_OK);
    CU_ASSERT(next == 0 && rem == 100 && max == 100);
    for (uint64_t i = 0; i < 10; i++) {
        CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_OK);
        CU_ASSERT_EQUAL(idx, i);
    }
    CU_ASSERT_EQUAL(fastsig_state_query(st, &next, &rem, &max, NULL), FASTSIG_OK);
    CU_ASSERT(next == 10 && rem == 90 && max == 100);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    /* blocks of 1 then 64 were reserved; close gave back 10..64 */
    CU_ASSERT_EQUAL(sf_file_next(path, 1), 10);
    st = must_open(path, 1);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 10);
    fastsig_state_close(st);
    CU_ASSERT_EQUAL(sf_file_next(path, 1), 11);
}

static int count_syncs;
static int counting_hook(enum fs_state_io_op op)
{
    count_syncs += op == FS_STATE_IO_SYNC;
    return 0;
}

static void test_one_signature_run_costs_one_sync(void)
{
    char path[PATH_MAX];
    uint64_t idx;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "cli.state", 2, 1024, 0), FASTSIG_OK);
    for (uint64_t run = 0; run < 3; run++) {
        count_syncs = 0;
        fs_state_io_hook = counting_hook;
        fastsig_state *st = must_open(path, 2);
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == run);
        CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
        fs_state_io_hook = NULL;
        CU_ASSERT_EQUAL(count_syncs, 1); /* nothing burnt, nothing to give back */
        CU_ASSERT_EQUAL(sf_file_next(path, 2), run + 1);
    }
}

static void test_create_refuses_and_overwrites(void)
{
    char path[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t idx;
    sf_key(id, 3);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "exists.state", 3, 50, 0), FASTSIG_OK);
    fastsig_state *st = must_open(path, 3);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK);
    fastsig_state_close(st);
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 50, 0, 0, NULL), FASTSIG_ERR_STATE_EXISTS);
    CU_ASSERT_EQUAL(sf_file_next(path, 3), 1);
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 50, 7, FASTSIG_STATE_OVERWRITE, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 3), 7);

    char bad[PATH_MAX];
    CU_ASSERT_EQUAL(fastsig_state_create(sf_path(bad, "no/such/dir.state"), id, 5, 0, 0, NULL),
                    FASTSIG_ERR_STATE_NO_DIR);
    CU_ASSERT_EQUAL(fastsig_state_create(sf_path(bad, "p1.state"), id, 0, 0, 0, NULL),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fastsig_state_create(bad, id, 5, 6, 0, NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fastsig_state_create(bad, id, TWO(63) + 1, 0, 0, NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fastsig_state_create(bad, id, 5, 0, 2, NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fastsig_state_create(NULL, id, 5, 0, 0, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fastsig_state_create(bad, NULL, 5, 0, 0, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(access(bad, F_OK), -1);
    /* no temporary files are left behind */
    DIR *d = opendir(sf_dir());
    struct dirent *e;
    int tmps = 0;
    while (d && (e = readdir(d)) != NULL)
        tmps += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    CU_ASSERT_EQUAL(tmps, 0);
}

static void test_release_gives_back_only_the_tail(void)
{
    char path[PATH_MAX];
    uint64_t first, count, idx;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "release.state", 4, 1000, 0), FASTSIG_OK);
    fastsig_state *a = must_open(path, 4), *b = must_open(path, 4);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT(fastsig_state_reserve(a, 10, &first, &count, NULL) == FASTSIG_OK && first == 0 &&
              count == 10);
    for (uint64_t i = 0; i < 3; i++)
        CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT_EQUAL(fastsig_state_release(a, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 4), 3);
    CU_ASSERT_EQUAL(fastsig_state_release(a, NULL), FASTSIG_OK); /* nothing left: no-op */
    CU_ASSERT_EQUAL(sf_file_next(path, 4), 3);

    /* a reserves [3,13), b reserves beyond it: a's tail stays burnt */
    CU_ASSERT(fastsig_state_reserve(a, 10, &first, &count, NULL) == FASTSIG_OK && first == 3);
    CU_ASSERT(fastsig_state_reserve(b, 5, &first, &count, NULL) == FASTSIG_OK && first == 13 &&
              count == 5);
    CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == 3);
    CU_ASSERT(fastsig_state_take(b, &idx, NULL) == FASTSIG_OK && idx == 13);
    CU_ASSERT_EQUAL(fastsig_state_release(a, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 4), 18);
    CU_ASSERT_EQUAL(fastsig_state_release(b, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 4), 14);
    /* a's burnt 4..12 never come back */
    CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == 14);

    /* contiguous reservations extend the block */
    CU_ASSERT(fastsig_state_reserve(a, 2, &first, &count, NULL) == FASTSIG_OK && first == 15);
    CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == 15);
    CU_ASSERT_EQUAL(fastsig_state_close(a), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 4), 16);
    CU_ASSERT_EQUAL(fastsig_state_close(b), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_reserve(NULL, 1, &first, &count, NULL), FASTSIG_ERR_NULL_ARG);
}

static void test_shared_handle_one_counter(void)
{
    char path[PATH_MAX];
    uint64_t x, y;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "ref.state", 5, 1000, 0), FASTSIG_OK);
    fastsig_state *a = must_open(path, 5);
    CU_ASSERT_FATAL(a != NULL);
    fastsig_state *b = fastsig_state_ref(a);
    CU_ASSERT_EQUAL(fastsig_state_set_batch(a, 16), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_set_batch(a, 0), FASTSIG_ERR_BAD_PARAM);
    for (uint64_t i = 0; i < 40; i += 2) {
        CU_ASSERT(fastsig_state_take(a, &x, NULL) == FASTSIG_OK && x == i);
        CU_ASSERT(fastsig_state_take(b, &y, NULL) == FASTSIG_OK && y == i + 1);
    }
    CU_ASSERT_EQUAL(fastsig_state_close(a), FASTSIG_OK);
    CU_ASSERT(sf_file_next(path, 5) > 40); /* b still holds the block */
    CU_ASSERT(fastsig_state_take(b, &y, NULL) == FASTSIG_OK && y == 40);
    CU_ASSERT_EQUAL(fastsig_state_close(b), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 5), 41);
    CU_ASSERT_EQUAL(fastsig_state_close(NULL), FASTSIG_OK);
}

/* ---- one-time keys, exhaustion, 64-bit ------------------------------------ */

static int take_in_child(void *arg)
{
    int rc;
    uint64_t idx = UINT64_MAX;
    fastsig_state *st = sf_open(arg, 6, &rc);
    if (rc == FASTSIG_OK)
        rc = fastsig_state_take(st, &idx, NULL);
    fastsig_state_close(st);
    return rc == FASTSIG_OK ? (int)(idx & 63) : 64 + rc;
}

static void test_one_time_key(void)
{
    char path[PATH_MAX];
    uint64_t idx = 77, rem;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "ots.state", 6, 1, 0), FASTSIG_OK);
    fastsig_state *a = must_open(path, 6), *b = must_open(path, 6);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT(fastsig_state_take(a, &idx, NULL) == FASTSIG_OK && idx == 0);
    idx = 77;
    CU_ASSERT_EQUAL(fastsig_state_take(a, &idx, NULL), FASTSIG_ERR_OTS_USED);
    CU_ASSERT_EQUAL(fastsig_state_take(b, &idx, NULL), FASTSIG_ERR_OTS_USED);
    CU_ASSERT_EQUAL(idx, 77);
    CU_ASSERT(fastsig_state_query(b, NULL, &rem, NULL, NULL) == FASTSIG_OK && rem == 0);
    fastsig_state_close(a);
    fastsig_state_close(b);
    a = must_open(path, 6);
    CU_ASSERT_EQUAL(fastsig_state_take(a, &idx, NULL), FASTSIG_ERR_OTS_USED);
    fastsig_state_close(a);
    CU_ASSERT_EQUAL(sf_in_child(take_in_child, path, 0), 64 + FASTSIG_ERR_OTS_USED);

    /* across processes: the child signs, the parent is refused */
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "ots2.state", 6, 1, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_in_child(take_in_child, path, 0), 0);
    CU_ASSERT_EQUAL(sf_in_child(take_in_child, path, 0), 64 + FASTSIG_ERR_OTS_USED);
    a = must_open(path, 6);
    CU_ASSERT_EQUAL(fastsig_state_take(a, &idx, NULL), FASTSIG_ERR_OTS_USED);
    fastsig_state_close(a);
}

static void test_exhaustion_at_last_index(void)
{
    char path[PATH_MAX];
    uint64_t idx, first, count, rem;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "exhaust.state", 7, 5, 0), FASTSIG_OK);
    fastsig_state *st = must_open(path, 7);
    CU_ASSERT_FATAL(st != NULL);
    fastsig_state_set_batch(st, 3);
    for (uint64_t i = 0; i < 5; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    idx = 99;
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_EQUAL(idx, 99);
    CU_ASSERT(fastsig_state_query(st, NULL, &rem, NULL, NULL) == FASTSIG_OK && rem == 0);
    fastsig_state_close(st);

    /* a block near the end is shorter than asked */
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "short.state", 7, 10, 7), FASTSIG_OK);
    st = must_open(path, 7);
    CU_ASSERT(fastsig_state_reserve(st, 5, &first, &count, NULL) == FASTSIG_OK && first == 7 &&
              count == 3);
    CU_ASSERT(fastsig_state_query(st, &idx, &rem, NULL, NULL) == FASTSIG_OK && idx == 7 && rem == 3);
    CU_ASSERT_EQUAL(fastsig_state_reserve(st, 1, &first, &count, NULL), FASTSIG_ERR_KEY_EXHAUSTED);
    for (uint64_t i = 7; i < 10; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_KEY_EXHAUSTED);
    fastsig_state_close(st);
}

/* A call's own block size leaves the handle's as it was: after blocks of 3
 * taken for one caller, a plain take() reserves the handle's 8 again. */
static void test_take_batch_is_per_call(void)
{
    char path[PATH_MAX];
    uint64_t idx;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "perbatch.state", 9, 100, 0), FASTSIG_OK);
    fastsig_state *st = must_open(path, 9);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(fastsig_state_set_batch(st, 8), FASTSIG_OK);
    /* the block sizes as the file sees them, none reserved ahead meanwhile */
    CU_ASSERT_EQUAL(fastsig_state_set_prefetch(st, 0), FASTSIG_OK);
    CU_ASSERT(fastsig_state_take_batch(st, 3, &idx, NULL) == FASTSIG_OK && idx == 0);
    CU_ASSERT_EQUAL(sf_file_next(path, 9), 1); /* the first block is one index */
    for (uint64_t i = 1; i < 4; i++)
        CU_ASSERT(fastsig_state_take_batch(st, 3, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT_EQUAL(sf_file_next(path, 9), 4);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 4);
    CU_ASSERT_EQUAL(sf_file_next(path, 9), 12);
    CU_ASSERT(fastsig_state_take_batch(st, 0, &idx, NULL) == FASTSIG_OK && idx == 5); /* 0: 8 */
    CU_ASSERT_EQUAL(fastsig_state_take_batch(st, 3, NULL, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 9), 6);
}

static void check_tail(const char *name, uint64_t max, uint64_t start, unsigned n,
                       unsigned batch)
{
    char path[PATH_MAX];
    uint64_t idx, next, rem, m;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, name, 8, max, start), FASTSIG_OK);
    fastsig_state *st = must_open(path, 8);
    CU_ASSERT_FATAL(st != NULL);
    fastsig_state_set_batch(st, batch);
    CU_ASSERT(fastsig_state_query(st, &next, &rem, &m, NULL) == FASTSIG_OK && next == start &&
              rem == max - start && m == max);
    for (unsigned i = 0; i < n; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == start + i);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_file_next(path, 8), start + n);
}

static void test_64bit_indices(void)
{
    uint64_t idx;
    check_tail("w32.state", TWO(33), TWO(32) - 2, 5, 2); /* across 2^32 */
    check_tail("w60.state", TWO(60), TWO(60) - 3, 3, 64);
    check_tail("w63.state", TWO(63), TWO(63) - 2, 2, 1);
    char path[PATH_MAX];
    sf_path(path, "w60.state");
    fastsig_state *st = must_open(path, 8);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_KEY_EXHAUSTED);
    fastsig_state_close(st);
}

/* ---- missing, foreign, corrupt, read-only --------------------------------- */

static void test_missing_and_wrong_key(void)
{
    char path[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    int rc;
    sf_key(id, 9);
    fastsig_state *st = sf_open(sf_path(path, "absent.state"), 9, &rc);
    CU_ASSERT(st == NULL && rc == FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT_EQUAL(fastsig_state_peek(path, id, NULL, NULL, NULL, NULL), FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "other.state", 10, 100, 0), FASTSIG_OK);
    st = sf_open(path, 9, &rc);
    CU_ASSERT(st == NULL && rc == FASTSIG_ERR_STATE_WRONG_KEY);
    CU_ASSERT_EQUAL(fastsig_state_peek(path, id, NULL, NULL, NULL, NULL),
                    FASTSIG_ERR_STATE_WRONG_KEY);
    st = sf_open(sf_dir(), 9, &rc); /* a directory */
    CU_ASSERT(st == NULL && rc == FASTSIG_ERR_STATE_IO);
    CU_ASSERT_EQUAL(fastsig_state_open(path, id, NULL, NULL), FASTSIG_ERR_NULL_ARG);

    /* the file's content becomes another key's under an open handle */
    uint8_t img[FS_STATE_FILE_SIZE];
    char other[PATH_MAX];
    uint64_t idx = 5;
    CU_ASSERT_EQUAL_FATAL(sf_create(other, "other9.state", 9, 100, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(sf_read_file(other, img, sizeof(img)), 0);
    st = must_open(path, 10);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(sf_write_file(path, img, sizeof(img)), 0); /* same inode */
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_WRONG_KEY);
    CU_ASSERT_EQUAL(idx, 5);
    fastsig_state_close(st);
}

static void test_replaced_or_removed_under_a_handle(void)
{
    char path[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t idx = 0;
    sf_key(id, 16);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "replaced.state", 16, 1000, 0), FASTSIG_OK);
    fastsig_state *st = must_open(path, 16);
    CU_ASSERT_FATAL(st != NULL);
    fastsig_state_set_batch(st, 1);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 0);
    /* an operator recreates the state further on: the handle follows */
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 1000, 500, FASTSIG_STATE_OVERWRITE, NULL),
                    FASTSIG_OK);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 500);
    CU_ASSERT_EQUAL(sf_file_next(path, 16), 501);
    /* removed: refuse instead of spending from the unlinked inode */
    CU_ASSERT_EQUAL(unlink(path), 0);
    idx = 9;
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT_EQUAL(fastsig_state_query(st, NULL, NULL, NULL, NULL), FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT_EQUAL(idx, 9);
    /* replaced by another key's state: refused */
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "replaced.state", 17, 1000, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_WRONG_KEY);
    CU_ASSERT_EQUAL(idx, 9);
    fastsig_state_close(st);
}

static void reseal(uint8_t *rec)
{
    uint64_t crc = fs_state_crc64(rec, 120);
    for (int i = 0; i < 8; i++)
        rec[120 + i] = (uint8_t)(crc >> (8 * i));
}

/* Writes img (len bytes) over path and expects every way in to refuse. */
static int refused(const char *path, const uint8_t *img, size_t len, int want)
{
    int rc, bad = 0;
    uint64_t idx = 12345;
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, 11);
    if (sf_write_file(path, img, len) != 0)
        return 0;
    fastsig_state *st = sf_open(path, 11, &rc);
    bad |= st != NULL || rc != want;
    bad |= fastsig_state_peek(path, id, &idx, NULL, NULL, NULL) != want || idx != 12345;
    fastsig_state_close(st);
    return !bad;
}

static void test_corrupt_files(void)
{
    char path[PATH_MAX];
    uint8_t good[FS_STATE_FILE_SIZE], img[FS_STATE_FILE_SIZE + 1];
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "corrupt.state", 11, 100, 0), FASTSIG_OK);
    fastsig_state *st = must_open(path, 11);
    uint64_t idx = 0;
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK); /* both slots written once */
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK);
    fastsig_state_close(st);
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, good, sizeof(good)), 0);
    st = must_open(path, 11); /* sanity: the untouched image opens */
    fastsig_state_close(st);

    /* one flipped bit anywhere in either slot or the padding */
    unsigned failures = 0;
    for (size_t off = 0; off < FS_STATE_FILE_SIZE; off++) {
        if (off % FS_STATE_SLOT_STRIDE >= FS_STATE_SLOT_LEN && off % 37 != 0)
            continue; /* sample the padding */
        memcpy(img, good, sizeof(good));
        img[off] ^= (uint8_t)(1u << (off % 8));
        failures += !refused(path, img, sizeof(good), FASTSIG_ERR_STATE_CORRUPT);
    }
    CU_ASSERT_EQUAL(failures, 0);
    /* truncated, empty, extended */
    CU_ASSERT(refused(path, good, 0, FASTSIG_ERR_STATE_CORRUPT));
    CU_ASSERT(refused(path, good, FS_STATE_SLOT_STRIDE, FASTSIG_ERR_STATE_CORRUPT));
    CU_ASSERT(refused(path, good, sizeof(good) - 1, FASTSIG_ERR_STATE_CORRUPT));
    memcpy(img, good, sizeof(good));
    img[sizeof(good)] = 0;
    CU_ASSERT(refused(path, img, sizeof(good) + 1, FASTSIG_ERR_STATE_CORRUPT));

    /* well-sealed records that break the rules */
    fs_state_slot s0, s1;
    CU_ASSERT_FATAL(fs_state_slot_decode(good, &s0) == 0 &&
                    fs_state_slot_decode(good + FS_STATE_SLOT_STRIDE, &s1) == 0);
    struct {
        uint64_t seq0, seq1, max1, next1;
        unsigned key1;
    } cases[] = {
        { 5, 7, 100, 2, 11 },   /* seqs not one apart */
        { 5, 5, 100, 2, 11 },   /* equal seqs */
        { 5, 6, 101, 2, 11 },   /* slots disagree on max */
        { 5, 6, 100, 2, 12 },   /* slots disagree on key */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        memcpy(img, good, sizeof(good));
        s0.seq = cases[i].seq0;
        s1.seq = cases[i].seq1;
        s1.max = cases[i].max1;
        s1.next = cases[i].next1;
        sf_key(s1.key_id, cases[i].key1);
        fs_state_slot_encode(&s0, img);
        fs_state_slot_encode(&s1, img + FS_STATE_SLOT_STRIDE);
        CU_ASSERT(refused(path, img, sizeof(good), FASTSIG_ERR_STATE_CORRUPT));
    }
    uint8_t *rec = img + FS_STATE_SLOT_STRIDE;
    memcpy(img, good, sizeof(good));
    rec[32] = 101; /* next > max */
    reseal(rec);
    CU_ASSERT(refused(path, img, sizeof(good), FASTSIG_ERR_STATE_CORRUPT));
    memcpy(img, good, sizeof(good));
    rec[8] = 2; /* version */
    reseal(rec);
    CU_ASSERT(refused(path, img, sizeof(good), FASTSIG_ERR_STATE_CORRUPT));
    memcpy(img, good, sizeof(good));
    rec[0] = 'X'; /* magic */
    reseal(rec);
    CU_ASSERT(refused(path, img, sizeof(good), FASTSIG_ERR_STATE_CORRUPT));
    memcpy(img, good, sizeof(good));
    rec[100] = 1; /* reserved bytes */
    reseal(rec);
    CU_ASSERT(refused(path, img, sizeof(good), FASTSIG_ERR_STATE_CORRUPT));

    /* damaged under an open handle: nothing is handed out */
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, good, sizeof(good)), 0);
    st = must_open(path, 11);
    CU_ASSERT_FATAL(st != NULL);
    uint8_t bad[FS_STATE_FILE_SIZE];
    memcpy(bad, good, sizeof(good));
    bad[40] ^= 1;
    int fd_ok = sf_write_file(path, bad, sizeof(bad)) == 0; /* truncates in place */
    CU_ASSERT(fd_ok);
    idx = 4242;
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_CORRUPT);
    CU_ASSERT_EQUAL(idx, 4242);
    CU_ASSERT_EQUAL(fastsig_state_query(st, NULL, NULL, NULL, NULL), FASTSIG_ERR_STATE_CORRUPT);
    fastsig_state_close(st);
}

/* The recovery recipe of statefile.h after a torn slot. */
static void test_inspect_and_recover(void)
{
    char path[PATH_MAX];
    uint8_t img[FS_STATE_FILE_SIZE], id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_state_info info;
    uint64_t idx, first, count;
    sf_key(id, 18);
    CU_ASSERT_EQUAL(fastsig_state_inspect(sf_path(path, "absent.state"), &info, NULL),
                    FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "torn.state", 18, 1000, 0), FASTSIG_OK);
    fastsig_state *st = must_open(path, 18);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT(fastsig_state_reserve(st, 10, &first, &count, NULL) == FASTSIG_OK); /* slot 1: 10 */
    CU_ASSERT(fastsig_state_reserve(st, 10, &first, &count, NULL) == FASTSIG_OK); /* slot 0: 20 */
    fastsig_state_close(st); /* someone reserved beyond? no: gives back 0..19 */
    CU_ASSERT_EQUAL(fastsig_state_inspect(path, &info, NULL), FASTSIG_OK);
    CU_ASSERT(info.file_ok && info.valid[0] && info.valid[1]);
    CU_ASSERT(info.seq[1] == 4 && info.next[1] == 0 && info.seq[0] == 3 && info.next[0] == 20);
    CU_ASSERT(info.max[0] == 1000 && memcmp(info.key_id[1], id, sizeof(id)) == 0);

    /* tear the newer slot as a power loss might */
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, img, sizeof(img)), 0);
    memset(img + FS_STATE_SLOT_STRIDE + 64, 0xee, 64);
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, sizeof(img)), 0);
    int rc;
    CU_ASSERT(sf_open(path, 18, &rc) == NULL && rc == FASTSIG_ERR_STATE_CORRUPT);
    CU_ASSERT_EQUAL(fastsig_state_inspect(path, &info, NULL), FASTSIG_OK);
    CU_ASSERT(!info.file_ok && info.valid[0] && !info.valid[1] && info.next[0] == 20);
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, info.max[0], info.next[0] + 64,
                                         FASTSIG_STATE_OVERWRITE, NULL), FASTSIG_OK);
    st = must_open(path, 18);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 84);
    fastsig_state_close(st);

    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, 100), 0); /* truncated */
    CU_ASSERT_EQUAL(fastsig_state_inspect(path, &info, NULL), FASTSIG_OK);
    CU_ASSERT(!info.file_ok && !info.valid[0] && !info.valid[1]);
    CU_ASSERT_EQUAL(fastsig_state_inspect(path, NULL, NULL), FASTSIG_ERR_NULL_ARG);
}

static int open_for_signing(void *arg)
{
    int rc;
    uint64_t next = 0;
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, 12);
    fastsig_state *st = sf_open(arg, 12, &rc);
    fastsig_state_close(st);
    if (rc != FASTSIG_ERR_STATE_IO || st != NULL)
        return 1;
    /* reading still works: remaining signatures can be shown */
    return fastsig_state_peek(arg, id, &next, NULL, NULL, NULL) == FASTSIG_OK && next == 3 ? 0 : 2;
}

static int create_in_dir(void *arg)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, 12);
    return fastsig_state_create(arg, id, 10, 0, 0, NULL) == FASTSIG_ERR_STATE_IO ? 0 : 1;
}

static void test_read_only(void)
{
    char path[PATH_MAX], dir[PATH_MAX], inner[PATH_MAX + 16];
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "ro.state", 12, 100, 3), FASTSIG_OK);
    CU_ASSERT_EQUAL(chmod(path, 0444), 0);
    /* the child's own file (a file of another user's is refused for that) */
    if (geteuid() == 0)
        CU_ASSERT_EQUAL(chown(path, SF_OTHER_UID, SF_OTHER_UID), 0);
    CU_ASSERT_EQUAL(sf_in_child(open_for_signing, path, 1), 0);
    if (geteuid() == 0)
        CU_ASSERT_EQUAL(chown(path, 0, 0), 0);
    CU_ASSERT_EQUAL(sf_file_next(path, 12), 3);

    sf_path(dir, "rodir");
    CU_ASSERT_EQUAL(mkdir(dir, 0555), 0);
    CU_ASSERT_EQUAL(chmod(dir, 0555), 0);
    snprintf(inner, sizeof(inner), "%s/k.state", dir);
    CU_ASSERT_EQUAL(sf_in_child(create_in_dir, inner, 1), 0);
    CU_ASSERT_EQUAL(access(inner, F_OK), -1);
}

/* A FIFO, a directory or a symlink (here to a device) at the state or cache
 * path: every open refuses it as no regular file, at once. Runs in a child
 * under alarm() so that a regression fails instead of hanging the suite. */
static int special_files_refused(void *arg)
{
    (void)arg;
    char path[PATH_MAX], cache[PATH_MAX + 8], link_path[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN], *buf = NULL;
    size_t len;
    uint64_t next;
    fastsig_state_info info;
    fastsig_state *st = NULL;
    int bad = 0;
    alarm(5);
    sf_key(id, 21);
    sf_path(path, "fifo.state");
    unlink(path);
    if (mkfifo(path, 0600) != 0)
        return 100;
    bad |= fastsig_state_open(path, id, &st, NULL) != FASTSIG_ERR_STATE_NOT_FILE;
    bad |= (fastsig_state_peek(path, id, &next, NULL, NULL, NULL) != FASTSIG_ERR_STATE_NOT_FILE) << 1;
    bad |= (fastsig_state_inspect(path, &info, NULL) != FASTSIG_ERR_STATE_NOT_FILE) << 2;
    bad |= (fastsig_state_create(path, id, 10, 0, 0, NULL) != FASTSIG_ERR_STATE_EXISTS) << 3;
    snprintf(cache, sizeof(cache), "%s.cache", path);
    unlink(cache);
    if (mkfifo(cache, 0600) != 0)
        return 101;
    bad |= (fastsig_cache_load(path, &buf, &len, NULL) != FASTSIG_ERR_STATE_NOT_FILE) << 4;
    bad |= (fastsig_cache_save(path, (const uint8_t *)"x", 1, NULL) != FASTSIG_ERR_STATE_NOT_FILE) << 5;
    unlink(cache);
    if (mkdir(cache, 0700) != 0)
        return 102;
    bad |= (fastsig_cache_load(path, &buf, &len, NULL) != FASTSIG_ERR_STATE_NOT_FILE) << 6;
    rmdir(cache);
    sf_path(link_path, "devlink.state");
    unlink(link_path);
    if (symlink("/dev/zero", link_path) != 0)
        return 103;
    bad |= (fastsig_state_open(link_path, id, &st, NULL) != FASTSIG_ERR_STATE_NOT_FILE) << 7;
    unlink(link_path);
    unlink(path);
    free(buf);
    return bad;
}

static void test_special_files_refused(void)
{
    int bad = sf_in_child(special_files_refused, NULL, 0);
    if (bad != 0)
        fprintf(stderr, "special files: failed checks 0x%x\n", bad);
    CU_ASSERT_EQUAL(bad, 0);
}

/* ---- injected failures ------------------------------------------------------ */

static enum fs_state_io_op fail_op;
static int fail_errno, fail_after;
static int failing_hook(enum fs_state_io_op op)
{
    return op == fail_op && fail_after-- <= 0 ? fail_errno : 0;
}

static void test_io_failures_hand_out_nothing(void)
{
    static const struct {
        enum fs_state_io_op op;
        int err;
    } faults[] = {
        { FS_STATE_IO_WRITE, ENOSPC }, { FS_STATE_IO_SYNC, EIO }, { FS_STATE_IO_LOCK, ENOLCK },
        { FS_STATE_IO_READ, EIO },     { FS_STATE_IO_OPEN, EMFILE },
    };
    char path[PATH_MAX];
    uint64_t idx, seen[64];
    size_t nseen = 0;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "faults.state", 13, 1000, 0), FASTSIG_OK);
    for (size_t f = 0; f < sizeof(faults) / sizeof(faults[0]); f++) {
        fastsig_state *st = must_open(path, 13);
        CU_ASSERT_FATAL(st != NULL);
        fastsig_state_set_batch(st, 1);
        CU_ASSERT(fastsig_state_take(st, &seen[nseen++], NULL) == FASTSIG_OK);
        fail_op = faults[f].op;
        fail_errno = faults[f].err;
        fail_after = 0;
        fs_state_io_hook = failing_hook;
        idx = 777777;
        if (faults[f].op == FS_STATE_IO_OPEN) { /* open fails: a clear error */
            int rc;
            CU_ASSERT(sf_open(path, 13, &rc) == NULL && rc == FASTSIG_ERR_STATE_IO);
        } else {
            fastsig_cause cause;
            CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, &cause), FASTSIG_ERR_STATE_IO);
            CU_ASSERT_EQUAL(cause.code, FASTSIG_ERR_STATE_IO);
            CU_ASSERT_EQUAL(cause.sys_errno, faults[f].err);
            CU_ASSERT_EQUAL(idx, 777777);
        }
        fs_state_io_hook = NULL;
        CU_ASSERT(fastsig_state_take(st, &seen[nseen++], NULL) == FASTSIG_OK);
        fastsig_state_close(st);
    }
    for (size_t i = 0; i < nseen; i++)
        for (size_t j = i + 1; j < nseen; j++)
            CU_ASSERT(seen[i] != seen[j]);

    /* creation: a failing write or either fsync leaves no file behind */
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, 13);
    sf_path(path, "fail-create.state");
    for (int after = 0; after < 3; after++) {
        fail_op = after == 0 ? FS_STATE_IO_WRITE : FS_STATE_IO_SYNC;
        fail_errno = after == 0 ? ENOSPC : EIO;
        fail_after = after == 2; /* the file's fsync, then the directory's */
        fs_state_io_hook = failing_hook;
        CU_ASSERT_EQUAL(fastsig_state_create(path, id, 10, 0, 0, NULL), FASTSIG_ERR_STATE_IO);
        fs_state_io_hook = NULL;
        CU_ASSERT_EQUAL(access(path, F_OK), -1);
    }
}

/* A real full disk, when a tiny tmpfs can be mounted (root, no container
 * restriction); otherwise the injected ENOSPC above stands in for it. */
static void test_full_tmpfs(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 16], filler[PATH_MAX + 16];
    sf_path(dir, "tiny");
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
    if (mount("fastsig-test", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=8k,nr_inodes=16") != 0) {
        fprintf(stderr, "(tmpfs not mountable here: %s; ENOSPC covered by the hook)\n",
                strerror(errno));
        rmdir(dir);
        return;
    }
    snprintf(filler, sizeof(filler), "%s/filler", dir);
    FILE *f = fopen(filler, "w");
    char block[512] = { 0 };
    while (f && fwrite(block, 1, sizeof(block), f) == sizeof(block) && fflush(f) == 0)
        ;
    if (f)
        fclose(f);
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, 14);
    snprintf(path, sizeof(path), "%s/k.state", dir);
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 10, 0, 0, NULL), FASTSIG_ERR_STATE_IO);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    unlink(filler);
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 10, 0, 0, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(umount2(dir, MNT_DETACH), 0);
    rmdir(dir);
}

/* ---- default location ------------------------------------------------------- */

static void test_default_path(void)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    char out[PATH_MAX], want[PATH_MAX];
    char hex[2 * FASTSIG_STATE_KEY_ID_LEN + 1];
    sf_key(id, 15);
    fs_hex(id, sizeof(id), hex);
    for (char *p = hex; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'F' ? *p + 32 : *p);
    char *saved_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("FASTSIG_STATE_DIR", "/env/dir", 1);
    setenv("XDG_STATE_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    CU_ASSERT_EQUAL(fastsig_state_default_path("/cfg", id, out, sizeof(out)), FASTSIG_OK);
    snprintf(want, sizeof(want), "/env/dir/%s.state", hex);
    CU_ASSERT_STRING_EQUAL(out, want);
    setenv("FASTSIG_STATE_DIR", "", 1);
    CU_ASSERT_EQUAL(fastsig_state_default_path("/cfg", id, out, sizeof(out)), FASTSIG_OK);
    snprintf(want, sizeof(want), "/cfg/%s.state", hex);
    CU_ASSERT_STRING_EQUAL(out, want);
    unsetenv("FASTSIG_STATE_DIR");
    CU_ASSERT_EQUAL(fastsig_state_default_dir(NULL, out, sizeof(out)), FASTSIG_OK);
    CU_ASSERT_STRING_EQUAL(out, "/xdg/fastsig");
    setenv("XDG_STATE_HOME", "relative", 1);
    CU_ASSERT_EQUAL(fastsig_state_default_dir("", out, sizeof(out)), FASTSIG_OK);
    CU_ASSERT_STRING_EQUAL(out, "/home/u/.local/state/fastsig");
    CU_ASSERT_EQUAL(fastsig_state_default_path(NULL, id, out, 40), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fastsig_state_default_dir(NULL, out, 5), FASTSIG_ERR_BAD_PARAM);
    unsetenv("XDG_STATE_HOME");
    if (saved_home)
        setenv("HOME", saved_home, 1);
    free(saved_home);

    /* make_dir: nested, private, idempotent; refuses to go through a file */
    char dir[PATH_MAX], file[PATH_MAX + 8];
    sf_path(dir, "made/a/b");
    CU_ASSERT_EQUAL(fastsig_state_make_dir(dir, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_make_dir(dir, NULL), FASTSIG_OK);
    struct stat sb;
    CU_ASSERT(stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700);
    snprintf(file, sizeof(file), "%s/f", dir);
    CU_ASSERT_EQUAL(sf_write_file(file, (const uint8_t *)"x", 1), 0);
    strcat(file, "/sub");
    CU_ASSERT_EQUAL(fastsig_state_make_dir(file, NULL), FASTSIG_ERR_STATE_IO);
    CU_ASSERT_EQUAL(fastsig_state_make_dir("", NULL), FASTSIG_ERR_BAD_PARAM);
}

static const fs_test codec_tests[] = {
    { "CRC-64/XZ check value", test_crc64_check_value },
    { "slot encode/decode round trip", test_slot_round_trip },
    { NULL, NULL },
};

static const fs_test file_tests[] = {
    { "create, open, take, close, reopen", test_create_open_take },
    { "one-signature run: one fdatasync, nothing burnt", test_one_signature_run_costs_one_sync },
    { "create refuses existing files, overwrites when told", test_create_refuses_and_overwrites },
    { "release gives back the tail only if nobody reserved beyond", test_release_gives_back_only_the_tail },
    { "referenced handles share one counter", test_shared_handle_one_counter },
    { "one-time key: second take refused, across handles and processes", test_one_time_key },
    { "last index handed out, then exhausted", test_exhaustion_at_last_index },
    { "64-bit indices near 2^32, 2^60 and 2^63", test_64bit_indices },
    { "a call's own batch leaves the handle's", test_take_batch_is_per_call },
    { NULL, NULL },
};

static const fs_test refusal_tests[] = {
    { "missing file, another key's file", test_missing_and_wrong_key },
    { "state replaced or removed under an open handle", test_replaced_or_removed_under_a_handle },
    { "corrupt files: bit flips, truncation, forged records", test_corrupt_files },
    { "inspect a torn file and recover it", test_inspect_and_recover },
    { "read-only file and directory", test_read_only },
    { "FIFO, directory or symlink at the state or cache path: refused, no hang",
      test_special_files_refused },
    { "injected I/O failures hand out nothing", test_io_failures_hand_out_nothing },
    { "full tmpfs", test_full_tmpfs },
    { NULL, NULL },
};

/* ---- files open to other users (fileowner.h) --------------------------------- */

/* Every way in refuses path (the file or its directory `refused`) as
 * STATE_UNTRUSTED, naming it and why: open, peek, inspect. */
static void assert_state_refused(const char *path, unsigned tag, const char *refused,
                                 int is_dir, const char *why)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_state_info info;
    fastsig_cause cause;
    uint64_t next;
    fastsig_state *st = NULL;
    sf_key(id, tag);
    CU_ASSERT_EQUAL(fastsig_state_open(path, id, &st, &cause), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT_PTR_NULL(st);
    fastsig_state_close(st);
    CU_ASSERT(sf_refused(&cause, refused, is_dir, why));
    CU_ASSERT_STRING_EQUAL(cause.what, is_dir ? "state directory" : "state file");
    CU_ASSERT_EQUAL(fastsig_state_peek(path, id, &next, NULL, NULL, &cause),
                    FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT(sf_refused(&cause, refused, is_dir, why));
    CU_ASSERT_EQUAL(fastsig_state_inspect(path, &info, &cause), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT(sf_refused(&cause, refused, is_dir, why));
}

/* The attack: anyone who knows the public key id forges a state at index 0
 * and renames it into a directory they may write. Needs root for chown
 * (else reported as skipped; the mode tests below still run). */
static void test_state_owned_by_another_user_refused(void)
{
    char path[PATH_MAX], why[96];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, 40);
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "foreign.state", 40, 100, 5), FASTSIG_OK);
    if (!sf_can_chown("a state file"))
        return;
    CU_ASSERT_EQUAL_FATAL(fastsig_state_create(path, id, 100, 0, FASTSIG_STATE_OVERWRITE, NULL),
                          FASTSIG_OK);
    CU_ASSERT_EQUAL(chown(path, SF_OTHER_UID, SF_OTHER_UID), 0);
    snprintf(why, sizeof(why), "owned by uid %d, not by this user (uid %lu)", SF_OTHER_UID,
             (unsigned long)geteuid());
    assert_state_refused(path, 40, path, 0, why);
}

static void test_state_writable_by_others_refused(void)
{
    char path[PATH_MAX], forged[PATH_MAX];
    uint64_t idx = 99;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "open.state", 41, 100, 5), FASTSIG_OK);
    CU_ASSERT_EQUAL(chmod(path, 0666), 0);
    assert_state_refused(path, 41, path, 0, "writable by group or others (mode 0666)");
    CU_ASSERT_EQUAL(chmod(path, 0620), 0);
    assert_state_refused(path, 41, path, 0, "writable by group or others (mode 0620)");
    CU_ASSERT_EQUAL(chmod(path, 0644), 0); /* readable by others: fine */
    CU_ASSERT_EQUAL(sf_file_next(path, 41), 5);

    /* renamed over the path of an open handle: the handle follows the path
     * to the new file, and refuses it; nothing is handed out */
    fastsig_state *st = must_open(path, 41);
    CU_ASSERT_EQUAL_FATAL(sf_create(forged, "open-forged.state", 41, 100, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL(chmod(forged, 0666), 0);
    CU_ASSERT_EQUAL(rename(forged, path), 0);
    fastsig_cause cause;
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, &cause), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT_EQUAL(idx, 99);
    CU_ASSERT(sf_refused(&cause, path, 0, "(mode 0666)"));
    fastsig_state_close(st);
}

static void test_state_dir_writable_without_sticky_refused(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 16];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, 42);
    sf_path(dir, "opendir");
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
    snprintf(path, sizeof(path), "%s/k.state", dir);
    CU_ASSERT_EQUAL_FATAL(fastsig_state_create(path, id, 100, 5, 0, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(chmod(dir, 0777), 0);
    assert_state_refused(path, 42, dir, 1,
                         "writable by group or others without the sticky bit (mode 0777)");
    CU_ASSERT_EQUAL(chmod(dir, 0770), 0);
    assert_state_refused(path, 42, dir, 1, "without the sticky bit (mode 0770)");
    /* nor is a state made there */
    fastsig_cause cause;
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 100, 0, FASTSIG_STATE_OVERWRITE, &cause),
                    FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT(sf_refused(&cause, dir, 1, "(mode 0770)"));
    /* sticky, like /tmp: nobody else may rename or remove our file there */
    CU_ASSERT_EQUAL(chmod(dir, 01777), 0);
    CU_ASSERT_EQUAL(sf_file_next(path, 42), 5);
    CU_ASSERT_EQUAL(chmod(dir, 0755), 0);
    CU_ASSERT_EQUAL(sf_file_next(path, 42), 5);
}

/* Public, tag-checked bytes, but another user's: refused to the loader
 * (which then rebuilds) and never written through. */
static void test_foreign_cache_ignored(void)
{
    char state[PATH_MAX], cache[PATH_MAX + 8];
    uint8_t a[64], b[64], disk[64], *got = NULL;
    size_t len = 0;
    fastsig_cause cause;
    memset(a, 0xa5, sizeof(a));
    memset(b, 0x5a, sizeof(b));
    sf_path(state, "foreign-cache.state");
    snprintf(cache, sizeof(cache), "%s.cache", state);
    CU_ASSERT_EQUAL_FATAL(fastsig_cache_save(state, a, sizeof(a), NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(chmod(cache, 0666), 0);
    CU_ASSERT_EQUAL(fastsig_cache_load(state, &got, &len, &cause), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT_PTR_NULL(got);
    CU_ASSERT(sf_refused(&cause, cache, 0, "writable by group or others (mode 0666)"));
    CU_ASSERT_STRING_EQUAL(cause.what, "node cache");
    CU_ASSERT_EQUAL(fastsig_cache_save(state, b, sizeof(b), &cause), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT(sf_refused(&cause, cache, 0, "writable by group or others (mode 0666)"));
    CU_ASSERT(sf_read_file(cache, disk, sizeof(disk)) == 0 && memcmp(disk, a, sizeof(a)) == 0);
    CU_ASSERT_EQUAL(chmod(cache, 0600), 0);
    if (!sf_can_chown("a node cache"))
        return;
    CU_ASSERT_EQUAL(chown(cache, SF_OTHER_UID, SF_OTHER_UID), 0);
    CU_ASSERT_EQUAL(fastsig_cache_load(state, &got, &len, &cause), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT_PTR_NULL(got);
    CU_ASSERT(sf_refused(&cause, cache, 0, "owned by uid 65534"));
    CU_ASSERT_EQUAL(fastsig_cache_save(state, b, sizeof(b), NULL), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT(sf_read_file(cache, disk, sizeof(disk)) == 0 && memcmp(disk, a, sizeof(a)) == 0);
}

/* What fastsig makes itself passes its own check whatever the umask. */
static void test_files_made_under_umask_0_trusted(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 16], cache[PATH_MAX + 32];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN], *got = NULL;
    size_t len;
    struct stat sb;
    sf_key(id, 43);
    mode_t old = umask(0);
    sf_path(dir, "umask0/states");
    CU_ASSERT_EQUAL(fastsig_state_make_dir(dir, NULL), FASTSIG_OK);
    snprintf(path, sizeof(path), "%s/k.state", dir);
    snprintf(cache, sizeof(cache), "%s.cache", path);
    CU_ASSERT_EQUAL(fastsig_state_create(path, id, 100, 0, 0, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_cache_save(path, id, sizeof(id), NULL), FASTSIG_OK);
    umask(old);
    CU_ASSERT(stat(dir, &sb) == 0 && (sb.st_mode & 07777) == 0700);
    CU_ASSERT(stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0600);
    CU_ASSERT(stat(cache, &sb) == 0 && (sb.st_mode & 07777) == 0600);
    CU_ASSERT_EQUAL(sf_file_next(path, 43), 0);
    CU_ASSERT_EQUAL(fastsig_cache_load(path, &got, &len, NULL), FASTSIG_OK);
    free(got);
}

static const fs_test owner_tests[] = {
    { "a state file owned by another user is refused", test_state_owned_by_another_user_refused },
    { "a state file writable by others is refused", test_state_writable_by_others_refused },
    { "a state directory writable by others without the sticky bit is refused",
      test_state_dir_writable_without_sticky_refused },
    { "a foreign node cache is ignored", test_foreign_cache_ignored },
    { "files made under umask 0 are 0600 and trusted", test_files_made_under_umask_0_trusted },
    { NULL, NULL },
};

/* ---- node-cache file --------------------------------------------------------- */

static void test_cache_file(void)
{
    char state[PATH_MAX], cache[PATH_MAX + 8];
    uint8_t a[300], *got = NULL;
    size_t len = 0;
    for (size_t i = 0; i < sizeof(a); i++)
        a[i] = (uint8_t)(i * 7 + 1);
    sf_path(state, "cached.state");
    snprintf(cache, sizeof(cache), "%s.cache", state);
    unlink(cache);
    CU_ASSERT_EQUAL(fastsig_cache_load(state, &got, &len, NULL), FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT_PTR_NULL(got);

    /* round trip; a shorter write leaves no tail of the longer one */
    CU_ASSERT_EQUAL(fastsig_cache_save(state, a, sizeof(a), NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(fastsig_cache_load(state, &got, &len, NULL), FASTSIG_OK);
    CU_ASSERT(len == sizeof(a) && memcmp(got, a, len) == 0);
    free(got);
    CU_ASSERT_EQUAL(fastsig_cache_save(state, a + 100, 50, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(fastsig_cache_load(state, &got, &len, NULL), FASTSIG_OK);
    CU_ASSERT(len == 50 && memcmp(got, a + 100, len) == 0);
    free(got);
    struct stat sb;
    CU_ASSERT(stat(cache, &sb) == 0 && (sb.st_mode & 0777) == 0600);

    /* a writer that finds the file locked leaves it to the lock holder */
    int fd = open(cache, O_RDWR);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    CU_ASSERT_FATAL(fd >= 0 && fcntl(fd, F_OFD_SETLK, &fl) == 0);
    CU_ASSERT_EQUAL(fastsig_cache_save(state, a, sizeof(a), NULL), FASTSIG_OK);
    close(fd);
    CU_ASSERT(stat(cache, &sb) == 0 && sb.st_size == 50);

    /* the state file's fault hook reaches the cache too; its errno is the cause's */
    fastsig_cause cause;
    fail_op = FS_STATE_IO_WRITE;
    fail_errno = ENOSPC;
    fail_after = 0;
    fs_state_io_hook = failing_hook;
    CU_ASSERT_EQUAL(fastsig_cache_save(state, a, sizeof(a), &cause), FASTSIG_ERR_STATE_IO);
    CU_ASSERT_EQUAL(cause.sys_errno, ENOSPC);
    fail_op = FS_STATE_IO_READ;
    fail_errno = EIO;
    fail_after = 0;
    CU_ASSERT_EQUAL(fastsig_cache_load(state, &got, &len, NULL), FASTSIG_ERR_STATE_IO);
    CU_ASSERT_PTR_NULL(got);
    fs_state_io_hook = NULL;

    /* empty: refused */
    CU_ASSERT_EQUAL(truncate(cache, 0), 0);
    CU_ASSERT_EQUAL(fastsig_cache_load(state, &got, &len, NULL), FASTSIG_ERR_STATE_CORRUPT);
    CU_ASSERT_PTR_NULL(got);
}

static const fs_test cache_tests[] = {
    { "save, load, locked writer, injected failures", test_cache_file },
    { NULL, NULL },
};

static const fs_test path_tests[] = {
    { "default path and make_dir", test_default_path },
    { NULL, NULL },
};

/* ---- the registry's high-water mark: a state file restored offline ---------- */

/* <scratch>/name with an empty registry/ in it: a default state directory. */
static char *registry_home(char *dir, const char *name)
{
    char reg[PATH_MAX + 16];
    sf_path(dir, name);
    snprintf(reg, sizeof(reg), "%s/registry", dir);
    CU_ASSERT(mkdir(dir, 0700) == 0 || errno == EEXIST);
    CU_ASSERT(mkdir(reg, 0700) == 0 || errno == EEXIST);
    return dir;
}

/* Opens the state of key tag keeping its mark under dir; *rc: the check. */
static fastsig_state *open_marked(const char *path, unsigned tag, const char *dir, int *rc)
{
    fastsig_state *st = must_open(path, tag);
    *rc = FASTSIG_ERR_INTERNAL;
    if (st != NULL) {
        fastsig_state_set_prefetch(st, 0); /* the writes in the order the tests count */
        fastsig_state_set_batch(st, 16);
        *rc = fastsig_state_use_registry(st, dir, NULL);
    }
    return st;
}

static void test_restored_offline(void)
{
    char path[PATH_MAX], dir[PATH_MAX], other[PATH_MAX];
    uint8_t img[FS_STATE_FILE_SIZE];
    uint64_t idx = 0, next = 0, mark = 0;
    const char *reg = NULL;
    int rc;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "offline.state", 60, 1000, 0), FASTSIG_OK);
    registry_home(dir, "offline-home");
    fastsig_state *st = open_marked(path, 60, dir, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, FASTSIG_OK);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 0);
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, img, sizeof(img)), 0); /* the backup: next 1 */
    for (uint64_t i = 1; i < 21; i++)
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT_EQUAL(fastsig_state_close(st), FASTSIG_OK); /* gives 21..32 back */
    CU_ASSERT_EQUAL(sf_file_next(path, 60), 21);
    /* the give-back lowered the mark too: the state opens */
    st = open_marked(path, 60, dir, &rc);
    CU_ASSERT_EQUAL(rc, FASTSIG_OK);
    CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == 21);
    fastsig_state_close(st);
    /* the backup restored (in place, no signer running): refused */
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, sizeof(img)), 0);
    st = open_marked(path, 60, dir, &rc);
    CU_ASSERT_EQUAL(rc, FASTSIG_ERR_STATE_ROLLED_BACK);
    CU_ASSERT(fastsig_state_rollback(st, &next, &mark, &reg) == 1 && next == 1 && mark == 22);
    CU_ASSERT(reg != NULL && strncmp(reg, dir, strlen(dir)) == 0 && strstr(reg, ".mark-"));
    char *mp = strdup(reg != NULL ? reg : ""); /* the handle's, gone at close */
    idx = 5;
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_STATE_ROLLED_BACK);
    CU_ASSERT_EQUAL(idx, 5);
    fastsig_state_close(st);
    CU_ASSERT_EQUAL(sf_file_next(path, 60), 1);
    /* no mark where the registry is another (or an older key's): as before */
    st = open_marked(path, 60, registry_home(other, "offline-other"), &rc);
    CU_ASSERT_EQUAL(rc, FASTSIG_OK);
    fastsig_state_close(st);
    /* a damaged mark is no mark: it never blocks a key */
    uint8_t junk[FS_STATE_FILE_SIZE];
    memset(junk, 0xff, sizeof(junk));
    CU_ASSERT_EQUAL(sf_write_file(mp, junk, 72), 0);
    st = open_marked(path, 60, dir, &rc);
    CU_ASSERT_EQUAL(rc, FASTSIG_OK);
    fastsig_state_close(st);
    free(mp);
}

/* A signer killed at its kill_at-th write (release: the mark's, then the
 * state's) or never. */
static int kill_at, writes;

static int kill_at_write(enum fs_state_io_op op)
{
    if (op == FS_STATE_IO_WRITE && ++writes == kill_at)
        _exit(0);
    return 0;
}

static int signer_killed_in_release(void *arg)
{
    const char *const *a = arg;
    uint64_t idx;
    int rc;
    fastsig_state *st = open_marked(a[0], 61, a[1], &rc);
    for (int i = 0; i < 5 && rc == FASTSIG_OK; i++)
        rc = fastsig_state_take(st, &idx, NULL);
    writes = 0;
    fs_state_io_hook = kill_at_write;
    rc = fastsig_state_close(st) != FASTSIG_OK || rc != FASTSIG_OK;
    return rc;
}

static void test_crash_in_release_no_false_alarm(void)
{
    char path[PATH_MAX], dir[PATH_MAX];
    const char *args[2] = { path, registry_home(dir, "crash-home") };
    for (kill_at = 1; kill_at <= 3; kill_at++) {
        char name[32]; /* a state of its own: the mark of the one before stays */
        snprintf(name, sizeof(name), "crash%d.state", kill_at);
        CU_ASSERT_EQUAL_FATAL(sf_create(path, name, 61, 1000, 0), FASTSIG_OK);
        CU_ASSERT_EQUAL(sf_in_child(signer_killed_in_release, args, 0), 0);
        /* killed at the mark's write or the state's: nothing given back
         * (next 17, the mark 17 or 5); never killed: given back (5, 5) */
        uint64_t left = sf_file_next(path, 61), idx = 0;
        CU_ASSERT_EQUAL(left, kill_at < 3 ? 17 : 5);
        int rc;
        fastsig_state *st = open_marked(path, 61, dir, &rc);
        CU_ASSERT_EQUAL(rc, FASTSIG_OK);
        CU_ASSERT(fastsig_state_take(st, &idx, NULL) == FASTSIG_OK && idx == left);
        fastsig_state_close(st);
    }
}

static const fs_test rollback_tests[] = {
    { "a state file restored offline is refused by the registry's high-water mark",
      test_restored_offline },
    { "a crash between lowering the mark and the give-back never gives a false alarm",
      test_crash_in_release_no_false_alarm },
    { NULL, NULL },
};

int main(void)
{
    static const fs_suite suites[] = {
        { "state slot codec", codec_tests },
        { "state file", file_tests },
        { "state refusals", refusal_tests },
        { "files open to other users", owner_tests },
        { "state paths", path_tests },
        { "node-cache file", cache_tests },
        { "state rollback: the registry's mark", rollback_tests },
        { NULL, NULL },
    };
    sf_dir();
    return fs_cu_main(suites);
}
