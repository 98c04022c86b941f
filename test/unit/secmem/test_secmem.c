/* test_secmem.c - secret key material is kept out of core dumps: for each
 * kind a key is made from a known seed (itself kept in a secmem.h buffer, so
 * that the test holds no dumpable copy), signs, and then the buffers the
 * core keeps its secrets in are in mappings marked MADV_DONTDUMP (the `dd`
 * VmFlag of /proc/self/smaps), and no copy of SK_SEED, SK_PRF, an LMS SEED
 * (the top one and a derived lower one) or RW's primes and PRF key is left
 * in memory a core dump would hold (signing's stack and heap temporaries
 * are wiped). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "testutil.h"
#include "dumpscan.h"
#include "fastsig_err.h"
#include "secmem.h"
#include "xmss/xmss_key.h"
#include "xmss/params.h"
#include "xmss/wotsp_scheme.h"
#include "xmss/xmss.h"
#include "lms/hss.h"
#include "lms/lms_params.h"
#include "rw/rw.h"
#include "rw/rw_internal.h"

/* Hash families whose keyed prefixes are whole blocks (SHA2-256) or not
 * (n = 24, SHAKE: the raw seed is in the keyed state). */
static void xmss_set(const char *name, uint64_t x)
{
    const xmss_params *p = xmss_params_by_name(name);
    uint8_t *seed, msg[32] = "xmss", *sig;
    xmss_key *k = NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    size_t n = p->n;
    CU_ASSERT_PTR_NOT_NULL_FATAL(seed = fs_secmem_alloc(3 * n));
    known_bytes(seed, 3 * n, x);
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(p, seed, 3 * n, 2, NULL, NULL, &k), FASTSIG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig = malloc(xmss_sig_bytes(p)));
    CU_ASSERT_EQUAL(xmss_sign(k, 0, msg, sizeof(msg), sig, xmss_sig_bytes(p)), FASTSIG_OK);
    CU_ASSERT_EQUAL(xmss_sign(k, 1, msg, sizeof(msg), sig, xmss_sig_bytes(p)), FASTSIG_OK);
    CU_ASSERT_EQUAL(mapping_is_dontdump(k->sk_seed), 1);
    CU_ASSERT_EQUAL(mapping_is_dontdump(&k->ctx), 1);
    assert_undumped("SK_SEED", seed, n, 2);
    assert_undumped("SK_PRF", seed + n, n, 2);
    xmss_key_free(k);
    assert_undumped("SK_SEED after free", seed, n, 1); /* wiped */
    free(sig);
    fs_secmem_free(seed);
}

static void xmss_kind(void)
{
    static const char *const sets[] = { "XMSS-SHA2_10_256", "XMSS-SHA2_10_192",
                                        "XMSS-SHAKE256_10_192", "XMSS-SHAKE_10_256" };
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
        xmss_set(sets[i], 10 + i);
}

static void wotsp_kind(void)
{
    const xmss_params *p = xmss_params_by_name("WOTSP-SHA2_256");
    uint8_t *seed = fs_secmem_alloc(3 * 32), *sk, pk[200], msg[32] = "wots", *sig;
    size_t sklen;

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(seed);
    sklen = xmss_sk_bytes(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sk = fs_secmem_alloc(sklen)); /* as the provider keeps it */
    known_bytes(seed, 3 * 32, 2);
    CU_ASSERT_EQUAL_FATAL(xmss_wotsp_keygen(p, seed, 3 * 32, sk, sklen, pk, 4 + 2 * 32),
                          FASTSIG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig = malloc(32 + xmss_wots_sig_bytes(p))); /* R || WOTS+ sig */
    CU_ASSERT_EQUAL(xmss_wotsp_sign(sk, sklen, msg, sizeof(msg), sig, 32 + xmss_wots_sig_bytes(p)),
                    FASTSIG_OK);
    assert_undumped("WOTS+ SK_SEED", seed, 32, 2);
    assert_undumped("WOTS+ SK_PRF", seed + 32, 32, 2);
    free(sig);
    fs_secmem_free(sk);
    fs_secmem_free(seed);
}

