/* test_xmss_core.c - XMSS and XMSS^MT: every vector file (pk, sk, sig_idx0,
 * sig_idx1, sig_idxlast, with the cache and on demand), round trips for all
 * 77 sets, in-order signing across subtree and tree boundaries compared
 * byte for byte with on-demand signing, cache bytes, bad inputs.
 *
 * Reduced work (also in the README, Tests): sets
 * whose key generation would build more than MAX_LEAVES leaves run with
 * xmss_params_reduced (layer trees of height REDUCED_H, same hash, n, w, d,
 * oid), and tall layer trees use xmss_test_set_bottom_h so the top/bottom
 * split runs on small trees. FASTSIG_SOAK=1 runs the real h = 16 and
 * h/d = 10 sets and XMSS-SHA2_20_256 in full. */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "testutil.h"
#include "xmss_vec.h"
#include "fastsig_err.h"
#include "xmss/xmss.h"
#include "xmss_hooks.h"

#define MAX_LEAVES 128
#define REDUCED_H 3

static int soak(void)
{
    const char *s = getenv("FASTSIG_SOAK");
    return s != NULL && *s && strcmp(s, "0") != 0;
}

static const uint8_t msg_abc[3] = { 'a', 'b', 'c' };

/* ---- vectors -------------------------------------------------------------- */

typedef struct {
    uint64_t calls, last, total;
} progress_rec;

static int on_progress(void *arg, uint64_t done, uint64_t total)
{
    progress_rec *r = arg;
    CU_ASSERT(done >= r->last);
    r->calls++;
    r->last = done;
    r->total = total;
    return 0;
}

static void check_sig(const xmss_vec *v, xmss_key *k, const uint8_t *pk, const char *which)
{
    const xmss_params *p = xmss_key_params(k);
    char key[64];
    snprintf(key, sizeof(key), "%s_index", which);
    uint64_t idx = strtoull(xmss_vec_get(v, key), NULL, 10);
    size_t len;
    uint8_t *want = xmss_vec_bytes(v, which, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    CU_ASSERT_EQUAL_FATAL(len, xmss_sig_bytes(p));
    uint8_t *sig = malloc(len);
    CU_ASSERT_EQUAL(xmss_sign(k, idx, msg_abc, 3, sig, len), FASTSIG_OK);
    if (memcmp(sig, want, len) != 0) {
        fprintf(stderr, "%s %s differs\n", p->name, which);
        CU_FAIL("signature differs from the vector");
    }
    CU_ASSERT_EQUAL(xmss_verify(p->kind, pk, xmss_pk_bytes(p), msg_abc, 3, want, len), FASTSIG_OK);
    free(sig);
    free(want);
}

static void run_vector_file(const char *file)
{
    xmss_vec *v = xmss_vec_load(file);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const xmss_params *p = xmss_params_by_name(xmss_vec_get(v, "name"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->oid, strtoul(xmss_vec_get(v, "oid"), NULL, 16));
    CU_ASSERT_EQUAL(xmss_sig_bytes(p), strtoul(xmss_vec_get(v, "sig_bytes"), NULL, 10));
    CU_ASSERT_EQUAL(p->idx_bytes, strtoul(xmss_vec_get(v, "index_bytes"), NULL, 10));
    size_t seedlen, pklen, sklen, sk1len;
    uint8_t *seed = xmss_vec_bytes(v, "seed", &seedlen);
    uint8_t *pk = xmss_vec_bytes(v, "pk", &pklen);
    uint8_t *sk = xmss_vec_bytes(v, "sk_at_idx0", &sklen);
    uint8_t *sk1 = xmss_vec_bytes(v, "sk_after_first_sign", &sk1len);
    CU_ASSERT_FATAL(seed && pk && sk && sk1);
    xmss_key *k = NULL;
    progress_rec pr = { 0, 0, 0 };
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, seedlen, 2, on_progress, &pr, &k), FASTSIG_OK);
    CU_ASSERT(pr.calls > 0);
    CU_ASSERT_EQUAL(pr.last, pr.total);
    uint8_t got[4 + 8 + 4 * XMSS_MAX_N];
    CU_ASSERT_EQUAL(xmss_key_export_pk(k, got, pklen), FASTSIG_OK);
    CU_ASSERT(memcmp(got, pk, pklen) == 0);
    CU_ASSERT_EQUAL(xmss_key_export_sk(k, 0, got, sklen), FASTSIG_OK);
    CU_ASSERT(memcmp(got, sk, sklen) == 0);
    CU_ASSERT_EQUAL(xmss_key_export_sk(k, 1, got, sk1len), FASTSIG_OK);
    CU_ASSERT(memcmp(got, sk1, sk1len) == 0);
    check_sig(v, k, pk, "sig_idx0");
    check_sig(v, k, pk, "sig_idx1");
    check_sig(v, k, pk, "sig_idxlast");
    xmss_key_free(k);
    if (p->family == XMSS_SHA2_256 && (p->d == 1 || p->tree_h == 5)) { /* 1 thread: same key */
        CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, seedlen, 1, NULL, NULL, &k), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_key_export_pk(k, got, pklen), FASTSIG_OK);
        CU_ASSERT(memcmp(got, pk, pklen) == 0);
        xmss_key_free(k);
    }
    /* the same from the sk bytes alone, every tree on demand (XMSS: the
     * n <= 32 SHA-2 files by default, all under FASTSIG_SOAK) */
    if (p->kind == XMSS_KIND_XMSS && p->family != XMSS_SHA2_256 && p->family != XMSS_SHA2_192 &&
        !soak())
        goto out;
    uint64_t idx = 99;
    CU_ASSERT_EQUAL_FATAL(xmss_key_from_sk(p->kind, sk, sklen, &idx, &k), FASTSIG_OK);
    CU_ASSERT_EQUAL(idx, 0);
    check_sig(v, k, pk, "sig_idxlast");
    check_sig(v, k, pk, "sig_idx1");
    xmss_key_free(k);
