/* test_neighbours_evp.c - HSS and LMS from C with fastsig and OpenSSL's
 * default provider loaded in either order, no property query (doc/design.md,
 * "LMS beside OpenSSL 3.6"). OpenSSL 3.6 built with enable-lms has a
 * verify-only "LMS" of its own: HSS keys (generation, signing, SPKI) must
 * reach fastsig whatever the order, and a raw LMS key (3.6's: no u32str(L))
 * with a raw LMS signature (no u32str(0)) must verify through whichever
 * provider the fetch reaches, whether the key came from EVP_PKEY_fromdata or
 * from 3.6's "xdr" decoder, the way a program written for 3.6 verifies
 * (EVP_SIGNATURE_fetch "LMS", EVP_PKEY_verify_message_init). Without
 * OpenSSL's LMS the same runs with fastsig the only "LMS". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include "testutil.h"
#include "fastsig/provider.h"
#include "evp_fixture.h"

#define SET "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8"
#define PUB_LEN 60 /* u32str(1) || LMS public key of an m = 32 set */
static char statedir[] = "/tmp/fs_neighbours_evp_XXXXXX";
static const unsigned char msg[] = "one message, two providers";

static EVP_PKEY *gen(const char *alg, const char *param, const char *name)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    char state[256];
    EVP_PKEY *k = NULL;

    snprintf(state, sizeof(state), "%s/%s.state", statedir, name);
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)param, 0),
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0),
        OSSL_PARAM_construct_end(),
    };
    if (c == NULL || EVP_PKEY_keygen_init(c) <= 0 || !EVP_PKEY_CTX_set_params(c, p)
        || EVP_PKEY_generate(c, &k) <= 0)
        k = NULL;
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return k;
}

/* EVP_DigestSign without a digest into sig (capacity *len). */
static int sign(EVP_PKEY *k, unsigned char *sig, size_t *len)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    int ok = m != NULL && EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) == 1
             && EVP_DigestSign(m, sig, len, msg, sizeof(msg)) == 1;
    EVP_MD_CTX_free(m);
    return ok;
}

/* As a program written for OpenSSL 3.6's LMS verifies (3.4 on: the message
 * API with a signature fetched by name; propq NULL, or a provider the test
 * makes the fetch reach), else EVP_DigestVerify. */
static int verify_by(EVP_PKEY *k, const char *alg, const char *propq, const unsigned char *sig,
                     size_t len, const unsigned char *m, size_t mlen)
{
    int ok;
#if OPENSSL_VERSION_NUMBER >= 0x30400000L
    EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(libctx, alg, propq);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
    ok = s != NULL && c != NULL && EVP_PKEY_verify_message_init(c, s, NULL) == 1
         && EVP_PKEY_verify(c, sig, len, m, mlen) == 1;
    EVP_PKEY_CTX_free(c);
    EVP_SIGNATURE_free(s);
#else
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    (void)alg;
    (void)propq;
    ok = c != NULL && EVP_DigestVerifyInit_ex(c, NULL, NULL, libctx, NULL, k, NULL) == 1
         && EVP_DigestVerify(c, sig, len, m, mlen) == 1;
    EVP_MD_CTX_free(c);
#endif
    ERR_clear_error();
    return ok;
}

static int verify(EVP_PKEY *k, const char *alg, const unsigned char *sig, size_t len,
                  const unsigned char *m, size_t mlen)
{
    return verify_by(k, alg, NULL, sig, len, m, mlen);
}

/* A raw LMS signature and key verify through each provider's LMS, named
 * (OpenSSL's order of providers decides which one a plain fetch reaches). */
static void verify_through_each(EVP_PKEY *k, int ossl_lms, const unsigned char *sig, size_t len,
                                const unsigned char *bad, size_t badlen)
{
    CU_ASSERT(verify(k, FASTSIG_SIG_LMS, sig, len, msg, sizeof(msg)));
    CU_ASSERT(!verify(k, FASTSIG_SIG_LMS, sig, len, bad, badlen));
#if OPENSSL_VERSION_NUMBER >= 0x30400000L
    CU_ASSERT(verify_by(k, FASTSIG_SIG_LMS, "provider=fastsig", sig, len, msg, sizeof(msg)));
    CU_ASSERT(!verify_by(k, FASTSIG_SIG_LMS, "provider=fastsig", sig, len, bad, badlen));
    if (ossl_lms) {
        CU_ASSERT(verify_by(k, FASTSIG_SIG_LMS, "provider=default", sig, len, msg, sizeof(msg)));
        CU_ASSERT(!verify_by(k, FASTSIG_SIG_LMS, "provider=default", sig, len, bad, badlen));
    }
#else
    (void)ossl_lms;
#endif
}

