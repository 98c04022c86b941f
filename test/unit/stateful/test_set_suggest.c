/* test_set_suggest.c - the nearest parameter-set names of crypto/set_suggest.h
 * (what genpkey's refusal of an unknown name offers): the edit distance, the
 * three nearest of the right table only, best first, a short buffer. */
#include <string.h>
#include "testutil.h"
#include "set_suggest.h"

static void test_distance(void)
{
    CU_ASSERT_EQUAL(fs_name_distance("kitten", "sitting"), 3);
    CU_ASSERT_EQUAL(fs_name_distance("XMSS-SHA2_10_256", "xmss-sha2_10_256"), 0);
    CU_ASSERT_EQUAL(fs_name_distance("", "abc"), 3);
    CU_ASSERT_EQUAL(fs_name_distance("abc", ""), 3);
    CU_ASSERT_EQUAL(fs_name_distance("ab", "ba"), 2);
}

static void test_nearest(void)
{
    char out[256];
    CU_ASSERT_EQUAL(fs_sets_nearest(FS_SETS_XMSS, "XMSS-SHA2_10_265", out, sizeof(out)), 3);
    CU_ASSERT_STRING_EQUAL(out, "XMSS-SHA2_10_256, XMSS-SHA2_16_256, XMSS-SHA2_20_256");
    CU_ASSERT_EQUAL(fs_sets_nearest(FS_SETS_XMSSMT, "xmssmt-sha2_20/4_256", out, sizeof(out)), 3);
    CU_ASSERT(strncmp(out, "XMSSMT-SHA2_20/4_256, ", 22) == 0); /* case ignored: itself */
    fs_sets_nearest(FS_SETS_WOTSP, "XMSS-SHA2_10_256", out, sizeof(out));
    CU_ASSERT(strncmp(out, "WOTSP-", 6) == 0 && strstr(out, "XMSS") == NULL);
    fs_sets_nearest(FS_SETS_LMS, "LMS_SHA256_M32_H11", out, sizeof(out));
    CU_ASSERT(strncmp(out, "LMS_SHA256_M32_H10, ", 20) == 0);
    fs_sets_nearest(FS_SETS_LMOTS, "LMOTS_SHAKE_N24_W3", out, sizeof(out));
    CU_ASSERT(strncmp(out, "LMOTS_SHAKE_N24_W", 17) == 0 && strstr(out, "LMS_") == NULL);
    /* a short buffer: whole names only, terminated */
    CU_ASSERT_EQUAL(fs_sets_nearest(FS_SETS_XMSS, "XMSS-SHA2_10_265", out, 20), 3);
    CU_ASSERT_STRING_EQUAL(out, "XMSS-SHA2_10_256");
}

int main(void)
{
    static const fs_test tests[] = {
        { "edit distance, case ignored", test_distance },
        { "the three nearest names of one table", test_nearest },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "set names", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