out:
    free(seed);
    free(pk);
    free(sk);
    free(sk1);
    xmss_vec_free(v);
}

#define VEC_TEST(fn, file)                                                     \
    static void fn(void) { run_vector_file(file); }
VEC_TEST(v_sha2_10_256, "XMSS-SHA2_10_256.txt")
VEC_TEST(v_sha2_10_192, "XMSS-SHA2_10_192.txt")
VEC_TEST(v_sha2_10_512, "XMSS-SHA2_10_512.txt")
VEC_TEST(v_shake_10_256, "XMSS-SHAKE_10_256.txt")
VEC_TEST(v_shake_10_512, "XMSS-SHAKE_10_512.txt")
VEC_TEST(v_shake256_10_256, "XMSS-SHAKE256_10_256.txt")
VEC_TEST(v_shake256_10_192, "XMSS-SHAKE256_10_192.txt")
VEC_TEST(v_mt_sha2_20_2_256, "XMSSMT-SHA2_20-2_256.txt")
VEC_TEST(v_mt_sha2_20_4_256, "XMSSMT-SHA2_20-4_256.txt")
VEC_TEST(v_mt_sha2_20_4_192, "XMSSMT-SHA2_20-4_192.txt")
VEC_TEST(v_mt_sha2_40_8_256, "XMSSMT-SHA2_40-8_256.txt")
VEC_TEST(v_mt_sha2_60_12_256, "XMSSMT-SHA2_60-12_256.txt")
VEC_TEST(v_mt_shake_20_4_256, "XMSSMT-SHAKE_20-4_256.txt")
VEC_TEST(v_mt_shake256_20_4_256, "XMSSMT-SHAKE256_20-4_256.txt")
VEC_TEST(v_mt_shake256_20_4_192, "XMSSMT-SHAKE256_20-4_192.txt")

/* ---- round trips ---------------------------------------------------------- */

