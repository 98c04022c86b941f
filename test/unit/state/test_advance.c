/* test_advance.c - an operator's forward-only move of a state's next
 * (fastsig_state_advance, crypto/state/stateadvance.c): forward, the same
 * index without a write, backwards and past max refused with the file
 * untouched, a block in hand kept below the new next, and the registry's
 * high-water mark raised so that the old file restored is refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/statefile.h"
#include "state/stateslot.h"
#include "state_fixture.h"

#define TAG 91

static void test_forward_only(void)
{
    char path[PATH_MAX];
    uint8_t before[FS_STATE_FILE_SIZE], after[FS_STATE_FILE_SIZE];
    uint64_t from = 0, idx;
    int rc;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "advance.state", TAG, 1000, 0), FASTSIG_OK);
    fastsig_state *st = sf_open(path, TAG, &rc);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(fastsig_state_advance(st, 10, &from, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(from, 0);
    CU_ASSERT_EQUAL(sf_file_next(path, TAG), 10);
    /* the same index: nothing written */
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, before, sizeof(before)), 0);
    CU_ASSERT_EQUAL(fastsig_state_advance(st, 10, &from, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(sf_read_file(path, after, sizeof(after)), 0);
    CU_ASSERT(memcmp(before, after, sizeof(before)) == 0);
    /* backwards and beyond max: refused, the file untouched */
    fastsig_cause cause;
    CU_ASSERT_EQUAL(fastsig_state_advance(st, 9, &from, &cause), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(from, 10);
    CU_ASSERT_STRING_EQUAL(cause.path, path);
    CU_ASSERT_EQUAL(fastsig_state_advance(st, 1001, NULL, NULL), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(sf_read_file(path, after, sizeof(after)), 0);
    CU_ASSERT(memcmp(before, after, sizeof(before)) == 0);
    /* the whole key: exhausted after */
    CU_ASSERT_EQUAL(fastsig_state_advance(st, 1000, NULL, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_take(st, &idx, NULL), FASTSIG_ERR_KEY_EXHAUSTED);
    fastsig_state_close(st);
}

/* A signer's block stays below the new next; its next block is above it. */
static void test_block_in_hand(void)
{
    char path[PATH_MAX];
    uint64_t idx = 0;
    int rc;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "advance-block.state", TAG, 1000, 0), FASTSIG_OK);
    fastsig_state *signer = sf_open(path, TAG, &rc), *op = sf_open(path, TAG, &rc);
    CU_ASSERT_FATAL(signer != NULL && op != NULL);
    fastsig_state_set_prefetch(signer, 0);
    fastsig_state_set_batch(signer, 8);
    CU_ASSERT(fastsig_state_take(signer, &idx, NULL) == FASTSIG_OK && idx == 0); /* [0, 1) */
    CU_ASSERT(fastsig_state_take(signer, &idx, NULL) == FASTSIG_OK && idx == 1); /* [1, 9) */
    CU_ASSERT_EQUAL(fastsig_state_advance(op, 100, NULL, NULL), FASTSIG_OK);
    for (uint64_t i = 2; i < 9; i++)
        CU_ASSERT(fastsig_state_take(signer, &idx, NULL) == FASTSIG_OK && idx == i);
    CU_ASSERT(fastsig_state_take(signer, &idx, NULL) == FASTSIG_OK && idx == 100);
    fastsig_state_close(op);
    fastsig_state_close(signer);
    CU_ASSERT_EQUAL(sf_file_next(path, TAG), 101); /* the rest of [100, 108) given back */
}

/* With the registry kept, the mark follows: the old file restored is
 * refused at the next open. */
static void test_mark_follows(void)
{
    char path[PATH_MAX], dir[PATH_MAX], reg[PATH_MAX + 16];
    uint8_t old[FS_STATE_FILE_SIZE];
    uint64_t next = 0, mark = 0;
    int rc;
    CU_ASSERT_EQUAL_FATAL(sf_create(path, "advance-mark.state", TAG, 1000, 5), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, old, sizeof(old)), 0);
    sf_path(dir, "advance-home");
    snprintf(reg, sizeof(reg), "%s/registry", dir);
    CU_ASSERT(mkdir(dir, 0700) == 0 || errno == EEXIST);
    CU_ASSERT(mkdir(reg, 0700) == 0 || errno == EEXIST);
    fastsig_state *st = sf_open(path, TAG, &rc);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(fastsig_state_use_registry(st, dir, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_state_advance(st, 50, NULL, NULL), FASTSIG_OK);
    fastsig_state_close(st);
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, old, sizeof(old)), 0);
    st = sf_open(path, TAG, &rc);
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_EQUAL(fastsig_state_use_registry(st, dir, NULL), FASTSIG_ERR_STATE_ROLLED_BACK);
    CU_ASSERT(fastsig_state_rollback(st, &next, &mark, NULL) == 1 && next == 5 && mark == 50);
    fastsig_state_close(st);
}

static const fs_test advance_tests[] = {
    { "forward only, the file untouched when refused", test_forward_only },
    { "a signer's block stays below the new next", test_block_in_hand },
    { "the registry's mark follows", test_mark_follows },
    { NULL, NULL },
};

int main(void)
{
    static const fs_suite suites[] = {
        { "state advance", advance_tests },
        { NULL, NULL },
    };
    sf_dir();
    return fs_cu_main(suites);
}
