/* test_genckpt.c - the checkpoint file of a key generation in pieces
 * (crypto/state/genckpt.c): version 2 round trips with an HSS plan (set,
 * seed of n + 16, many nodes a piece), mode 0600; a version 1 file (XMSS,
 * before the set and per fields) still loads as per 1, seed 3n; sizes past
 * the limits, a flipped bit, a short file refused as corrupt, and plans of
 * another kind, set or size are not the same. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/genckpt.h"
#include "state/stateslot.h" /* fs_state_crc64 */
#include "state_fixture.h"

static fs_resume_plan hss_plan(void)
{
    fs_resume_plan p = { .kind = FS_RESUME_KIND_HSS, .n = 32, .per = 1024, .total = 32,
                         .seedlen = 48, .setlen = 16 };
    for (size_t i = 0; i < p.setlen; i++)
        p.set[i] = (uint8_t)(i * 7 + 1);
    return p;
}

static void test_round_trip(void)
{
    char path[PATH_MAX];
    fs_genckpt a = { .plan = hss_plan(), .done = 3 }, b;
    struct stat st;
    size_t len = (size_t)a.plan.total * a.plan.per * a.plan.n;
    a.roots = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.roots);
    for (size_t i = 0; i < len; i++)
        a.roots[i] = (uint8_t)(i * 31 + i / 251);
    for (size_t i = 0; i < a.plan.seedlen; i++)
        a.seed[i] = (uint8_t)(200 - i);
    sf_path(path, "hss.ckpt");
    CU_ASSERT_EQUAL_FATAL(fs_genckpt_save(path, &a, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
    CU_ASSERT_EQUAL(st.st_size, 48 + 16 + 48 + 3 * 1024 * 32 + 8);
    CU_ASSERT_EQUAL_FATAL(fs_genckpt_load(path, &b, NULL), FASTSIG_OK);
    CU_ASSERT(fs_genckpt_plan_same(&a.plan, &b.plan));
    CU_ASSERT_EQUAL(b.done, 3);
    CU_ASSERT_EQUAL(memcmp(a.seed, b.seed, a.plan.seedlen), 0);
    CU_ASSERT_EQUAL(memcmp(a.roots, b.roots, 3 * 1024 * 32), 0);
    fs_genckpt_free(&b);
    /* a flipped bit, a short file: not whole */
    uint8_t img[48 + 16 + 48 + 3 * 1024 * 32 + 8];
    CU_ASSERT_EQUAL_FATAL(sf_read_file(path, img, sizeof(img)), 0);
    img[70] ^= 1;
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, sizeof(img)), 0);
    CU_ASSERT_EQUAL(fs_genckpt_load(path, &b, NULL), FASTSIG_ERR_STATE_CORRUPT);
    img[70] ^= 1;
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, 100), 0);
    CU_ASSERT_EQUAL(fs_genckpt_load(path, &b, NULL), FASTSIG_ERR_STATE_CORRUPT);
    /* past the limits: not written */
    a.plan.per = 1u << 20; /* 32 x 2^20 x 32 bytes of nodes */
    CU_ASSERT_EQUAL(fs_genckpt_save(path, &a, NULL), FASTSIG_ERR_BAD_PARAM);
    a.plan = hss_plan();
    a.plan.setlen = FS_RESUME_SET_MAX + 1;
    CU_ASSERT_EQUAL(fs_genckpt_save(path, &a, NULL), FASTSIG_ERR_BAD_PARAM);
    free(a.roots);
}

/* Version 1 (XMSS-SHA2_16_256's: 64 pieces, seed 3n, a root a piece). */
static void test_version1(void)
{
    char path[PATH_MAX];
    uint8_t img[40 + 96 + 5 * 32 + 8] = "FSIGCKPT";
    fs_genckpt b;
    const uint64_t fields[][3] = { { 8, 1, 4 }, { 12, 1, 4 }, { 16, 2, 4 }, { 20, 32, 4 },
                                   { 24, 64, 8 }, { 32, 5, 8 } };
    for (size_t f = 0; f < 6; f++)
        for (unsigned i = 0; i < fields[f][2]; i++)
            img[fields[f][0] + i] = (uint8_t)(fields[f][1] >> (8 * i));
    for (size_t i = 40; i < sizeof(img) - 8; i++)
        img[i] = (uint8_t)i;
    uint64_t crc = fs_state_crc64(img, sizeof(img) - 8);
    for (unsigned i = 0; i < 8; i++)
        img[sizeof(img) - 8 + i] = (uint8_t)(crc >> (8 * i));
    sf_path(path, "v1.ckpt");
    CU_ASSERT_EQUAL_FATAL(sf_write_file(path, img, sizeof(img)), 0);
    CU_ASSERT_EQUAL(chmod(path, 0600), 0);
    CU_ASSERT_EQUAL_FATAL(fs_genckpt_load(path, &b, NULL), FASTSIG_OK);
    fs_resume_plan want = { .kind = 1, .oid = 2, .n = 32, .per = 1, .total = 64, .seedlen = 96 };
    CU_ASSERT(fs_genckpt_plan_same(&b.plan, &want));
    CU_ASSERT_EQUAL(b.done, 5);
    CU_ASSERT_EQUAL(memcmp(b.seed, img + 40, 96), 0);
    CU_ASSERT_EQUAL(memcmp(b.roots, img + 136, 5 * 32), 0);
    fs_genckpt_free(&b);
}

static void test_plan_same(void)
{
    fs_resume_plan a = hss_plan(), b = a;
    CU_ASSERT(fs_genckpt_plan_same(&a, &b));
    b.set[15] ^= 1; /* another lower level's set */
    CU_ASSERT_FALSE(fs_genckpt_plan_same(&a, &b));
    b = a, b.kind = 1;
    CU_ASSERT_FALSE(fs_genckpt_plan_same(&a, &b));
    b = a, b.per = 32;
    CU_ASSERT_FALSE(fs_genckpt_plan_same(&a, &b));
    b = a, b.setlen = 8;
    CU_ASSERT_FALSE(fs_genckpt_plan_same(&a, &b));
}

static const fs_test tests[] = {
    { "version 2 round trip, mode 0600; damage and limits refused", test_round_trip },
    { "a version 1 checkpoint loads as XMSS's", test_version1 },
    { "plans of another kind, set or size differ", test_plan_same },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("state_genckpt", tests);
}
