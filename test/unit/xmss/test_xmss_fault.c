/* test_xmss_fault.c - damaged keys and faults in the XMSS / XMSS^MT / WOTS+
 * cores: a key whose SK_SEED, PUB_SEED or root lost a bit is refused by
 * xmss_key_check and xmss_sign (with and without the node cache; its cache is
 * not exported); SK_PRF cannot be checked and still signs validly; a
 * simulated fault in an upper-layer root signature is refused (at key
 * generation and when crossing into the next tree) and leaves no
 * signature; verify-after-sign withholds a damaged signature. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "xmss/xmss.h"
#include "xmss_hooks.h"
#include "xmss/wotsp_scheme.h"

static const uint8_t msg[5] = { 'f', 'a', 'u', 'l', 't' };

static int all_zero(const uint8_t *b, size_t len)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= b[i];
    return acc == 0;
}

/* Where the fields of an XMSS sk core start (after oid and idx). */
enum { F_SK_SEED, F_SK_PRF, F_ROOT, F_PUB_SEED, F_COUNT };
static const char *const field_name[F_COUNT] = { "SK_SEED", "SK_PRF", "root", "PUB_SEED" };

/* A key of `name` (bottom: xmss_test_set_bottom_h, 0 none) and its cache;
 * then for each field, with and without that cache, a key with one bit of
 * the field flipped: refused before signing (SK_PRF: signs validly). */
static void damaged_case(const char *name, unsigned bottom)
{
    const xmss_params *p = xmss_params_by_name(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint8_t seed[3 * XMSS_MAX_N], sk[4 + 8 + 4 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    size_t skl = xmss_sk_bytes(p), pkl = xmss_pk_bytes(p), len = xmss_sig_bytes(p);
    uint8_t *sig = malloc(len), *cache = NULL, *c2 = NULL;
    size_t clen = 0, c2len = 0;
    xmss_key *k = NULL, *d = NULL;
    uint64_t idx;
    fs_test_random(seed, sizeof(seed));
    xmss_test_set_bottom_h(bottom);
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 3u * p->n, 2, NULL, NULL, &k), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_sign(k, 3, msg, sizeof(msg), sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_cache_export(k, &cache, &clen), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_key_export_sk(k, 4, sk, skl), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_key_export_pk(k, pk, pkl), FASTSIG_OK);

    /* the intact key: the check passes, from the cache without building */
    for (int with_cache = 0; with_cache < 2; with_cache++) {
        CU_ASSERT_EQUAL_FATAL(xmss_key_from_sk(p->kind, sk, skl, &idx, &d), FASTSIG_OK);
        if (with_cache)
            CU_ASSERT_EQUAL(xmss_cache_import(d, cache, clen), FASTSIG_OK);
        uint64_t built = xmss_key_ondemand(d);
        CU_ASSERT_EQUAL(xmss_key_check(d), FASTSIG_OK);
        if (with_cache)
            CU_ASSERT_EQUAL(xmss_key_ondemand(d), built);
        CU_ASSERT_EQUAL(xmss_sign(d, 4, msg, sizeof(msg), sig, len), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len), FASTSIG_OK);
        xmss_key_free(d);
    }

    for (int f = 0; f < F_COUNT; f++) {
        for (int with_cache = 0; with_cache < 2; with_cache++) {
            size_t at = 4 + p->idx_bytes + (size_t)f * p->n + (size_t)(f * 5 % p->n);
            sk[at] ^= 0x10;
            CU_ASSERT_EQUAL_FATAL(xmss_key_from_sk(p->kind, sk, skl, &idx, &d), FASTSIG_OK);
            /* the cache is tagged with SK_SEED and names the root: an
             * SK_PRF change still imports it */
            int imported = with_cache && xmss_cache_import(d, cache, clen) == FASTSIG_OK;
            if (with_cache && f != F_PUB_SEED)
                CU_ASSERT_EQUAL(imported, f == F_SK_PRF);
            if (f == F_SK_PRF) { /* only randomizes R: still a valid signature */
                CU_ASSERT_EQUAL(xmss_key_check(d), FASTSIG_OK);
                CU_ASSERT_EQUAL(xmss_sign(d, 5, msg, sizeof(msg), sig, len), FASTSIG_OK);
                CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len),
                                FASTSIG_OK);
            } else {
                if (xmss_key_check(d) != FASTSIG_ERR_KEY_MISMATCH)
                    fprintf(stderr, "\n%s %s (cache %d): not refused\n", name, field_name[f],
                            with_cache);
                CU_ASSERT_EQUAL(xmss_key_check(d), FASTSIG_ERR_KEY_MISMATCH);
                memset(sig, 0xa5, len);
                CU_ASSERT_EQUAL(xmss_sign(d, 5, msg, sizeof(msg), sig, len),
                                FASTSIG_ERR_KEY_MISMATCH);
                CU_ASSERT(all_zero(sig, len));
                CU_ASSERT_EQUAL(xmss_cache_export(d, &c2, &c2len), FASTSIG_ERR_KEY_MISMATCH);
                free(c2);
                c2 = NULL;
            }
            xmss_key_free(d);
            /* the check also runs inside xmss_sign of an unchecked key */
            if (f != F_SK_PRF) {
                CU_ASSERT_EQUAL_FATAL(xmss_key_from_sk(p->kind, sk, skl, &idx, &d), FASTSIG_OK);
                CU_ASSERT_EQUAL(xmss_sign(d, 5, msg, sizeof(msg), sig, len),
                                FASTSIG_ERR_KEY_MISMATCH);
                xmss_key_free(d);
            }
            sk[at] ^= 0x10;
        }
    }
    xmss_test_set_bottom_h(0);
    free(cache);
    free(sig);
    xmss_key_free(k);
}

