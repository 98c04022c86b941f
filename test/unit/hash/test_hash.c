/* test_hash.c - the batch interface of crypto/hash (hash.h) against
 * OpenSSL-based references, on every CPU path this machine has: plain
 * multi-lane hashing (also strided, after a prefix, padded in place), F, H,
 * PRF (midstate), PRF_keygen, H_msg, RAND_HASH and WOTS+ chain walks, then
 * bad input. */
#include <stdlib.h>
#include <string.h>
#include "cpu.h"
#include "fastsig_err.h"
#include "hash/hash.h"
#include "hash_ref.h"
#include "testutil.h"

#define MAXL 40

static uint8_t *rnd(size_t len)
{
    uint8_t *p = malloc(len + 1);
    fs_test_random(p, len + 1);
    return p;
}

static void check_lane(const uint8_t *got, const uint8_t *want, size_t n, const char *what,
                       const fs_hash_params *p, size_t lane, size_t lanes, size_t len)
{
    if (memcmp(got, want, n) != 0) {
        char path[64];
        fprintf(stderr, "\n%s mismatch: %s, lane %zu of %zu, len %zu, kernel %s (%s)\n", what,
                param_name(p), lane, lanes, len, fs_hash_kernel_name(p->family),
                fs_cpu_names(fs_cpu_features(), path, sizeof(path)));
        CU_FAIL(what);
    }
}

static void many_one(const fs_hash_params *p)
{
    static const size_t lens[] = { 0,   1,   31,  55,  56,  63,  64,  65,  111, 112, 119,
                                   120, 127, 128, 135, 136, 137, 167, 168, 169, 300, 1000 };
    static const size_t lanes_set[] = { 1, 2, 3, 5, 8, 9, 16, 17, 21, 25, 32, 33, 70 };
    for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
        for (size_t si = 0; si < sizeof(lanes_set) / sizeof(lanes_set[0]); si++) {
            size_t len = lens[li], lanes = lanes_set[si];
            uint8_t *in = rnd(len * lanes), *out = malloc(lanes * p->n + 1), want[64];
            /* odd offsets: nothing is aligned */
            memmove(in + 1, in, len * lanes);
            CU_ASSERT_EQUAL(fs_hash_many(p, out + 1, in + 1, len, lanes), FASTSIG_OK);
            for (size_t l = 0; l < lanes; l++) {
                ref_hash(p->family, want, p->n, in + 1 + l * len, len);
                check_lane(out + 1 + l * p->n, want, p->n, "many", p, l, lanes, len);
            }
            free(in);
            free(out);
        }
    }
}

/* The family's block bytes (what fs_hash_prefixed_msg's prefix stays under). */
static size_t block_of(fs_hash_family f)
{
    return f == FS_HASH_SHA256 ? 64 : f == FS_HASH_SHA512 ? 128 : f == FS_HASH_SHAKE128 ? 168 : 136;
}

/* fs_hash_many_strided, fs_hash_prefixed_msg and fs_hash_pad/fs_hash_padded
 * against the one-shot reference on the same bytes. */
static void forms_one(const fs_hash_params *p)
{
    enum { LANES = 5, IS = 301, OS = 70, LEN = 200 };
    const size_t block = block_of(p->family);
    uint8_t *in = rnd(LANES * IS), out[LANES * OS], want[64], msgs[LANES][3 * 168];
    CU_ASSERT_EQUAL(fs_hash_many_strided(p, out, OS, in, IS, LEN, LANES), FASTSIG_OK);
    for (size_t l = 0; l < LANES; l++) {
        ref_hash(p->family, want, p->n, in + l * IS, LEN);
        check_lane(out + l * OS, want, p->n, "strided", p, l, LANES, LEN);
    }
    const size_t plens[] = { 0, 22, block - 1 }, mlens[] = { 0, 1, block, 2 * block + 5, 1000 };
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 5; j++) {
            size_t pl = plens[i], ml = mlens[j] > LANES * IS - pl ? 0 : mlens[j];
            CU_ASSERT_EQUAL(fs_hash_prefixed_msg(p, out, in, pl, in + pl, ml), FASTSIG_OK);
            ref_hash(p->family, want, p->n, in, pl + ml);
            check_lane(out, want, p->n, "prefixed", p, 0, 1, pl + ml);
        }
    CU_ASSERT_EQUAL(fs_hash_prefixed_msg(p, out, in, block, in, 1), FASTSIG_ERR_BAD_PARAM);
    for (size_t len = 0; len < 2 * block + 2; len += block / 2 + 1) {
        const uint8_t *ptrs[LANES];
        size_t nb = 0;
        for (size_t l = 0; l < LANES; l++) {
            memcpy(msgs[l], in + l * IS, len);
            nb = fs_hash_pad(p->family, msgs[l], len);
            ptrs[l] = msgs[l];
        }
        CU_ASSERT_EQUAL(fs_hash_padded(p, ptrs, nb, out, OS, LANES), FASTSIG_OK);
        for (size_t l = 0; l < LANES; l++) {
            ref_hash(p->family, want, p->n, in + l * IS, len);
            check_lane(out + l * OS, want, p->n, "padded", p, l, LANES, len);
        }
    }
    free(in);
}