/* A signature at idx verifies; every damaged form of it does not. */
static void sign_and_attack(xmss_key *k, uint64_t idx)
{
    const xmss_params *p = xmss_key_params(k);
    size_t len = xmss_sig_bytes(p), pkl = xmss_pk_bytes(p);
    uint8_t pk[4 + 2 * XMSS_MAX_N], msg[40];
    fs_test_random(msg, sizeof(msg));
    uint8_t *sig = malloc(len + 1);
    CU_ASSERT_EQUAL_FATAL(xmss_key_export_pk(k, pk, pkl), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(xmss_sign(k, idx, msg, sizeof(msg), sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(fs_load_be(sig, p->idx_bytes), idx);
    CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg) - 1, sig, len), FASTSIG_ERR_VERIFY);
    CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len - 1),
                    FASTSIG_ERR_BAD_SIGNATURE);
    sig[len] = 0;
    CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len + 1),
                    FASTSIG_ERR_BAD_SIGNATURE);
    /* one flipped bit in: index, R, the WOTS+ part and auth path of the
     * bottom layer, the top layer and one layer between */
    size_t spots[8], ns = 0;
    spots[ns++] = p->idx_bytes - 1;
    spots[ns++] = p->idx_bytes + fs_test_rand64() % p->n;
    size_t ws = xmss_wots_sig_bytes(p), per = ws + (size_t)p->tree_h * p->n;
    unsigned layers[3] = { 0, p->d - 1, (unsigned)(fs_test_rand64() % p->d) };
    for (unsigned i = 0; i < 3 && (i == 0 || p->d > i); i++) {
        size_t off = p->idx_bytes + p->n + layers[i] * per;
        spots[ns++] = off + fs_test_rand64() % ws;
        spots[ns++] = off + ws + fs_test_rand64() % ((size_t)p->tree_h * p->n);
    }
    for (size_t i = 0; i < ns; i++) {
        sig[spots[i]] ^= 0x10;
        int rc = xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len);
        CU_ASSERT(rc == FASTSIG_ERR_VERIFY || rc == FASTSIG_ERR_BAD_SIGNATURE);
        sig[spots[i]] ^= 0x10;
    }
    pk[4] ^= 1; /* another root */
    CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len), FASTSIG_ERR_VERIFY);
    free(sig);
}

/* The row a test runs for p: p itself when cheap, else the reduced form. */
static int test_row(const xmss_params *p, xmss_params *out, int full)
{
    uint64_t leaves = (uint64_t)1 << p->tree_h;
    if (p->tree_h <= XMSS_BOTTOM_H)
        leaves *= p->d;
    if (p->n == 64)
        leaves *= 4; /* a leaf costs about four n = 32 leaves */
    if (full || leaves <= MAX_LEAVES) {
        *out = *p;
        return 0;
    }
    CU_ASSERT_EQUAL(xmss_params_reduced(p, REDUCED_H, out), FASTSIG_OK);
    if (p->tree_h > XMSS_BOTTOM_H)
        xmss_test_set_bottom_h(2); /* keep the top/bottom split */
    return 1;
}

static void round_trip(const xmss_params *p, int full)
{
    xmss_params row;
    test_row(p, &row, full);
    uint8_t seed[3 * XMSS_MAX_N];
    fs_test_random(seed, sizeof(seed));
    xmss_key *k = NULL;
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(&row, seed, 3u * row.n, 2, NULL, NULL, &k), FASTSIG_OK);
    xmss_test_set_bottom_h(0);
    uint64_t last = xmss_last_index(&row);
    sign_and_attack(k, 0);
    sign_and_attack(k, last);
    sign_and_attack(k, fs_test_rand64() & last);
    uint8_t sig[1];
    CU_ASSERT_EQUAL(xmss_sign(k, last + 1, msg_abc, 3, sig, 1), FASTSIG_ERR_BAD_LENGTH);
    size_t len = xmss_sig_bytes(&row);
    uint8_t *s = malloc(len);
    if (row.h < 64)
        CU_ASSERT_EQUAL(xmss_sign(k, last + 1, msg_abc, 3, s, len), FASTSIG_ERR_KEY_EXHAUSTED);
    free(s);
    xmss_key_free(k);
}

/* A shard's range: indices outside it are refused before anything is
 * signed; one starting mid-subtree signs (and verifies) from its first
 * index; the range only shrinks. */