static void test_damaged_xmss(void)
{
    damaged_case("XMSS-SHA2_10_256", 0);
}

/* a top layer split into bottom subtrees and a top part: the cached path
 * crosses both */
static void test_damaged_xmss_split(void)
{
    damaged_case("XMSS-SHA2_10_256", 3);
}

static void test_damaged_mt(void)
{
    damaged_case("XMSSMT-SHA2_20/4_256", 0);
    damaged_case("XMSSMT-SHAKE256_20/4_192", 0);
}

static void test_damaged_wotsp(void)
{
    const xmss_params *p = xmss_params_by_name("WOTSP-SHA2_256");
    uint8_t seed[3 * XMSS_MAX_N], sk[4 + 4 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    size_t skl = xmss_sk_bytes(p), pkl = xmss_pk_bytes(p);
    fs_test_random(seed, sizeof(seed));
    CU_ASSERT_EQUAL_FATAL(xmss_wotsp_keygen(p, seed, 3u * p->n, sk, skl, pk, pkl), FASTSIG_OK);
    for (int f = 0; f < F_COUNT; f++) {
        size_t at = 4 + (size_t)f * p->n + 7;
        sk[at] ^= 0x01;
        CU_ASSERT_EQUAL(xmss_wotsp_pk_from_sk(sk, skl, pk, pkl),
                        f == F_SK_PRF ? FASTSIG_OK : FASTSIG_ERR_KEY_MISMATCH);
        sk[at] ^= 0x01;
    }
}

/* ---- upper-layer root signatures ------------------------------------------- */

static void test_root_sig_fault(void)
{
    const xmss_params *p = xmss_params_by_name("XMSSMT-SHA2_20/4_256");
    uint8_t seed[3 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    size_t len = xmss_sig_bytes(p), pkl = xmss_pk_bytes(p);
    uint8_t *sig = malloc(len);
    xmss_key *k = NULL;
    fs_test_random(seed, sizeof(seed));

    /* key generation signs the lower layers' first roots: refused */
    xmss_test_set_fault(XMSS_FAULT_ROOT_SIG);
    CU_ASSERT_EQUAL(xmss_keygen(p, seed, 3u * p->n, 1, NULL, NULL, &k), FASTSIG_ERR_FAULT);
    CU_ASSERT_PTR_NULL(k);
    xmss_test_set_fault(0);

    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 3u * p->n, 1, NULL, NULL, &k), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_key_export_pk(k, pk, pkl), FASTSIG_OK);
    uint64_t tree = (uint64_t)1 << p->tree_h; /* first index of layer-0 tree 1 */
    for (uint64_t i = 0; i + 2 < tree; i++)
        CU_ASSERT_EQUAL(xmss_sign(k, i, msg, sizeof(msg), sig, len), FASTSIG_OK);
    /* the next tree's root is signed ahead (at tree - 1) and again on
     * demand at the crossing: both faulted, the crossing is refused */
    xmss_test_set_fault(XMSS_FAULT_ROOT_SIG);
    CU_ASSERT_EQUAL(xmss_sign(k, tree - 2, msg, sizeof(msg), sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_sign(k, tree - 1, msg, sizeof(msg), sig, len), FASTSIG_OK);
    memset(sig, 0xa5, len);
    CU_ASSERT_EQUAL(xmss_sign(k, tree, msg, sizeof(msg), sig, len), FASTSIG_ERR_FAULT);
    CU_ASSERT(all_zero(sig, len));
    /* the fault gone, the root is signed anew and the signature verifies */
    xmss_test_set_fault(0);
    CU_ASSERT_EQUAL(xmss_sign(k, tree + 1, msg, sizeof(msg), sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len), FASTSIG_OK);
    free(sig);
    xmss_key_free(k);
}

/* ---- verify-after-sign ------------------------------------------------------ */

static void test_verify_after_sign_tree(void)
{
    static const char *const sets[] = { "XMSS-SHA2_10_256", "XMSSMT-SHA2_20/4_256" };
    for (size_t s = 0; s < 2; s++) {
        const xmss_params *p = xmss_params_by_name(sets[s]);
        uint8_t seed[3 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
        size_t len = xmss_sig_bytes(p), pkl = xmss_pk_bytes(p);
        uint8_t *sig = malloc(len);
        xmss_key *k = NULL;
        fs_test_random(seed, sizeof(seed));
        CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 3u * p->n, 2, NULL, NULL, &k), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_key_export_pk(k, pk, pkl), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_sign_verified(k, 0, msg, sizeof(msg), sig, len), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len), FASTSIG_OK);
        xmss_test_set_fault(XMSS_FAULT_SIG);
        /* the simulated fault: plain signing lets a bad signature out */
        CU_ASSERT_EQUAL(xmss_sign(k, 1, msg, sizeof(msg), sig, len), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_verify_p(p, pk, pkl, msg, sizeof(msg), sig, len),
                        FASTSIG_ERR_VERIFY);
        memset(sig, 0xa5, len);
        CU_ASSERT_EQUAL(xmss_sign_verified(k, 2, msg, sizeof(msg), sig, len), FASTSIG_ERR_FAULT);
        CU_ASSERT(all_zero(sig, len));
        xmss_test_set_fault(0);
        free(sig);
        xmss_key_free(k);
    }
}

