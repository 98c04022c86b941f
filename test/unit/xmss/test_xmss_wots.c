/* test_xmss_wots.c - the parameter table and WOTS+: vector, base-w and
 * checksum, round trips for every standalone set, tampering. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "xmss_vec.h"
#include "fastsig_err.h"
#include "xmss/params.h"
#include "xmss/tree.h"
#include "xmss/wots_chain.h"
#include "xmss/wotsp_scheme.h"

/* ---- parameter table ------------------------------------------------------ */

static void test_table_counts(void)
{
    size_t xmss = 0, mt = 0, wots = 0;
    for (size_t i = 0; i < xmss_params_count(); i++) {
        const xmss_params *p = xmss_params_at(i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        xmss += p->kind == XMSS_KIND_XMSS;
        mt += p->kind == XMSS_KIND_XMSSMT;
        wots += p->kind == XMSS_KIND_WOTSP;
        CU_ASSERT(p->len <= XMSS_MAX_LEN);
        CU_ASSERT(p->n <= XMSS_MAX_N);
        CU_ASSERT_PTR_EQUAL(xmss_params_by_name(p->name), p);
        CU_ASSERT_PTR_EQUAL(xmss_params_by_oid(p->kind, p->oid), p);
        if (p->kind != XMSS_KIND_WOTSP) {
            CU_ASSERT_EQUAL(p->tree_h * p->d, p->h);
            CU_ASSERT_EQUAL(p->w, 16);
        }
    }
    CU_ASSERT_EQUAL(xmss, 21);
    CU_ASSERT_EQUAL(mt, 56);
    CU_ASSERT_EQUAL(wots, 21);
    CU_ASSERT_PTR_NULL(xmss_params_at(xmss_params_count()));
    CU_ASSERT_PTR_NULL(xmss_params_by_name("XMSS-SHA2_12_256"));
    CU_ASSERT_PTR_NULL(xmss_params_by_name(NULL));
    CU_ASSERT_PTR_NULL(xmss_params_by_oid(XMSS_KIND_XMSS, 0));
    CU_ASSERT_PTR_NULL(xmss_params_by_oid(XMSS_KIND_XMSS, 22));
    CU_ASSERT_PTR_NULL(xmss_params_by_oid(XMSS_KIND_XMSSMT, 57));
}

/* Rows checked by hand against RFC 8391 / SP 800-208 tables. */
static void test_table_rows(void)
{
    static const struct {
        const char *name;
        int kind;
        uint32_t oid;
        unsigned n, len, h, d, idx_bytes, pad;
        size_t sig;
    } want[] = {
        { "XMSS-SHA2_10_256", XMSS_KIND_XMSS, 1, 32, 67, 10, 1, 4, 32, 2500 },
        { "XMSS-SHA2_20_512", XMSS_KIND_XMSS, 6, 64, 131, 20, 1, 4, 64, 9732 },
        { "XMSS-SHAKE_16_256", XMSS_KIND_XMSS, 8, 32, 67, 16, 1, 4, 32, 2692 },
        { "XMSS-SHA2_10_192", XMSS_KIND_XMSS, 13, 24, 51, 10, 1, 4, 4, 1492 },
        { "XMSS-SHAKE256_20_192", XMSS_KIND_XMSS, 21, 24, 51, 20, 1, 4, 4, 1732 },
        { "XMSSMT-SHA2_20/2_256", XMSS_KIND_XMSSMT, 1, 32, 67, 20, 2, 3, 32, 4963 },
        { "XMSSMT-SHA2_60/12_256", XMSS_KIND_XMSSMT, 8, 32, 67, 60, 12, 8, 32, 27688 },
        { "XMSSMT-SHAKE_40/8_512", XMSS_KIND_XMSSMT, 29, 64, 131, 40, 8, 5, 64, 0 },
        { "XMSSMT-SHA2_20/4_192", XMSS_KIND_XMSSMT, 34, 24, 51, 20, 4, 3, 4, 0 },
        { "XMSSMT-SHAKE256_60/12_192", XMSS_KIND_XMSSMT, 56, 24, 51, 60, 12, 8, 4, 0 },
        { "WOTSP-SHA2_256", XMSS_KIND_WOTSP, 1, 32, 67, 0, 0, 0, 32, 0 },
        { "WOTSP-SHA2_256_W4", XMSS_KIND_WOTSP, 2, 32, 133, 0, 0, 0, 32, 0 },
        { "WOTSP-SHA2_256_W256", XMSS_KIND_WOTSP, 3, 32, 34, 0, 0, 0, 32, 0 },
        { "WOTSP-SHAKE256_192_W4", XMSS_KIND_WOTSP, 20, 24, 101, 0, 0, 0, 4, 0 },
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const xmss_params *p = xmss_params_by_name(want[i].name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_EQUAL(p->kind, want[i].kind);
        CU_ASSERT_EQUAL(p->oid, want[i].oid);
        CU_ASSERT_EQUAL(p->n, want[i].n);
        CU_ASSERT_EQUAL(p->len, want[i].len);
        CU_ASSERT_EQUAL(p->h, want[i].h);
        CU_ASSERT_EQUAL(p->d, want[i].d);
        CU_ASSERT_EQUAL(p->idx_bytes, want[i].idx_bytes);
        CU_ASSERT_EQUAL(p->pad_len, want[i].pad);
        if (want[i].sig)
            CU_ASSERT_EQUAL(xmss_sig_bytes(p), want[i].sig);
    }
    const xmss_params *p = xmss_params_by_name("XMSSMT-SHA2_60/3_256");
    CU_ASSERT_EQUAL(xmss_last_index(p), ((uint64_t)1 << 60) - 1);
    CU_ASSERT_EQUAL(xmss_pk_bytes(p), 68);
    CU_ASSERT_EQUAL(xmss_sk_bytes(p), 4 + 8 + 128);
}

/* ---- WOTS+ --------------------------------------------------------------- */

/* The digits the RFC 8391 algorithm 6 text gives, written plainly. */
static void digits_ref(const xmss_params *p, const uint8_t *msg, uint32_t *d)
{
    uint32_t csum = 0;
    for (unsigned i = 0; i < p->len1; i++) {
        unsigned bit = i * p->log_w;
        d[i] = (msg[bit / 8] >> (8 - p->log_w - bit % 8)) & (p->w - 1u);
        csum += p->w - 1u - d[i];
    }
    for (unsigned i = 0; i < p->len2; i++)
        d[p->len1 + i] = (csum >> (p->log_w * (p->len2 - 1 - i))) & (p->w - 1u);
}

static void test_digits(void)
{
    uint8_t msg[XMSS_MAX_N];
    uint32_t a[XMSS_MAX_LEN], b[XMSS_MAX_LEN];
    for (size_t i = 0; i < xmss_params_count(); i++) {
        const xmss_params *p = xmss_params_at(i);
        for (int r = 0; r < 20; r++) {
            fs_test_random(msg, p->n);
            if (r == 0)
                memset(msg, 0, p->n); /* largest checksum */
            if (r == 1)
                memset(msg, 0xff, p->n); /* checksum 0 */
            xmss_wots_digits(p, msg, a);
            digits_ref(p, msg, b);
            CU_ASSERT(memcmp(a, b, p->len * sizeof(uint32_t)) == 0);
        }
    }
}

static void test_vector(void)
{
    xmss_vec *v = xmss_vec_load("WOTSP-SHA2_256_w16.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    size_t l1, l2, l3, l4, l5;
    uint8_t *sk_seed = xmss_vec_bytes(v, "SK_SEED", &l1);
    uint8_t *pub_seed = xmss_vec_bytes(v, "PUB_SEED", &l2);
    uint8_t *dig = xmss_vec_bytes(v, "msg_digest", &l3);
    uint8_t *pk = xmss_vec_bytes(v, "wots_pk", &l4);
    uint8_t *sig = xmss_vec_bytes(v, "wots_sig", &l5);
    CU_ASSERT_FATAL(sk_seed && pub_seed && dig && pk && sig);
    const xmss_params *p = xmss_params_by_name("WOTSP-SHA2_256");
    CU_ASSERT_EQUAL_FATAL(l4, (size_t)p->len * p->n);
    CU_ASSERT_EQUAL_FATAL(l5, (size_t)p->len * p->n);
    xmss_ctx c;
    CU_ASSERT_EQUAL_FATAL(xmss_ctx_init(&c, p, pub_seed, sk_seed, NULL), FASTSIG_OK);
    xmss_adrs ots;
    xmss_adrs_init(&ots, 0, 0, XMSS_ADRS_OTS);
    xmss_adrs_set_ots(&ots, (uint32_t)strtoul(xmss_vec_get(v, "ots_index"), NULL, 10));
    uint8_t got[XMSS_MAX_LEN * XMSS_MAX_N];
    CU_ASSERT_EQUAL(xmss_wots_pkgen(&c, got, &ots, 1), FASTSIG_OK);
    CU_ASSERT(memcmp(got, pk, l4) == 0);
    CU_ASSERT_EQUAL(xmss_wots_sign(&c, got, dig, &ots), FASTSIG_OK);
    CU_ASSERT(memcmp(got, sig, l5) == 0);
    CU_ASSERT_EQUAL(xmss_wots_pk_from_sig(&c, got, sig, dig, &ots), FASTSIG_OK);
    CU_ASSERT(memcmp(got, pk, l4) == 0);
    xmss_ctx_clear(&c);
    free(sk_seed);
    free(pub_seed);
    free(dig);
    free(pk);
    free(sig);
    xmss_vec_free(v);
}

/* Every standalone set: sign, recover, tamper; several keys in one batch
 * equal the same keys one by one. */
static void test_round_trips(void)
{
    uint8_t seeds[2 * XMSS_MAX_N], dig[XMSS_MAX_N];
    uint8_t *pk = malloc(3 * XMSS_MAX_LEN * XMSS_MAX_N), *one = malloc(XMSS_MAX_LEN * XMSS_MAX_N);
    uint8_t sig[XMSS_MAX_LEN * XMSS_MAX_N], rec[XMSS_MAX_LEN * XMSS_MAX_N];
    for (size_t i = 0; i < xmss_params_count(); i++) {
        const xmss_params *p = xmss_params_at(i);
        if (p->kind != XMSS_KIND_WOTSP)
            continue;
        size_t pkb = (size_t)p->len * p->n;
        fs_test_random(seeds, sizeof(seeds));
        fs_test_random(dig, sizeof(dig));
        xmss_ctx c;
        CU_ASSERT_EQUAL_FATAL(xmss_ctx_init(&c, p, seeds, seeds + XMSS_MAX_N, NULL), FASTSIG_OK);
        xmss_adrs ots[3];
        for (int k = 0; k < 3; k++) {
            xmss_adrs_init(&ots[k], (uint32_t)k, 7u * k, XMSS_ADRS_OTS);
            xmss_adrs_set_ots(&ots[k], 100u + k);
        }
        CU_ASSERT_EQUAL(xmss_wots_pkgen(&c, pk, ots, 3), FASTSIG_OK);
        for (int k = 0; k < 3; k++) {
            CU_ASSERT_EQUAL(xmss_wots_pkgen(&c, one, &ots[k], 1), FASTSIG_OK);
            CU_ASSERT(memcmp(one, pk + k * pkb, pkb) == 0);
        }
        CU_ASSERT_EQUAL(xmss_wots_sign(&c, sig, dig, &ots[1]), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_wots_pk_from_sig(&c, rec, sig, dig, &ots[1]), FASTSIG_OK);
        CU_ASSERT(memcmp(rec, pk + pkb, pkb) == 0);
        sig[fs_test_rand64() % pkb] ^= 1; /* tampered signature */
        CU_ASSERT_EQUAL(xmss_wots_pk_from_sig(&c, rec, sig, dig, &ots[1]), FASTSIG_OK);
        CU_ASSERT(memcmp(rec, pk + pkb, pkb) != 0);
        CU_ASSERT_EQUAL(xmss_wots_sign(&c, sig, dig, &ots[1]), FASTSIG_OK);
        dig[0] ^= 0x80; /* another message */
        CU_ASSERT_EQUAL(xmss_wots_pk_from_sig(&c, rec, sig, dig, &ots[1]), FASTSIG_OK);
        CU_ASSERT(memcmp(rec, pk + pkb, pkb) != 0);
        dig[0] ^= 0x80; /* another key address */
        CU_ASSERT_EQUAL(xmss_wots_pk_from_sig(&c, rec, sig, dig, &ots[2]), FASTSIG_OK);
        CU_ASSERT(memcmp(rec, pk + pkb, pkb) != 0);
        xmss_ctx_clear(&c);
    }
    free(pk);
    free(one);
}

static void test_no_sk_seed(void)
{
    const xmss_params *p = xmss_params_by_name("WOTSP-SHA2_256");
    uint8_t seed[32] = { 1 }, dig[32] = { 2 }, sig[67 * 32];
    xmss_ctx c;
    CU_ASSERT_EQUAL_FATAL(xmss_ctx_init(&c, p, seed, NULL, NULL), FASTSIG_OK);
    xmss_adrs ots;
    xmss_adrs_init(&ots, 0, 0, XMSS_ADRS_OTS);
    CU_ASSERT_NOT_EQUAL(xmss_wots_sign(&c, sig, dig, &ots), FASTSIG_OK);
    xmss_ctx_clear(&c);
    xmss_params bad = *p;
    bad.family = XMSS_FAMILY_COUNT;
    CU_ASSERT_EQUAL(xmss_ctx_init(&c, &bad, seed, NULL, NULL), FASTSIG_ERR_UNSUPPORTED);
}

/* The one-time scheme of wotsp_scheme.h on every WOTSP row. */
static void test_wotsp_scheme(void)
{
    for (size_t i = 0; i < xmss_params_count(); i++) {
        const xmss_params *p = xmss_params_at(i);
        if (p->kind != XMSS_KIND_WOTSP)
            continue;
        size_t skl = xmss_sk_bytes(p), pkl = xmss_pk_bytes(p), sgl = xmss_sig_bytes(p);
        uint8_t seed[3 * XMSS_MAX_N], sk[4 + 4 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
        uint8_t pk2[4 + 2 * XMSS_MAX_N], msg[100];
        uint8_t *sig = malloc(sgl + 1);
        fs_test_random(seed, sizeof(seed));
        fs_test_random(msg, sizeof(msg));
        CU_ASSERT_EQUAL_FATAL(xmss_wotsp_keygen(p, seed, 3u * p->n, sk, skl, pk, pkl), FASTSIG_OK);
        CU_ASSERT_PTR_EQUAL(xmss_wotsp_params_of(pk, pkl), p);
        CU_ASSERT_EQUAL(xmss_wotsp_pk_from_sk(sk, skl, pk2, pkl), FASTSIG_OK);
        CU_ASSERT(memcmp(pk, pk2, pkl) == 0);
        CU_ASSERT_EQUAL(xmss_wotsp_sign(sk, skl, msg, sizeof(msg), sig, sgl), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, sizeof(msg), sig, sgl), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, 99, sig, sgl), FASTSIG_ERR_VERIFY);
        /* with the L-tree masks made once and kept: the same answers */
        xmss_wotsp_verify_cache vc = { NULL, NULL };
        for (int k = 0; k < 2; k++) {
            CU_ASSERT_EQUAL(xmss_wotsp_verify_cached(&vc, pk, pkl, msg, sizeof(msg), sig, sgl),
                            FASTSIG_OK);
            CU_ASSERT_PTR_NOT_NULL(vc.ltree_masks);
            CU_ASSERT_EQUAL(xmss_wotsp_verify_cached(&vc, pk, pkl, msg, 99, sig, sgl),
                            FASTSIG_ERR_VERIFY);
        }
        xmss_wotsp_verify_cache_clear(&vc);
        CU_ASSERT_PTR_NULL(vc.ltree_masks);
        CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, sizeof(msg), sig, sgl - 1),
                        FASTSIG_ERR_BAD_SIGNATURE);
        sig[sgl] = 0;
        CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, sizeof(msg), sig, sgl + 1),
                        FASTSIG_ERR_BAD_SIGNATURE);
        size_t spots[3] = { 0, p->n + fs_test_rand64() % (sgl - p->n), sgl - 1 };
        for (int j = 0; j < 3; j++) {
            sig[spots[j]] ^= 4;
            CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, sizeof(msg), sig, sgl),
                            FASTSIG_ERR_VERIFY);
            sig[spots[j]] ^= 4;
        }
        CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl - 1, msg, sizeof(msg), sig, sgl),
                        FASTSIG_ERR_BAD_LENGTH);
        CU_ASSERT_EQUAL(xmss_wotsp_sign(sk, skl - 1, msg, sizeof(msg), sig, sgl),
                        FASTSIG_ERR_BAD_LENGTH);
        CU_ASSERT_EQUAL(xmss_wotsp_sign(sk, skl, msg, sizeof(msg), sig, sgl + 1),
                        FASTSIG_ERR_BAD_LENGTH);
        CU_ASSERT_EQUAL(xmss_wotsp_keygen(p, seed, 3u * p->n - 1, sk, skl, pk, pkl),
                        FASTSIG_ERR_BAD_LENGTH);
        sk[4 + 2 * p->n] ^= 1; /* a root that does not match the seeds */
        CU_ASSERT_EQUAL(xmss_wotsp_pk_from_sk(sk, skl, pk2, pkl), FASTSIG_ERR_KEY_MISMATCH);
        sk[3] = 0x55; /* an oid that names no WOTSP row */
        CU_ASSERT_EQUAL(xmss_wotsp_sign(sk, skl, msg, sizeof(msg), sig, sgl), FASTSIG_ERR_BAD_KEY);
        pk[3] = 0x55;
        CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, sizeof(msg), sig, sgl), FASTSIG_ERR_BAD_KEY);
        free(sig);
    }
    CU_ASSERT_EQUAL(xmss_wotsp_keygen(xmss_params_by_name("XMSS-SHA2_10_256"), (uint8_t *)"", 96,
                                     (uint8_t *)"", 0, (uint8_t *)"", 0), FASTSIG_ERR_BAD_PARAM);
}