static void test_range(void)
{
    const xmss_params *p = xmss_params_by_name("XMSSMT-SHA2_20/4_256");
    uint8_t seed[3 * XMSS_MAX_N], sig1;
    xmss_key *k = NULL;
    size_t len = xmss_sig_bytes(p);
    uint8_t *s = malloc(len);

    fs_test_random(seed, sizeof(seed));
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 3u * p->n, 2, NULL, NULL, &k), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_key_set_range(k, 37, 100), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_sign(k, 36, msg_abc, 3, s, len), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_EQUAL(xmss_sign(k, 100, msg_abc, 3, s, len), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_EQUAL(xmss_sign(k, 0, msg_abc, 3, s, len), FASTSIG_ERR_KEY_EXHAUSTED);
    sign_and_attack(k, 37);
    sign_and_attack(k, 99);
    CU_ASSERT_EQUAL(xmss_sign(k, 1, &sig1, 0, &sig1, 1), FASTSIG_ERR_BAD_LENGTH);
    /* never widened, never empty */
    CU_ASSERT_EQUAL(xmss_key_set_range(k, 30, 100), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(xmss_key_set_range(k, 37, 101), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(xmss_key_set_range(k, 50, 50), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(xmss_key_set_range(k, 50, 60), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_sign(k, 40, msg_abc, 3, s, len), FASTSIG_ERR_KEY_EXHAUSTED);
    sign_and_attack(k, 59);
    free(s);
    xmss_key_free(k);
}

static void test_round_trips_xmss(void)
{
    for (size_t i = 0; i < xmss_params_count(); i++)
        if (xmss_params_at(i)->kind == XMSS_KIND_XMSS)
            round_trip(xmss_params_at(i), 0);
}

static void test_round_trips_mt(void)
{
    for (size_t i = 0; i < xmss_params_count(); i++)
        if (xmss_params_at(i)->kind == XMSS_KIND_XMSSMT)
            round_trip(xmss_params_at(i), 0);
}

/* FASTSIG_SOAK: real heights (h = 16, h/d = 10) and one h = 20 set. */
static void test_soak_full(void)
{
    if (!soak())
        return;
    for (size_t i = 0; i < xmss_params_count(); i++) {
        const xmss_params *p = xmss_params_at(i);
        if (p->kind != XMSS_KIND_WOTSP && p->tree_h <= 16) {
            fprintf(stderr, "  soak: %s\n", p->name);
            round_trip(p, 1);
        }
    }
    fprintf(stderr, "  soak: XMSS-SHA2_20_256\n");
    round_trip(xmss_params_by_name("XMSS-SHA2_20_256"), 1);
}

/* ---- in-order signing against on-demand signing ----------------------------- */

/* Signs the indices of each range [from, to] of a (reduced) key in order
 * with the amortized cache (ranges == NULL: all of them), verifies each and
 * compares a sample with a key that has no cache. */
static void in_order(const char *name, unsigned tree_h, unsigned bottom, const uint64_t *ranges,
                     size_t nranges)
{
    const xmss_params *p0 = xmss_params_by_name(name);
    xmss_params p;
    CU_ASSERT_EQUAL_FATAL(xmss_params_reduced(p0, tree_h, &p), FASTSIG_OK);
    xmss_test_set_bottom_h(bottom);
    uint8_t seed[3 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N], sk[4 + 8 + 4 * XMSS_MAX_N];
    fs_test_random(seed, sizeof(seed));
    xmss_key *k = NULL, *fresh = NULL;
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 3u * p.n, 1, NULL, NULL, &k), FASTSIG_OK);
    xmss_test_set_bottom_h(0);
    size_t len = xmss_sig_bytes(&p), pkl = xmss_pk_bytes(&p);
    CU_ASSERT_EQUAL(xmss_key_export_pk(k, pk, pkl), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_key_export_sk(k, 0, sk, xmss_sk_bytes(&p)), FASTSIG_OK);
    uint8_t *a = malloc(len), *b = malloc(len);
    uint64_t all[2] = { 0, xmss_last_index(&p) };
    if (ranges == NULL) {
        ranges = all;
        nranges = 1;
    }
    uint64_t built = xmss_key_ondemand(k);
    for (size_t r = 0; r < nranges; r++)
    for (uint64_t i = ranges[2 * r]; i <= ranges[2 * r + 1]; i++) {
        CU_ASSERT_EQUAL_FATAL(xmss_sign(k, i, msg_abc, 3, a, len), FASTSIG_OK);
        if (i == ranges[2 * r])
            built = xmss_key_ondemand(k); /* a jump may build */
        else if (xmss_key_ondemand(k) != built) /* in order: all prepared ahead */
            CU_FAIL("in-order signing computed a subtree on demand");
        CU_ASSERT_EQUAL(xmss_verify_p(&p, pk, pkl, msg_abc, 3, a, len), FASTSIG_OK);
        if (i % 13 == 3 || i == ranges[2 * r + 1]) {
            /* a key built from the sk bytes with the reduced row */
            xmss_key_free(fresh);
            xmss_test_set_bottom_h(bottom);
            CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 3u * p.n, 1, NULL, NULL, &fresh),
                                  FASTSIG_OK);
            xmss_test_set_bottom_h(0);
            CU_ASSERT_EQUAL(xmss_sign(fresh, i, msg_abc, 3, b, len), FASTSIG_OK);
            CU_ASSERT(memcmp(a, b, len) == 0);
        }
    }
    xmss_key_free(fresh);
    xmss_key_free(k);
    free(a);
    free(b);
}

