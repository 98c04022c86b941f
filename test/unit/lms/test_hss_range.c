/* test_hss_range.c - an HSS key restricted to a range of its global indices
 * (a shard's core: hss_key_gen_range, hss_key_set_range): it signs every
 * index of its range with the whole key's bytes, whatever tree the range
 * starts in, refuses the indices outside it, and its range only shrinks. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "lms/lms_params.h"
#include "lms/hss.h"

/* Key rows: L levels of one set; a range [first, end) of its indices. */
static const struct {
    unsigned L;
    const char *lms, *ots;
    uint64_t first, end;
} rows[] = {
    { 2, "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W2", 0, 1024 },   /* the whole key */
    { 2, "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W2", 100, 200 },  /* across bottom trees */
    { 2, "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W2", 992, 1024 }, /* the last bottom tree */
    { 3, "LMS_SHAKE_M24_H5", "LMOTS_SHAKE_N24_W4", 5000, 6100 },  /* across a middle tree */
    { 1, "LMS_SHA256_M24_H5", "LMOTS_SHA256_N24_W4", 7, 9 },      /* plain LMS */
};

static void levels(unsigned L, const char *lms, const char *ots, lms_params *lp,
                   lmots_params *op)
{
    for (unsigned i = 0; i < L; i++) {
        CU_ASSERT_EQUAL_FATAL(lms_params_by_name(&lp[i], lms), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(lmots_params_by_name(&op[i], ots), FASTSIG_OK);
    }
}

/* The range key's signatures at its first and last index and at a few
 * others (bottom-tree boundaries included) equal the whole key's; the
 * indices just outside are refused. */
static void test_range_signs_as_whole(void)
{
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        lms_params lp[3];
        lmots_params op[3];
        uint8_t seed[32], I[16], pa[64], pb[64], msg[5] = "range";
        hss_key *a = NULL, *b = NULL;
        levels(rows[r].L, rows[r].lms, rows[r].ots, lp, op);
        fs_test_random(seed, sizeof(seed));
        fs_test_random(I, sizeof(I));
        CU_ASSERT_EQUAL_FATAL(hss_key_gen(&a, rows[r].L, lp, op, seed, I, NULL, NULL), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(hss_key_gen_range(&b, rows[r].L, lp, op, seed, I, 2, rows[r].first,
                                                rows[r].end, NULL, NULL),
                              FASTSIG_OK);
        hss_pub(a, pa);
        hss_pub(b, pb);
        CU_ASSERT_EQUAL(memcmp(pa, pb, hss_pub_bytes(a)), 0);
        size_t sl = hss_sig_bytes(a);
        uint8_t *sa = malloc(sl), *sb = malloc(sl);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sa);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
        uint64_t n = rows[r].end - rows[r].first, bad = 0;
        uint64_t at[] = { 0, 1, 31 % n, 32 % n, n / 2, n - 1 }; /* offsets into the range */
        for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
            uint64_t g = rows[r].first + at[i];
            CU_ASSERT_EQUAL(hss_sign(a, g, msg, sizeof(msg), sa), FASTSIG_OK);
            CU_ASSERT_EQUAL(hss_sign(b, g, msg, sizeof(msg), sb), FASTSIG_OK);
            bad += memcmp(sa, sb, sl) != 0;
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(hss_verify(pa, hss_pub_bytes(a), msg, sizeof(msg), sb, sl), FASTSIG_OK);
        if (rows[r].first > 0)
            CU_ASSERT_EQUAL(hss_sign(b, rows[r].first - 1, msg, sizeof(msg), sb),
                            FASTSIG_ERR_KEY_EXHAUSTED);
        if (rows[r].end < (uint64_t)1 << (5 * rows[r].L))
            CU_ASSERT_EQUAL(hss_sign(b, rows[r].end, msg, sizeof(msg), sb),
                            FASTSIG_ERR_KEY_EXHAUSTED);
        free(sa);
        free(sb);
        hss_key_free(a);
        hss_key_free(b);
    }
}

/* Empty ranges and ranges past the key's end give no key; a range only
 * shrinks (a shard of a shard), never widens. */
static void test_range_rules(void)
{
    lms_params lp[2];
    lmots_params op[2];
    uint8_t seed[32] = { 1 }, I[16] = { 2 }, sig[8192], msg[1] = { 0 };
    hss_key *k = NULL;
    levels(2, "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W4", lp, op);
    CU_ASSERT_EQUAL(hss_key_gen_range(&k, 2, lp, op, seed, I, 1, 10, 10, NULL, NULL),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(hss_key_gen_range(&k, 2, lp, op, seed, I, 1, 10, 9, NULL, NULL),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(hss_key_gen_range(&k, 2, lp, op, seed, I, 1, 0, 1025, NULL, NULL),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_PTR_NULL(k);
    CU_ASSERT_EQUAL_FATAL(hss_key_gen_range(&k, 2, lp, op, seed, I, 1, 64, 512, NULL, NULL),
                          FASTSIG_OK);
    CU_ASSERT_FATAL(hss_sig_bytes(k) <= sizeof(sig));
    CU_ASSERT_EQUAL(hss_key_set_range(k, 63, 512), FASTSIG_ERR_BAD_PARAM); /* wider */
    CU_ASSERT_EQUAL(hss_key_set_range(k, 64, 513), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(hss_key_set_range(k, 100, 100), FASTSIG_ERR_BAD_PARAM); /* empty */
    CU_ASSERT_EQUAL(hss_key_set_range(k, 100, 200), FASTSIG_OK);           /* narrower */
    CU_ASSERT_EQUAL(hss_sign(k, 99, msg, sizeof(msg), sig), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_EQUAL(hss_sign(k, 200, msg, sizeof(msg), sig), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_EQUAL(hss_sign(k, 150, msg, sizeof(msg), sig), FASTSIG_OK);
    CU_ASSERT_EQUAL(hss_key_set_range(k, 64, 512), FASTSIG_ERR_BAD_PARAM); /* not back */
    hss_key_free(k);
}

static const fs_test tests[] = {
    { "a range key signs as the whole key inside, refuses outside", test_range_signs_as_whole },
    { "empty or outside ranges refused; a range only shrinks", test_range_rules },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("hss_range", tests);
}
