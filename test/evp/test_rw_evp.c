/* test_rw_evp.c - Rabin-Williams through EVP only: the 24 Crypto++ IEEE 1363
 * vectors (keys imported from n, p, q; verify; byte-exact signing with
 * SHA-1), key sizes and the default, compact/expanded formats and the
 * probabilistic verifier, tampering, component export/import, and keys that
 * import must refuse (p = q, p = 7 mod 8, composite factor). The generic
 * glue checks (encoders, dupctx, ...) live in test_provider_evp.c. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include "testutil.h"
#include "fastsig/provider.h"
#include "rw_vectors.h"
#include "evp_fixture.h"

static EVP_PKEY *key2048;

static void test_load(void)
{
    evp_load(1);
}

/* A key of `alg` from big-endian hex n, p, q (p, q may be NULL: public). */
static EVP_PKEY *from_hex(const char *alg, const char *n, const char *p, const char *q)
{
    const char *names[3] = { "n", "p", "q" }, *vals[3] = { n, p, q };
    BIGNUM *bn[3] = { NULL, NULL, NULL };
    OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
    for (int i = 0; i < 3 && vals[i] != NULL; i++) {
        BN_hex2bn(&bn[i], vals[i]);
        OSSL_PARAM_BLD_push_BN(b, names[i], bn[i]);
    }
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    EVP_PKEY *k = NULL;
    int sel = p != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
    if (c == NULL || EVP_PKEY_fromdata_init(c) <= 0 || EVP_PKEY_fromdata(c, &k, sel, params) <= 0)
        k = NULL;
    ERR_clear_error();
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(b);
    for (int i = 0; i < 3; i++)
        BN_free(bn[i]);
    return k;
}

/* One-shot digest-sign (verify: digest-verify of sig, *sl bytes) with md
 * (NULL: none) and one optional UTF-8 context parameter. */
static int digest_op(int verify, EVP_PKEY *k, const char *md, const char *pname,
                     const char *pval, const unsigned char *m, size_t ml, unsigned char *sig,
                     size_t *sl)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    int ok;
    if (pval != NULL)
        p[0] = OSSL_PARAM_construct_utf8_string(pname, (char *)pval, 0);
    if (verify)
        ok = EVP_DigestVerifyInit_ex(c, NULL, md, libctx, NULL, k, p) == 1 &&
             EVP_DigestVerify(c, sig, *sl, m, ml) == 1;
    else
        ok = EVP_DigestSignInit_ex(c, NULL, md, libctx, NULL, k, p) == 1 &&
             EVP_DigestSign(c, sig, sl, m, ml) == 1;
    EVP_MD_CTX_free(c);
    ERR_clear_error();
    return ok;
}

static int sign(EVP_PKEY *k, const char *md, const char *fmt, const unsigned char *m, size_t ml,
                unsigned char *sig, size_t *sl)
{
    return digest_op(0, k, md, FASTSIG_SIG_PARAM_RW_FORMAT, fmt, m, ml, sig, sl);
}

static int verify(EVP_PKEY *k, const char *md, const char *mode, const unsigned char *m,
                  size_t ml, const unsigned char *sig, size_t sl)
{
    return digest_op(1, k, md, FASTSIG_SIG_PARAM_RW_VERIFY, mode, m, ml, (unsigned char *)sig, &sl);
}

static void test_cryptopp_vectors(void)
{
    rwv_derived *d;
    int n = rwv_load_json(&d);
    CU_ASSERT_EQUAL_FATAL(n, 24);
    for (int i = 0; i < n; i++) {
        EVP_PKEY *k = from_hex(FASTSIG_SIG_RW_P1363, d[i].n, d[i].p, d[i].q);
        EVP_PKEY *pub = from_hex(FASTSIG_SIG_RW_P1363, d[i].n, NULL, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pub);
        CU_ASSERT_EQUAL(EVP_PKEY_get_bits(k), d[i].bits);
        size_t ml, wl, vl, sl = 600;
        unsigned char *m = rwv_unhex(d[i].msg, &ml), *want = rwv_unhex(d[i].sig_p1363, &wl),
                      *vec = rwv_unhex(d[i].sig_vector, &vl), sig[600];
        CU_ASSERT(verify(pub, "SHA1", NULL, m, ml, vec, vl));
        CU_ASSERT(verify(pub, "SHA1", NULL, m, ml, want, wl));
        CU_ASSERT(!verify(pub, "SHA256", NULL, m, ml, want, wl));
        CU_ASSERT(sign(k, "SHA1", NULL, m, ml, sig, &sl));
        CU_ASSERT(sl == wl && memcmp(sig, want, wl) == 0);
        want[wl / 2] ^= 4;
        CU_ASSERT(!verify(pub, "SHA1", NULL, m, ml, want, wl));
        /* the default digest (SHA-256) round-trips on the same key */
        sl = sizeof(sig);
        CU_ASSERT(sign(k, NULL, NULL, m, ml, sig, &sl) && verify(pub, NULL, NULL, m, ml, sig, sl));
        free(m); free(want); free(vec);
        EVP_PKEY_free(k);
        EVP_PKEY_free(pub);
    }
    rwv_free_json(d, n);
}