/* A raw LMS public key through EVP_PKEY_fromdata ("LMS": either key manager). */
static EVP_PKEY *from_raw(const unsigned char *pub, size_t len)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, FASTSIG_SIG_LMS, NULL);
    EVP_PKEY *k = NULL;
    OSSL_PARAM p[] = { OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, len),
                       OSSL_PARAM_construct_end() };
    if (c == NULL || EVP_PKEY_fromdata_init(c) != 1
        || EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, p) != 1)
        k = NULL;
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return k;
}

/* A raw LMS public key through OpenSSL 3.6's decoder (input type "xdr"). */
static EVP_PKEY *from_xdr(const unsigned char *pub, size_t len)
{
    EVP_PKEY *k = NULL;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&k, "xdr", NULL, FASTSIG_SIG_LMS,
                                                        OSSL_KEYMGMT_SELECT_PUBLIC_KEY, libctx, NULL);
    if (d == NULL || !OSSL_DECODER_from_data(d, &pub, &len)) {
        EVP_PKEY_free(k);
        k = NULL;
    }
    OSSL_DECODER_CTX_free(d);
    ERR_clear_error();
    return k;
}

/* k's public key as its key manager exports it (OpenSSL 3.6's has no get_params). */
static int same_pub(EVP_PKEY *k, const unsigned char *want, size_t wantlen)
{
    OSSL_PARAM *all = NULL, *p;
    int ok = EVP_PKEY_todata(k, EVP_PKEY_PUBLIC_KEY, &all) == 1
             && (p = OSSL_PARAM_locate(all, OSSL_PKEY_PARAM_PUB_KEY)) != NULL
             && p->data_size == wantlen && memcmp(p->data, want, wantlen) == 0;
    OSSL_PARAM_free(all);
    return ok;
}

/* The SPKI DER of k. */
static int spki(EVP_PKEY *k, unsigned char **der)
{
    *der = NULL;
    return i2d_PUBKEY(k, der);
}

/* The provider a fetch of a signature reaches (no property query). */
static const OSSL_PROVIDER *signature_of(const char *alg)
{
    EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(libctx, alg, NULL);
    const OSSL_PROVIDER *p = s != NULL ? EVP_SIGNATURE_get0_provider(s) : NULL;
    EVP_SIGNATURE_free(s);
    return p;
}