static void test_in_order_xmss_split(void)
{
    in_order("XMSS-SHA2_16_256", 6, 2, NULL, 0); /* top/bottom split, next bottom ahead */
}

static void test_in_order_mt(void)
{
    /* 4 layers of height 2: every index */
    in_order("XMSSMT-SHA2_20/4_256", 2, 0, NULL, 0);
    /* 12 layers of height 1: the start, around the middle, the end */
    static const uint64_t r12[] = { 0, 40, 2048 - 20, 2048 + 20, 4095 - 20, 4095 };
    in_order("XMSSMT-SHAKE256_60/12_192", 1, 0, r12, 3);
}

static void test_in_order_mt_split(void)
{
    in_order("XMSSMT-SHA2_40/2_256", 4, 2, NULL, 0); /* tall layer trees, split */
}

/* Indices around 2^32 on a real h = 60 key: no 32-bit truncation. */
static void test_index_2_32(void)
{
    const xmss_params *p = xmss_params_by_name("XMSSMT-SHA2_60/12_256");
    uint8_t seed[96];
    fs_test_random(seed, sizeof(seed));
    xmss_key *k = NULL;
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 96, 2, NULL, NULL, &k), FASTSIG_OK);
    sign_and_attack(k, ((uint64_t)1 << 32) - 1);
    sign_and_attack(k, (uint64_t)1 << 32);
    sign_and_attack(k, ((uint64_t)1 << 32) + 1);
    xmss_key_free(k);
}

/* ---- cache bytes ---------------------------------------------------------- */

/* Signs `first` indices, exports the cache, and checks that a key object
 * made from the sk bytes alone and given those cache bytes signs the next
 * `more` indices identically without computing anything on demand. */
static void cache_case(const char *name, unsigned tree_h, unsigned bottom, uint64_t first,
                       uint64_t more)
{
    const xmss_params *p0 = xmss_params_by_name(name);
    xmss_params p;
    CU_ASSERT_EQUAL_FATAL(xmss_params_reduced(p0, tree_h, &p), FASTSIG_OK);
    uint8_t seed[96], sk[4 + 8 + 128];
    fs_test_random(seed, sizeof(seed));
    xmss_key *k = NULL, *k2 = NULL, *other = NULL;
    xmss_test_set_bottom_h(bottom);
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 96, 1, NULL, NULL, &k), FASTSIG_OK);
    size_t len = xmss_sig_bytes(&p);
    uint8_t *a = malloc(len), *b = malloc(len);
    for (uint64_t i = 0; i < first; i++)
        CU_ASSERT_EQUAL(xmss_sign(k, i, msg_abc, 3, a, len), FASTSIG_OK);
    uint8_t *c = NULL;
    size_t clen = 0;
    CU_ASSERT_EQUAL_FATAL(xmss_cache_export(k, &c, &clen), FASTSIG_OK);
    /* a new key object from the sk bytes picks the cache up */
    uint64_t idx = 0;
    CU_ASSERT_EQUAL(xmss_key_export_sk(k, first, sk, xmss_sk_bytes(&p)), FASTSIG_OK);
    if (p.h == p0->h) {
        CU_ASSERT_EQUAL_FATAL(xmss_key_from_sk(p0->kind, sk, xmss_sk_bytes(&p), &idx, &k2),
                              FASTSIG_OK);
        CU_ASSERT_EQUAL(idx, first);
    } else { /* a reduced row has no oid of its own: rebuild from the seeds */
        CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 96, 1, NULL, NULL, &k2), FASTSIG_OK);
    }
    xmss_test_set_bottom_h(0);
    CU_ASSERT_EQUAL(xmss_cache_import(k2, c, clen), FASTSIG_OK);
    uint64_t built = xmss_key_ondemand(k2);
    for (uint64_t i = first; i < first + more; i++) {
        CU_ASSERT_EQUAL(xmss_sign(k, i, msg_abc, 3, a, len), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_sign(k2, i, msg_abc, 3, b, len), FASTSIG_OK);
        CU_ASSERT(memcmp(a, b, len) == 0);
    }
    CU_ASSERT_EQUAL(xmss_key_ondemand(k2), built);
    /* edited, truncated, extended, another key's: refused */
    c[clen / 2] ^= 1;
    CU_ASSERT_EQUAL(xmss_cache_import(k2, c, clen), FASTSIG_ERR_BAD_PARAM);
    c[clen / 2] ^= 1;
    CU_ASSERT_EQUAL(xmss_cache_import(k2, c, clen - 1), FASTSIG_ERR_BAD_PARAM);
    uint8_t *ext = malloc(clen + 1);
    memcpy(ext, c, clen);
    ext[clen] = 0;
    CU_ASSERT_EQUAL(xmss_cache_import(k2, ext, clen + 1), FASTSIG_ERR_BAD_PARAM);
    free(ext);
    seed[0] ^= 1;
    xmss_test_set_bottom_h(bottom);
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 96, 1, NULL, NULL, &other), FASTSIG_OK);
    xmss_test_set_bottom_h(0);
    CU_ASSERT_EQUAL(xmss_cache_import(other, c, clen), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(xmss_cache_import(k2, c, clen), FASTSIG_OK);
    free(c);
    free(a);
    free(b);
    xmss_key_free(k);
    xmss_key_free(k2);
    xmss_key_free(other);
}