static EVP_PKEY *gen(const char *alg, const char *bits)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    EVP_PKEY *k = NULL;
    OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    if (bits != NULL)
        p[0] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_BITS, (char *)bits, 0);
    if (c != NULL && EVP_PKEY_keygen_init(c) == 1 && EVP_PKEY_CTX_set_params(c, p) == 1)
        EVP_PKEY_generate(c, &k);
    ERR_clear_error();
    EVP_PKEY_CTX_free(c);
    return k;
}

/* Sizes (the default is 3072), every format, both verifiers, tampering. */
static void test_formats_sizes(void)
{
    static const char *bits[] = { "2048", "2056", NULL };
    static const int want_bits[] = { 2048, 2056, 3072 };
    static const unsigned char m[] = "Rabin-Williams through EVP";
    for (int b = 0; b < 3; b++) {
        EVP_PKEY *k = gen(FASTSIG_SIG_RW, bits[b]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_EQUAL(EVP_PKEY_get_bits(k), want_bits[b]);
        size_t nb = (size_t)want_bits[b] / 8;
        static const char *fmts[] = { "compact", "expanded" };
        for (int f = 0; f < 2; f++) {
            unsigned char sig[1100];
            size_t sl = sizeof(sig);
            CU_ASSERT_FATAL(sign(k, NULL, fmts[f], m, sizeof(m), sig, &sl));
            CU_ASSERT_EQUAL(sl, f ? 2 * nb + 1 : nb + 1);
            CU_ASSERT(verify(k, NULL, NULL, m, sizeof(m), sig, sl));
            CU_ASSERT(verify(k, NULL, "exact", m, sizeof(m), sig, sl));
            if (f == 1)
                CU_ASSERT(verify(k, NULL, "probabilistic", m, sizeof(m), sig, sl));
            /* a bit of s, of k (expanded), of the tweak byte; the message */
            size_t spots[3] = { 3, f ? nb + 5 : nb - 1, sl - 1 };
            for (int s = 0; s < 3; s++) {
                sig[spots[s]] ^= 1;
                CU_ASSERT(!verify(k, NULL, f ? "probabilistic" : NULL, m, sizeof(m), sig, sl));
                CU_ASSERT(!verify(k, NULL, NULL, m, sizeof(m), sig, sl));
                sig[spots[s]] ^= 1;
            }
            CU_ASSERT(!verify(k, NULL, NULL, m, sizeof(m) - 1, sig, sl));
            CU_ASSERT(!verify(k, NULL, NULL, m, sizeof(m), sig, sl - 1));
        }
        /* RW hashes the message itself: a digest is refused */
        unsigned char sig[1100];
        size_t sl = sizeof(sig);
        CU_ASSERT(!sign(k, "SHA256", NULL, m, sizeof(m), sig, &sl));
        if (b == 0)
            key2048 = k;
        else
            EVP_PKEY_free(k);
    }
    CU_ASSERT_PTR_NULL(gen(FASTSIG_SIG_RW, "2047"));
    CU_ASSERT_PTR_NULL(gen(FASTSIG_SIG_RW, "1024"));
}

/* n, p, q, u, dp, dq export; n, p, q import back to an equal key; import
 * refuses p = q, swapped residues and a composite factor. */
static void test_components(void)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(key2048);
    BIGNUM *n = NULL, *p = NULL, *q = NULL, *u = NULL, *dp = NULL, *dq = NULL;
    OSSL_PARAM *all = NULL;
    CU_ASSERT_FATAL(EVP_PKEY_todata(key2048, EVP_PKEY_KEYPAIR, &all) == 1);
    const char *names[6] = { "n", "p", "q", "u", "dp", "dq" };
    BIGNUM **dst[6] = { &n, &p, &q, &u, &dp, &dq };
    for (int i = 0; i < 6; i++) {
        const OSSL_PARAM *f = OSSL_PARAM_locate_const(all, names[i]);
        CU_ASSERT_FATAL(f != NULL && OSSL_PARAM_get_BN(f, dst[i]) == 1);
    }
    CU_ASSERT_PTR_NOT_NULL(OSSL_PARAM_locate_const(all, "prf"));
    OSSL_PARAM_free(all);
    BN_CTX *bc = BN_CTX_new();
    BIGNUM *t = BN_new();
    CU_ASSERT(BN_mul(t, p, q, bc) && BN_cmp(t, n) == 0);
    CU_ASSERT(BN_mod_word(p, 8) == 3 && BN_mod_word(q, 8) == 7);
    CU_ASSERT(BN_mod_mul(t, u, q, p, bc) && BN_is_one(t));         /* u = q^-1 mod p */
    CU_ASSERT(BN_lshift(t, dp, 2) && BN_sub_word(t, 1) && BN_cmp(t, p) == 0);  /* (p+1)/4 */
    CU_ASSERT(BN_lshift(t, dq, 3) && BN_sub_word(t, 1) && BN_cmp(t, q) == 0);  /* (q+1)/8 */
    char *nh = BN_bn2hex(n), *ph = BN_bn2hex(p), *qh = BN_bn2hex(q);
    EVP_PKEY *k = from_hex(FASTSIG_SIG_RW, nh, ph, qh);
    CU_ASSERT_PTR_NOT_NULL(k);
    CU_ASSERT(k != NULL && EVP_PKEY_eq(k, key2048) == 1);
    /* a signature by the re-imported key (derived prf) verifies under the original */
    unsigned char sig[600];
    size_t sl = sizeof(sig);
    CU_ASSERT(k != NULL && sign(k, NULL, NULL, (const unsigned char *)"x", 1, sig, &sl) &&
              verify(key2048, NULL, NULL, (const unsigned char *)"x", 1, sig, sl));
    EVP_PKEY_free(k);
    CU_ASSERT_PTR_NULL(from_hex(FASTSIG_SIG_RW, NULL, ph, ph));        /* p = q */
    CU_ASSERT_PTR_NULL(from_hex(FASTSIG_SIG_RW, NULL, qh, ph));        /* p = 7 mod 8 */
    /* composite "p" = p*r = 3 mod 8 (r = 1 mod 8, a prime above the small-factor
     * screen) with n = p*r*q still a multiple of 8 bits: only primality fails */
    static const unsigned long r1mod8[] = { 257, 281, 313, 337, 353, 401, 409, 433, 449, 457 };
    BIGNUM *c = BN_new(), *r = BN_new();
    for (size_t i = 0; i < sizeof(r1mod8) / sizeof(r1mod8[0]); i++) {
        BN_set_word(r, r1mod8[i]);
        BN_mul(c, p, r, bc);
        BN_mul(t, c, q, bc);
        if (BN_num_bits(t) % 8 == 0)
            break;
    }
    CU_ASSERT(BN_num_bits(t) % 8 == 0);
    char *ch = BN_bn2hex(c);
    CU_ASSERT(BN_mod_word(c, 8) == 3);
    CU_ASSERT_PTR_NULL(from_hex(FASTSIG_SIG_RW, NULL, ch, qh));
    OPENSSL_free(ch);
    OPENSSL_free(nh); OPENSSL_free(ph); OPENSSL_free(qh);
    BN_free(c); BN_free(r); BN_free(t);
    BN_CTX_free(bc);
    BN_free(n); BN_free(p); BN_free(q); BN_free(u); BN_free(dp); BN_free(dq);
}

static void test_cleanup(void)
{
    EVP_PKEY_free(key2048);
    evp_unload();
}

static const fs_test tests[] = {
    { "load", test_load },
    { "Crypto++ IEEE 1363 vectors (RW-P1363)", test_cryptopp_vectors },
    { "sizes, formats, verifiers, tampering", test_formats_sizes },
    { "components, import validation", test_components },
    { "cleanup", test_cleanup },
    { NULL, NULL }
};

int main(void)
{
    return fs_cu_run("rw-evp", tests);
}
