/* testutil.h - shared by the CUnit programs: a table-driven main, the
 * known-answer vectors folder, hex and random helpers. */
#ifndef FASTSIG_TESTUTIL_H
#define FASTSIG_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <CUnit/CUnit.h>
#include "hex.h" /* fs_unhex */
#include "vecfile.h" /* fs_open_vector, fs_unhex_alloc; fs_vector_missing records a CUnit failure */

typedef struct {
    const char *name;
    void (*fn)(void);
} fs_test;

typedef struct {
    const char *name;
    const fs_test *tests; /* ends with { NULL, NULL } */
} fs_suite;

/* Runs the suites (ends with { NULL, NULL }) with CUnit's basic runner,
 * which prints its run summary; returns the process exit status. */
int fs_cu_main(const fs_suite *suites);
/* The same for a program of one suite. */
int fs_cu_run(const char *suite, const fs_test *tests);

void fs_hex(const uint8_t *in, size_t len, char *out /* 2*len+1 */);

/* Deterministic pseudo-random bytes for tests (xorshift; not for secrets). */
void fs_test_random(uint8_t *out, size_t len);
uint64_t fs_test_rand64(void);
/* A malloc'd buffer of len such bytes (a CUnit fatal failure if none). */
uint8_t *fs_test_buffer(size_t len);

#endif