static void test_cache_bytes(void)
{
    cache_case("XMSSMT-SHA2_20/4_256", 3, 0, 21, 19);
    cache_case("XMSSMT-SHA2_40/2_256", 4, 2, 21, 30); /* split layers, next top */
    cache_case("XMSS-SHA2_10_256", 10, 0, 3, 2);      /* a real row, from sk bytes */
}

/* ---- bad input ------------------------------------------------------------ */

static void test_bad_input(void)
{
    const xmss_params *p = xmss_params_by_name("XMSSMT-SHA2_20/4_256");
    uint8_t seed[96] = { 0 }, pk[68], sk[4 + 3 + 128], sig[8];
    xmss_key *k = NULL;
    uint64_t idx;
    CU_ASSERT_EQUAL(xmss_keygen(p, seed, 95, 1, NULL, NULL, &k), FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_EQUAL(xmss_keygen(p, NULL, 96, 1, NULL, NULL, &k), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(xmss_keygen(xmss_params_by_name("WOTSP-SHA2_256"), seed, 96, 1, NULL, NULL,
                               &k), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 96, 1, NULL, NULL, &k), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_key_export_pk(k, pk, 67), FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_EQUAL(xmss_key_export_sk(k, 0, sk, sizeof(sk) + 0 - 1), FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_EQUAL(xmss_key_export_pk(k, pk, 68), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_key_export_sk(k, 5, sk, sizeof(sk)), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_sign(k, 0, msg_abc, 3, sig, sizeof(sig)), FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_EQUAL(xmss_sign(k, 0, NULL, 3, sig, sizeof(sig)), FASTSIG_ERR_NULL_ARG);
    xmss_key_free(k);
    /* sk: wrong kind, length, oid, index */
    CU_ASSERT_EQUAL(xmss_key_from_sk(XMSS_KIND_XMSSMT, sk, sizeof(sk) - 1, &idx, &k),
                    FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_EQUAL(xmss_key_from_sk(XMSS_KIND_XMSS, sk, sizeof(sk), &idx, &k),
                    FASTSIG_ERR_BAD_LENGTH); /* oid 2 is XMSS-SHA2_16_256: 140 bytes */
    CU_ASSERT_EQUAL(xmss_key_from_sk(XMSS_KIND_WOTSP, sk, sizeof(sk), &idx, &k),
                    FASTSIG_ERR_BAD_KEY);
    CU_ASSERT_EQUAL_FATAL(xmss_key_from_sk(XMSS_KIND_XMSSMT, sk, sizeof(sk), &idx, &k), FASTSIG_OK);
    CU_ASSERT_EQUAL(idx, 5);
    xmss_key_free(k);
    sk[3] = 0x7f;
    CU_ASSERT_EQUAL(xmss_key_from_sk(XMSS_KIND_XMSSMT, sk, sizeof(sk), &idx, &k), FASTSIG_ERR_BAD_KEY);
    sk[3] = 2;
    sk[4] = 0x20; /* index 2^21 > 2^20 */
    CU_ASSERT_EQUAL(xmss_key_from_sk(XMSS_KIND_XMSSMT, sk, sizeof(sk), &idx, &k), FASTSIG_ERR_BAD_KEY);
    /* pk: wrong length, unknown oid; signature of an impossible index */
    uint8_t *s = calloc(1, xmss_sig_bytes(p));
    CU_ASSERT_EQUAL(xmss_verify(XMSS_KIND_XMSSMT, pk, 67, msg_abc, 3, s, xmss_sig_bytes(p)),
                    FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_EQUAL(xmss_verify(XMSS_KIND_XMSSMT, pk, 3, msg_abc, 3, s, xmss_sig_bytes(p)),
                    FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_EQUAL(xmss_verify(XMSS_KIND_XMSSMT, pk, 68, msg_abc, 3, s, xmss_sig_bytes(p)),
                    FASTSIG_ERR_VERIFY);
    s[0] = 0xff; /* index >= 2^20 in a 3-byte field */
    CU_ASSERT_EQUAL(xmss_verify(XMSS_KIND_XMSSMT, pk, 68, msg_abc, 3, s, xmss_sig_bytes(p)),
                    FASTSIG_ERR_BAD_SIGNATURE);
    pk[3] = 0x77;
    CU_ASSERT_EQUAL(xmss_verify(XMSS_KIND_XMSSMT, pk, 68, msg_abc, 3, s, xmss_sig_bytes(p)),
                    FASTSIG_ERR_BAD_KEY);
    CU_ASSERT_EQUAL(xmss_verify(XMSS_KIND_XMSSMT, NULL, 68, msg_abc, 3, s, xmss_sig_bytes(p)),
                    FASTSIG_ERR_NULL_ARG);
    free(s);
    xmss_params bad;
    CU_ASSERT_EQUAL(xmss_params_reduced(p, 0, &bad), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(xmss_params_reduced(p, 6, &bad), FASTSIG_ERR_BAD_PARAM);
}

static int stop_at_half(void *arg, uint64_t done, uint64_t total)
{
    (void)arg;
    return done * 2 >= total;
}

static void test_progress_stop(void)
{
    uint8_t seed[96] = { 0 };
    xmss_key *k = NULL;
    CU_ASSERT_NOT_EQUAL(xmss_keygen(xmss_params_by_name("XMSS-SHA2_10_256"), seed, 96, 2,
                                   stop_at_half, NULL, &k), FASTSIG_OK);
    CU_ASSERT_PTR_NULL(k);
}

/* Any thread count (clamped to 1 .. XMSS_MAX_THREADS, at most one per 16
 * leaves) builds the same key, progress included (called on the caller's
 * thread up to the total); an XMSS row reduced to 2^7 leaves keeps it cheap
 * on the portable path. */
static void test_threads_same_key(void)
{
    static const unsigned counts[] = { 1, 2, 3, 5, 8, 64, 0, 1000 };
    xmss_params p;
    uint8_t seed[96], pk0[68], pk[68];
    CU_ASSERT_EQUAL_FATAL(xmss_params_reduced(xmss_params_by_name("XMSS-SHA2_10_256"), 7, &p),
                          FASTSIG_OK);
    for (int i = 0; i < 96; i++)
        seed[i] = (uint8_t)(3 * i + 1);
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        xmss_key *k = NULL;
        progress_rec r = { 0, 0, 0 };
        CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 96, counts[i], on_progress, &r, &k), FASTSIG_OK);
        CU_ASSERT(r.calls > 0 && r.last == 128 && r.total == 128);
        CU_ASSERT_EQUAL(xmss_key_export_pk(k, i == 0 ? pk0 : pk, 68), FASTSIG_OK);
        if (i > 0)
            CU_ASSERT(memcmp(pk, pk0, 68) == 0);
        xmss_key_free(k);
    }
}

/* The cache change counter: still while signing inside an XMSS tree the
 * cache keeps whole, moving when XMSS^MT signing prepares ahead and when
 * cache bytes are imported. */
static void test_cache_changes(void)
{
    uint8_t seed[96] = { 7 }, *c = NULL, sig[20000];
    size_t clen = 0;
    xmss_key *k = NULL;
    xmss_params r;
    const xmss_params *p = &r;
    CU_ASSERT_EQUAL_FATAL(xmss_params_reduced(xmss_params_by_name("XMSS-SHA2_10_256"), 7, &r),
                          FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 96, 2, NULL, NULL, &k), FASTSIG_OK);
    uint64_t c0 = xmss_cache_changes(k);
    CU_ASSERT(c0 > 0);
    for (uint64_t i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(xmss_sign(k, i * 25, msg_abc, 3, sig, xmss_sig_bytes(p)), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_cache_changes(k), c0);
    CU_ASSERT_EQUAL_FATAL(xmss_cache_export(k, &c, &clen), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_cache_import(k, c, clen), FASTSIG_OK);
    CU_ASSERT(xmss_cache_changes(k) != c0);
    free(c);
    xmss_key_free(k);
    p = xmss_params_by_name("XMSSMT-SHA2_20/4_256");
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 96, 2, NULL, NULL, &k), FASTSIG_OK);
    c0 = xmss_cache_changes(k);
    CU_ASSERT_EQUAL(xmss_sign(k, 0, msg_abc, 3, sig, xmss_sig_bytes(p)), FASTSIG_OK);
    CU_ASSERT(xmss_cache_changes(k) != c0);
    xmss_key_free(k);
}

int main(void)
{
    static const fs_test vec[] = {
        { "XMSS-SHA2_10_256", v_sha2_10_256 },
        { "XMSS-SHA2_10_192", v_sha2_10_192 },
        { "XMSS-SHA2_10_512", v_sha2_10_512 },
        { "XMSS-SHAKE_10_256", v_shake_10_256 },
        { "XMSS-SHAKE_10_512", v_shake_10_512 },
        { "XMSS-SHAKE256_10_256", v_shake256_10_256 },
        { "XMSS-SHAKE256_10_192", v_shake256_10_192 },
        { "XMSSMT-SHA2_20/2_256", v_mt_sha2_20_2_256 },
        { "XMSSMT-SHA2_20/4_256", v_mt_sha2_20_4_256 },
        { "XMSSMT-SHA2_20/4_192", v_mt_sha2_20_4_192 },
        { "XMSSMT-SHA2_40/8_256", v_mt_sha2_40_8_256 },
        { "XMSSMT-SHA2_60/12_256", v_mt_sha2_60_12_256 },
        { "XMSSMT-SHAKE_20/4_256", v_mt_shake_20_4_256 },
        { "XMSSMT-SHAKE256_20/4_256", v_mt_shake256_20_4_256 },
        { "XMSSMT-SHAKE256_20/4_192", v_mt_shake256_20_4_192 },
        { NULL, NULL },
    };
    static const fs_test rt[] = {
        { "round trips, all 21 XMSS sets", test_round_trips_xmss },
        { "round trips, all 56 XMSS^MT sets", test_round_trips_mt },
        { "in order = on demand: XMSS top/bottom split", test_in_order_xmss_split },
        { "in order = on demand: XMSS^MT boundaries", test_in_order_mt },
        { "in order = on demand: XMSS^MT tall layers", test_in_order_mt_split },
        { "indices around 2^32 (h = 60)", test_index_2_32 },
        { "a shard's range: outside refused, mid-subtree start", test_range },
        { "soak: full heights (FASTSIG_SOAK=1)", test_soak_full },
        { NULL, NULL },
    };
    static const fs_test misc[] = {
        { "cache bytes export/import", test_cache_bytes },
        { "bad lengths, keys, indices", test_bad_input },
        { "progress callback stops key generation", test_progress_stop },
        { "key generation on 1 .. 64 threads: one key", test_threads_same_key },
        { "cache change counter", test_cache_changes },
        { NULL, NULL },
    };
    static const fs_suite suites[] = {
        { "XMSS / XMSS^MT vectors", vec },
        { "XMSS / XMSS^MT round trips", rt },
        { "XMSS / XMSS^MT keys and cache", misc },
        { NULL, NULL },
    };
    return fs_cu_main(suites);
}