static void test_many(void)
{
    each_path_param(many_one);
    each_path_param(forms_one);
}

/* F and H on every lane count 1..MAXL, each lane its own key and message. */
static void f_h_one(const fs_hash_params *p)
{
    size_t n = p->n;
    for (size_t lanes = 1; lanes <= MAXL; lanes++) {
        uint8_t *key = rnd(lanes * n), *m = rnd(lanes * 2 * n), *out = rnd(lanes * n);
        uint8_t want[64];
        CU_ASSERT_EQUAL(fs_hash_F(p, out, key, m, lanes), FASTSIG_OK);
        for (size_t l = 0; l < lanes; l++) {
            ref_prefixed(p, 0, want, key + l * n, n, m + l * n, n, NULL, 0);
            check_lane(out + l * n, want, n, "F", p, l, lanes, n);
        }
        CU_ASSERT_EQUAL(fs_hash_H(p, out, key, m, lanes), FASTSIG_OK);
        for (size_t l = 0; l < lanes; l++) {
            ref_prefixed(p, 1, want, key + l * n, n, m + 2 * l * n, 2 * n, NULL, 0);
            check_lane(out + l * n, want, n, "H", p, l, lanes, 2 * n);
        }
        CU_ASSERT_EQUAL(fs_hash_prefixed(p, 7, out, m, 2 * n, lanes), FASTSIG_OK);
        for (size_t l = 0; l < lanes; l++) {
            ref_prefixed(p, 7, want, m + 2 * l * n, 2 * n, NULL, 0, NULL, 0);
            check_lane(out + l * n, want, n, "prefixed", p, l, lanes, 2 * n);
        }
        free(key);
        free(m);
        free(out);
    }
}

static void test_f_h(void)
{
    each_path_param(f_h_one);
}

/* PRF from the precomputed midstate equals the full hash; PRF_keygen per
 * SP 800-208 7.2. */
static void prf_one(const fs_hash_params *p)
{
    size_t n = p->n;
    uint8_t *pub = rnd(n), *sk = rnd(n), want[64];
    fs_hash_seeds s;
    CU_ASSERT_EQUAL_FATAL(fs_hash_seeds_init(&s, p, pub, sk), FASTSIG_OK);
    for (size_t lanes = 1; lanes <= MAXL; lanes += 3) {
        uint8_t *adrs = rnd(lanes * 32), *out = malloc(lanes * n);
        uint8_t *full = malloc(lanes * (n + 32)), *out2 = malloc(lanes * n);
        CU_ASSERT_EQUAL(fs_hash_prf(&s, out, adrs, lanes), FASTSIG_OK);
        for (size_t l = 0; l < lanes; l++) {
            ref_prefixed(p, 3, want, pub, n, adrs + 32 * l, 32, NULL, 0);
            check_lane(out + l * n, want, n, "PRF", p, l, lanes, 32);
            memcpy(full + l * (n + 32), pub, n);
            memcpy(full + l * (n + 32) + n, adrs + 32 * l, 32);
        }
        /* midstate vs full hash through the same engine */
        CU_ASSERT_EQUAL(fs_hash_prefixed(p, 3, out2, full, n + 32, lanes), FASTSIG_OK);
        CU_ASSERT_EQUAL(memcmp(out, out2, lanes * n), 0);
        CU_ASSERT_EQUAL(fs_hash_prf_keygen(&s, out, adrs, lanes), FASTSIG_OK);
        for (size_t l = 0; l < lanes; l++) {
            ref_prefixed(p, 4, want, sk, n, pub, n, adrs + 32 * l, 32);
            check_lane(out + l * n, want, n, "PRF_keygen", p, l, lanes, 32);
        }
        free(adrs);
        free(out);
        free(out2);
        free(full);
    }
    fs_hash_seeds_clear(&s);
    free(pub);
    free(sk);
}

static void test_prf(void)
{
    each_path_param(prf_one);
}

