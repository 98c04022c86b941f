/* testutil.c - see testutil.h. */
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>
#include "testutil.h"

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

void fs_vector_missing(const char *msg)
{
    CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
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