/* The L-tree in two steps (keys and bitmasks once, kept, then the tree from
 * them) for two keys' worth of nodes under one set of masks equals the
 * several-keys path of xmss_ltree (rand_hash per level, its own masks), on
 * the WOTSP rows and an n = 64 XMSS row (len 131). */
static void test_ltree_split(void)
{
    for (size_t i = 0; i < xmss_params_count(); i++) {
        const xmss_params *p = xmss_params_at(i);
        if (p->kind != XMSS_KIND_WOTSP && strcmp(p->name, "XMSS-SHA2_10_512") != 0)
            continue;
        size_t pkb = (size_t)p->len * p->n;
        uint8_t seed[XMSS_MAX_N], want[2 * XMSS_MAX_N], got[XMSS_MAX_N];
        uint8_t *pk = malloc(2 * pkb), *tmp = malloc(2 * pkb);
        uint8_t *km = malloc(xmss_ltree_masks_bytes(p));
        xmss_adrs lt[2];
        xmss_ctx c;
        fs_test_random(seed, sizeof(seed));
        fs_test_random(pk, 2 * pkb);
        memcpy(tmp, pk, 2 * pkb);
        CU_ASSERT_EQUAL_FATAL(xmss_ctx_init(&c, p, seed, NULL, NULL), FASTSIG_OK);
        xmss_adrs_init(&lt[0], 0, 5, XMSS_ADRS_LTREE);
        xmss_adrs_set_ltree(&lt[0], 9);
        lt[1] = lt[0];
        CU_ASSERT_EQUAL(xmss_ltree(&c, want, tmp, lt, 2), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_ltree_masks(&c, km, &lt[0]), FASTSIG_OK);
        for (int k = 0; k < 2; k++) {
            CU_ASSERT_EQUAL(xmss_ltree_with(&c, got, pk + k * pkb, km), FASTSIG_OK);
            CU_ASSERT(memcmp(want + k * p->n, got, p->n) == 0);
        }
        xmss_ctx_clear(&c);
        free(pk);
        free(tmp);
        free(km);
    }
}

int main(void)
{
    static const fs_test table[] = {
        { "counts, names and oids", test_table_counts },
        { "rows against RFC 8391 / SP 800-208", test_table_rows },
        { NULL, NULL },
    };
    static const fs_test wots[] = {
        { "base-w and checksum (w = 4, 16, 256)", test_digits },
        { "WOTSP-SHA2_256_w16 vector", test_vector },
        { "round trips, batches, tampering (every set)", test_round_trips },
        { "signing without SK_SEED, bad row", test_no_sk_seed },
        { "WOTSP one-time scheme: every row, tampering, bad input", test_wotsp_scheme },
        { "L-tree from kept keys and bitmasks = xmss_ltree", test_ltree_split },
        { NULL, NULL },
    };
    static const fs_suite suites[] = {
        { "XMSS parameter table", table },
        { "WOTS+", wots },
        { NULL, NULL },
    };
    return fs_cu_main(suites);
}