static void hmsg_one(const fs_hash_params *p)
{
    static const size_t lens[] = { 0, 1, 3, 100, 135, 136, 168, 1000, 16384, 20000, 70001 };
    uint8_t *key = rnd(3 * p->n), out[64], want[64];
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        uint8_t *m = rnd(lens[i]);
        CU_ASSERT_EQUAL(fs_hash_msg(p, out, key, m, lens[i]), FASTSIG_OK);
        ref_prefixed(p, 2, want, key, 3 * p->n, m, lens[i], NULL, 0);
        check_lane(out, want, p->n, "H_msg", p, 0, 1, lens[i]);
        free(m);
    }
    free(key);
}

static void test_hmsg(void)
{
    each_path_param(hmsg_one);
}

static void rand_hash_one(const fs_hash_params *p)
{
    size_t n = p->n, lanes = 1 + (size_t)(fs_test_rand64() % 80);
    uint8_t *pub = rnd(n), *in = rnd(lanes * 2 * n), *adrs = rnd(lanes * 32);
    uint8_t *out = malloc(lanes * n), *want = malloc(lanes * n);
    fs_hash_seeds s;
    fs_hash_seeds_init(&s, p, pub, NULL);
    CU_ASSERT_EQUAL(fs_hash_rand_hash(&s, out, in, adrs, lanes), FASTSIG_OK);
    for (size_t l = 0; l < lanes; l++) {
        ref_rand_hash(p, pub, want + l * n, in + 2 * l * n, adrs + 32 * l);
        check_lane(out + l * n, want + l * n, n, "RAND_HASH", p, l, lanes, 2 * n);
    }
    /* a tree level reduced in place */
    CU_ASSERT_EQUAL(fs_hash_rand_hash(&s, in, in, adrs, lanes), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(in, want, lanes * n), 0);
    CU_ASSERT_EQUAL(fs_hash_prf_keygen(&s, out, adrs, 1), FASTSIG_ERR_BAD_PARAM);
    free(pub);
    free(in);
    free(adrs);
    free(out);
    free(want);
}

static void test_rand_hash(void)
{
    each_path_param(rand_hash_one);
}

/* Chains of mixed starts and lengths (some empty) vs one at a time. */
static void chains_one(const fs_hash_params *p)
{
    size_t n = p->n, count = 1 + (size_t)(fs_test_rand64() % 70);
    uint8_t *pub = rnd(n), *in = rnd(count * n), *adrs = rnd(count * 32);
    uint8_t *out = malloc(count * n), *want = malloc(count * n);
    uint32_t start[80], steps[80];
    for (size_t c = 0; c < count; c++) {
        start[c] = (uint32_t)(fs_test_rand64() % 16);
        steps[c] = (uint32_t)(fs_test_rand64() % (16 - start[c]));
        memcpy(want + c * n, in + c * n, n);
        ref_chain(p, pub, want + c * n, adrs + 32 * c, start[c], steps[c]);
    }
    fs_hash_seeds s;
    fs_hash_seeds_init(&s, p, pub, NULL);
    CU_ASSERT_EQUAL(fs_hash_chains(&s, out, in, adrs, start, steps, count), FASTSIG_OK);
    for (size_t c = 0; c < count; c++)
        check_lane(out + c * n, want + c * n, n, "chain", p, c, count, steps[c]);
    /* in place, start NULL = 0 */
    for (size_t c = 0; c < count; c++) {
        memcpy(want + c * n, in + c * n, n);
        ref_chain(p, pub, want + c * n, adrs + 32 * c, 0, steps[c]);
    }
    CU_ASSERT_EQUAL(fs_hash_chains(&s, in, in, adrs, NULL, steps, count), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(in, want, count * n), 0);
    free(pub);
    free(in);
    free(adrs);
    free(out);
    free(want);
}

static void test_chains(void)
{
    each_path_param(chains_one);
}

