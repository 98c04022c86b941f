/* verify_cases.h - one known answer per parameter-set file of test/vectors
 * (xmss/: sig_idx0; lms/: the HSS signature, and for L = 1 its bare LMS
 * encoding too), and the ACVP LMS cases, for libfastsig-verify's tests and
 * measuring programs (test_verify_kat.c, verify_stack.c, bench/verify_bench.c).
 * Each program defines fs_vector_missing (vecfile.h). */
#ifndef FASTSIG_TEST_VERIFY_CASES_H
#define FASTSIG_TEST_VERIFY_CASES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char name[64];  /* "XMSS-SHA2_10_256", "HSS rfc8554-tc1" ... */
    int scheme;     /* FASTSIG_VERIFY_* */
    uint8_t *pk, *msg, *sig;
    size_t pklen, mlen, siglen;
} verify_case;

/* Loads every case into *out (malloc'd; free with verify_cases_free);
 * returns the count, 0 when a file is missing (reported on stderr). */
size_t verify_cases_load(verify_case **out);
void verify_cases_free(verify_case *c, size_t n);
/* The 80 ACVP LMS cases of lms/acvp-lms-sigver.txt (bare LMS keys and
 * signatures, all valid); the count read (0 when the file is missing). */
size_t verify_cases_acvp(verify_case **out);

#endif