static void hss_kind(void)
{
    lms_params lp[2];
    lmots_params op[2];
    uint8_t *seed = fs_secmem_alloc(32 + 16 + 32 + 16), msg[32] = "hss", *sig;
    hss_key *k = NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(seed);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL_FATAL(lms_params_by_name(&lp[i], "LMS_SHA256_M32_H5"), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(lmots_params_by_name(&op[i], "LMOTS_SHA256_N32_W8"), FASTSIG_OK);
    }
    known_bytes(seed, 48, 3); /* SEED || I */
    CU_ASSERT_EQUAL_FATAL(hss_key_gen(&k, 2, lp, op, seed, seed + 32, NULL, NULL), FASTSIG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig = malloc(hss_sig_bytes(k)));
    /* the second level's second tree: SEED' of the top tree's leaf 1 */
    CU_ASSERT_EQUAL(hss_sign(k, 0, msg, sizeof(msg), sig), FASTSIG_OK);
    CU_ASSERT_EQUAL(hss_sign(k, 32, msg, sizeof(msg), sig), FASTSIG_OK);
    CU_ASSERT_EQUAL(hss_child_seed(&op[0], seed + 32, seed, 1, seed + 48, seed + 80),
                    FASTSIG_OK);
    assert_undumped("the top SEED", seed, 32, 2);
    assert_undumped("a derived lower SEED", seed + 48, 32, 2);
    hss_key_free(k);
    free(sig);
    fs_secmem_free(seed);
}

/* A fixed key: rnd is splitmix64 from a counter. */
static int fixed_rnd(void *arg, uint8_t *buf, size_t len)
{
    uint64_t *ctr = arg;
    known_bytes(buf, len, (*ctr)++ * 0x10001);
    return 1;
}

static void rw_kind(void)
{
    uint64_t ctr = 4;
    rw_key *k = rw_key_new();
    uint8_t *pl = fs_secmem_alloc(3 * 32), msg[32] = "rw", sig[512];
    size_t siglen = sizeof(sig);

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pl);
    CU_ASSERT_EQUAL_FATAL(rw_keygen(k, 2048, fixed_rnd, &ctr), FASTSIG_OK);
    CU_ASSERT_EQUAL(rw_sign(k, RW_FMT_COMPACT, 0, msg, sizeof(msg), sig, &siglen), FASTSIG_OK);
    CU_ASSERT_EQUAL(mapping_is_dontdump(k), 1);
    CU_ASSERT_EQUAL(mapping_is_dontdump(mpz_limbs_read(k->p)), 1);
    CU_ASSERT_EQUAL(mapping_is_dontdump(mpz_limbs_read(k->q)), 1);
    /* the low 32 bytes of p's and q's limbs, and the PRF key */
    memcpy(pl, mpz_limbs_read(k->p), 32);
    memcpy(pl + 32, mpz_limbs_read(k->q), 32);
    memcpy(pl + 64, k->prf, 32);
    assert_undumped("RW p", pl, 32, 2);
    assert_undumped("RW q", pl + 32, 32, 2);
    assert_undumped("RW prf", pl + 64, 32, 2);
    rw_key *d = rw_key_dup(k); /* a copy keeps them out too */
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(mapping_is_dontdump(mpz_limbs_read(d->p)), 1);
    rw_key_free(k);
    rw_key_free(d);
    assert_undumped("RW p after free", pl, 32, 1);
    fs_secmem_free(pl);
}

int main(void)
{
    static const fs_test tests[] = {
        { "secret key material is kept out of core dumps: XMSS", xmss_kind },
        { "secret key material is kept out of core dumps: WOTS+", wotsp_kind },
        { "secret key material is kept out of core dumps: HSS", hss_kind },
        { "secret key material is kept out of core dumps: RW", rw_kind },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "secret key memory", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