static void test_bad_input(void)
{
    const fs_hash_params good = { FS_HASH_SHA256, 32, 32 };
    const fs_hash_params bad[] = { { 0, 32, 32 },   { 9, 32, 32 },
                                   { FS_HASH_SHA256, 64, 64 }, { FS_HASH_SHA256, 16, 32 },
                                   { FS_HASH_SHA512, 48, 64 }, { FS_HASH_SHAKE128, 32, 7 } };
    uint8_t buf[64 * 4 * (FS_HASH_MAX_LANES + 1)] = { 0 }, out[64 * (FS_HASH_MAX_LANES + 1)];
    uint32_t steps[2] = { 1, 1 }, big[2] = { 0xffffffffu, 0 };
    fs_hash_seeds s;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CU_ASSERT_EQUAL(fs_hash_params_check(&bad[i]), FASTSIG_ERR_UNSUPPORTED);
        CU_ASSERT_EQUAL(fs_hash_many(&bad[i], out, buf, 10, 1), FASTSIG_ERR_UNSUPPORTED);
        CU_ASSERT_EQUAL(fs_hash_F(&bad[i], out, buf, buf, 1), FASTSIG_ERR_UNSUPPORTED);
        CU_ASSERT_EQUAL(fs_hash_seeds_init(&s, &bad[i], buf, buf), FASTSIG_ERR_UNSUPPORTED);
    }
    CU_ASSERT_EQUAL(fs_hash_params_check(NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_many(&good, out, buf, 10, 0), FASTSIG_ERR_BAD_LANES);
    CU_ASSERT_EQUAL(fs_hash_many(&good, out, buf, 10, FS_HASH_MAX_LANES + 1),
                    FASTSIG_ERR_BAD_LANES);
    CU_ASSERT_EQUAL(fs_hash_many(&good, out, buf, 10, FS_HASH_MAX_LANES), FASTSIG_OK);
    CU_ASSERT_EQUAL(fs_hash_many(&good, NULL, buf, 10, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_many(&good, out, NULL, 10, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_F(&good, out, NULL, buf, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_H(&good, out, buf, NULL, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_H(&good, out, buf, buf, 0), FASTSIG_ERR_BAD_LANES);
    CU_ASSERT_EQUAL(fs_hash_prefixed(&good, 256, out, buf, 3, 1), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fs_hash_msg(&good, out, NULL, buf, 3), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_msg(&good, out, buf, NULL, 3), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_msg(&good, out, buf, NULL, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL(fs_hash_seeds_init(NULL, &good, buf, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_seeds_init(&s, &good, NULL, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL_FATAL(fs_hash_seeds_init(&s, &good, buf, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL(fs_hash_prf(NULL, out, buf, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_prf(&s, out, NULL, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_prf(&s, out, buf, 0), FASTSIG_ERR_BAD_LANES);
    CU_ASSERT_EQUAL(fs_hash_prf_keygen(&s, out, buf, 1), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fs_hash_rand_hash(&s, out, buf, NULL, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_rand_hash(&s, out, buf, buf, FS_HASH_MAX_LANES + 1),
                    FASTSIG_ERR_BAD_LANES);
    CU_ASSERT_EQUAL(fs_hash_chains(&s, out, buf, buf, NULL, NULL, 2), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_chains(&s, out, buf, buf, NULL, steps, 0), FASTSIG_ERR_BAD_LANES);
    CU_ASSERT_EQUAL(fs_hash_chains(&s, out, buf, buf, big, steps, 2), FASTSIG_ERR_BAD_PARAM);
}

/* FASTSIG_CPU parsing: known names narrow, an unknown one is ignored and
 * reported (fs_cpu_env_bad), never printed. */
static void test_cpu_names(void)
{
    unsigned m;
    CU_ASSERT(fs_cpu_parse("portable", &m) == 0 && m == 0);
    CU_ASSERT(fs_cpu_parse("native", &m) == 0 && m == ~0u);
    CU_ASSERT(fs_cpu_parse("avx2,ifma", &m) == 0 && m == (FS_CPU_AVX2 | FS_CPU_IFMA));
    CU_ASSERT(fs_cpu_parse("avx2,bogus", &m) == -1 && m == FS_CPU_AVX2);
    const char *env = getenv("FASTSIG_CPU");
    int bad = env != NULL && *env && fs_cpu_parse(env, &m) != 0;
    CU_ASSERT_EQUAL(fs_cpu_env_bad(), bad);
    CU_ASSERT_EQUAL(fs_cpu_features() & ~fs_cpu_detected(), 0);
}

static const fs_test hash_tests[] = {
    { "many (plain, strided, prefixed, padded): lengths x lane counts vs OpenSSL", test_many },
    { "F, H, prefixed: every lane count", test_f_h },
    { "PRF midstate, PRF_keygen", test_prf },
    { "H_msg short and long", test_hmsg },
    { "RAND_HASH, in place", test_rand_hash },
    { "chain walk of mixed lengths", test_chains },
    { "bad input", test_bad_input },
    { "FASTSIG_CPU names", test_cpu_names },
    { NULL, NULL },
};

int main(void)
{
    const fs_suite suites[] = { { "hash engine", hash_tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
