/* testutil.c - see testutil.h. */
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>
#include "testutil.h"

#ifndef FASTSIG_VECTORS_DIR
#define FASTSIG_VECTORS_DIR "test/vectors"
#endif

int fs_cu_main(const fs_suite *suites)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    for (const fs_suite *s = suites; s->name != NULL; s++) {
        CU_pSuite suite = CU_add_suite(s->name, NULL, NULL);
        if (suite == NULL)
            return 2;
        for (const fs_test *t = s->tests; t->name != NULL; t++)
            if (CU_add_test(suite, t->name, t->fn) == NULL)
                return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures();
    CU_cleanup_registry();
    return failures ? 1 : 0;
}

int fs_cu_run(const char *suite, const fs_test *tests)
{
    const fs_suite suites[] = { { suite, tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}

const char *fs_vectors_dir(void)
{
    const char *env = getenv("FASTSIG_VECTORS");
    return env && *env ? env : FASTSIG_VECTORS_DIR;
}

FILE *fs_open_vector(const char *rel)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", fs_vectors_dir(), rel);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        char msg[4200];
        snprintf(msg, sizeof(msg), "known-answer vectors not found: looked for %s "
                 "(set FASTSIG_VECTORS to the test/vectors folder)", path);
        fprintf(stderr, "%s\n", msg);
        CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
    }
    return f;
}

uint8_t *fs_unhex_alloc(const char *hex, size_t *len)
{
    size_t n = strlen(hex);
    if (n % 2)
        return NULL;
    uint8_t *out = malloc(n / 2 + 1);
    if (out == NULL || fs_unhex(hex, out, n / 2)) {
        free(out);
        return NULL;
    }
    *len = n / 2;
    return out;
}

void fs_hex(const uint8_t *in, size_t len, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = 0;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

uint64_t fs_test_rand64(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

void fs_test_random(uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = (uint8_t)(fs_test_rand64() >> 24);
}

uint8_t *fs_test_buffer(size_t len)
{
    uint8_t *buf = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    fs_test_random(buf, len);
    return buf;
}