static void run_order(int default_first)
{
    unsigned char pub[PUB_LEN], sig[4096], lsig[4096], flipped[sizeof(msg)];
    unsigned char *der = NULL;
    size_t publen = 0, siglen = sizeof(sig), lsiglen = sizeof(lsig);
    const char *order = default_first ? "default first" : "fastsig first";
    EVP_PKEY *hss, *hss2, *raw, *xdr, *lms;
    EVP_KEYMGMT *own;
    int ossl_lms, n;

    evp_load_order(1, default_first);
    own = EVP_KEYMGMT_fetch(libctx, FASTSIG_SIG_LMS, "provider=default");
    ossl_lms = own != NULL; /* the default provider's own LMS (3.6, enable-lms) */
    EVP_KEYMGMT_free(own);
    ERR_clear_error();
    printf("\n  %s, the default provider's own LMS: %s", order, ossl_lms ? "yes" : "no");
    memcpy(flipped, msg, sizeof(msg));
    flipped[0] ^= 1;

    /* HSS: fastsig's, whatever the order */
    hss = gen(FASTSIG_SIG_HSS, SET, default_first ? "d1" : "f1");
    hss2 = gen(FASTSIG_SIG_HSS, SET "," SET, default_first ? "d2" : "f2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hss);
    CU_ASSERT_PTR_NOT_NULL(hss2);
    CU_ASSERT_PTR_EQUAL(EVP_PKEY_get0_provider(hss), prov_fastsig);
    CU_ASSERT_FATAL(sign(hss, sig, &siglen));
    CU_ASSERT(verify(hss, FASTSIG_SIG_HSS, sig, siglen, msg, sizeof(msg)));
    CU_ASSERT(!verify(hss, FASTSIG_SIG_HSS, sig, siglen, flipped, sizeof(flipped)));
    CU_ASSERT_EQUAL((n = spki(hss, &der)), 20 + PUB_LEN);
    const unsigned char *p = der;
    EVP_PKEY *back = n > 0 ? d2i_PUBKEY_ex(NULL, &p, n, libctx, NULL) : NULL;
    CU_ASSERT_PTR_NOT_NULL(back);
    CU_ASSERT(back != NULL && EVP_PKEY_is_a(back, FASTSIG_SIG_HSS));
    CU_ASSERT(back != NULL && verify(back, FASTSIG_SIG_HSS, sig, siglen, msg, sizeof(msg)));
    EVP_PKEY_free(back);

    /* the raw LMS forms: the HSS key less u32str(1), the signature less u32str(0) */
    CU_ASSERT_FATAL(EVP_PKEY_get_octet_string_param(hss, OSSL_PKEY_PARAM_PUB_KEY, pub,
                                                    sizeof(pub), &publen) && publen == PUB_LEN);
    CU_ASSERT_FATAL(memcmp(pub, "\0\0\0\1", 4) == 0 && memcmp(sig, "\0\0\0\0", 4) == 0);
    raw = from_raw(pub + 4, publen - 4);
    CU_ASSERT_PTR_NOT_NULL(raw);
    if (raw != NULL) {
        CU_ASSERT(same_pub(raw, pub + 4, publen - 4));
        verify_through_each(raw, ossl_lms, sig + 4, siglen - 4, flipped, sizeof(flipped));
    }
    xdr = from_xdr(pub + 4, publen - 4);
    CU_ASSERT_EQUAL(xdr != NULL, ossl_lms);
    if (xdr != NULL) {
        CU_ASSERT_PTR_EQUAL(EVP_PKEY_get0_provider(xdr), prov_default);
        verify_through_each(xdr, ossl_lms, sig + 4, siglen - 4, flipped, sizeof(flipped));
        CU_ASSERT(same_pub(xdr, pub + 4, publen - 4));
    }

    /* LMS keys: fastsig's when the fetch reaches it; OpenSSL's LMS makes none */
    lms = gen(FASTSIG_SIG_LMS, SET, default_first ? "dl" : "fl");
    CU_ASSERT_EQUAL(lms != NULL, !(ossl_lms && default_first));
    /* it signs where the signature fetch reaches fastsig: OpenSSL's LMS takes the exported
     * public key and cannot sign (OpenSSL's order of providers: doc/design.md) */
    if (lms != NULL && signature_of(FASTSIG_SIG_LMS) == prov_fastsig) {
        CU_ASSERT(sign(lms, lsig, &lsiglen));
        CU_ASSERT_EQUAL(lsiglen, siglen - 4); /* the raw LMS signature */
        CU_ASSERT(verify(lms, FASTSIG_SIG_LMS, lsig, lsiglen, msg, sizeof(msg)));
    }
    if (lms != NULL) /* two levels: an HSS key */
        CU_ASSERT(gen(FASTSIG_SIG_LMS, SET "," SET, "lms2") == NULL);
    printf(", LMS signatures reach: %s",
           signature_of(FASTSIG_SIG_LMS) == prov_fastsig ? "fastsig" : "default");
    OPENSSL_free(der);
    EVP_PKEY_free(lms);
    EVP_PKEY_free(xdr);
    EVP_PKEY_free(raw);
    EVP_PKEY_free(hss2);
    EVP_PKEY_free(hss);
    evp_unload();
}

static void test_default_first(void)
{
    run_order(1);
}

static void test_fastsig_first(void)
{
    run_order(0);
}

static void test_setup(void)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(statedir));
}

static void test_cleanup(void)
{
    char cmd[sizeof(statedir) + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", statedir);
    CU_ASSERT(system(cmd) == 0);
}

static const fs_test tests[] = {
    { "setup", test_setup },
    { "HSS and LMS, the default provider loaded first", test_default_first },
    { "HSS and LMS, fastsig loaded first", test_fastsig_first },
    { "cleanup", test_cleanup },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("HSS / LMS beside OpenSSL's default provider", tests);
}