static void test_verify_after_sign_wotsp(void)
{
    const xmss_params *p = xmss_params_by_name("WOTSP-SHA2_256");
    uint8_t seed[3 * XMSS_MAX_N], sk[4 + 4 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    size_t skl = xmss_sk_bytes(p), pkl = xmss_pk_bytes(p), len = xmss_sig_bytes(p);
    uint8_t *sig = malloc(len);
    fs_test_random(seed, sizeof(seed));
    CU_ASSERT_EQUAL_FATAL(xmss_wotsp_keygen(p, seed, 3u * p->n, sk, skl, pk, pkl), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_wotsp_sign_verified(sk, skl, msg, sizeof(msg), sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, sizeof(msg), sig, len), FASTSIG_OK);
    xmss_test_set_fault(XMSS_FAULT_SIG);
    CU_ASSERT_EQUAL(xmss_wotsp_sign(sk, skl, msg, sizeof(msg), sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_wotsp_verify(pk, pkl, msg, sizeof(msg), sig, len), FASTSIG_ERR_VERIFY);
    memset(sig, 0xa5, len);
    CU_ASSERT_EQUAL(xmss_wotsp_sign_verified(sk, skl, msg, sizeof(msg), sig, len),
                    FASTSIG_ERR_FAULT);
    CU_ASSERT(all_zero(sig, len));
    xmss_test_set_fault(0);
    free(sig);
}

int main(void)
{
    static const fs_test keys[] = {
        { "XMSS: a flipped seed or root is refused", test_damaged_xmss },
        { "XMSS, split top layer: the same", test_damaged_xmss_split },
        { "XMSS^MT: the same", test_damaged_mt },
        { "WOTS+: the same, at decode", test_damaged_wotsp },
        { NULL, NULL },
    };
    static const fs_test faults[] = {
        { "XMSS^MT: a faulted root signature is refused", test_root_sig_fault },
        { "XMSS / XMSS^MT: verify-after-sign withholds", test_verify_after_sign_tree },
        { "WOTS+: verify-after-sign withholds", test_verify_after_sign_wotsp },
        { NULL, NULL },
    };
    static const fs_suite suites[] = {
        { "damaged keys", keys },
        { "faults", faults },
        { NULL, NULL },
    };
    return fs_cu_main(suites);
}
