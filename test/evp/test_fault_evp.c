/* test_fault_evp.c - damaged private keys and verify-after-sign through EVP
 * only, for XMSS, XMSS^MT and WOTSP: a PKCS#8 key with one bit of SK_SEED,
 * PUB_SEED or root flipped (XMSS, XMSS^MT: with and without the node cache
 * file) signs nothing, its state's index does not move and the cache file
 * is left as it was; one with SK_PRF flipped still signs validly (SK_PRF
 * only randomizes). The signature-context option verify-after-sign: set as
 * an integer or as text, read back, refused when not 0 or 1, and a
 * signature made with it verifies. (A forced fault under verify-after-sign
 * runs in the core's unit test, test/unit/xmss/test_xmss_fault.c: the test
 * hook is not reachable through the loaded module.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include "bytes.h"
#include "stateful_evp.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"

static const struct {
    const char *alg, *param;
    int kind;
} rows[] = {
    { "XMSS", "XMSS-SHA2_10_256", XMSS_KIND_XMSS },
    { "XMSSMT", "XMSSMT-SHA2_20/4_256", XMSS_KIND_XMSSMT },
    { "WOTSP", "WOTSP-SHA2_256", XMSS_KIND_WOTSP },
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

/* sk core fields, in their order after oid (and idx); SK_PRF last: its
 * case signs, which spends a WOTSP key's one index */
static const struct {
    const char *name;
    int at; /* field number in the core */
} fields[] = { { "SK_SEED", 0 }, { "root", 2 }, { "PUB_SEED", 3 }, { "SK_PRF", 1 } };

/* The PKCS#8 DER of k (malloc'd) and where its sk core starts: the
 * privateKey contents end with BE16(len) || state path. */
static unsigned char *priv_der(EVP_PKEY *k, const char *state, const xmss_params *p,
                               size_t *len, size_t *core)
{
    char *pem = to_pem(k, 1), *name = NULL, *hdr = NULL;
    unsigned char *der = NULL;
    long dl = 0;
    BIO *b = BIO_new_mem_buf(pem, -1);
    CU_ASSERT_FATAL(PEM_read_bio(b, &name, &hdr, &der, &dl) == 1);
    BIO_free(b);
    OPENSSL_free(pem);
    OPENSSL_free(name);
    OPENSSL_free(hdr);
    *len = (size_t)dl;
    *core = *len - strlen(state) - 2 - xmss_sk_bytes(p);
    CU_ASSERT_EQUAL_FATAL(fs_load_be32(der + *core), p->oid);
    return der;
}

/* Decodes DER as a private key (NULL when refused). */
static EVP_PKEY *decode(const unsigned char *der, size_t len)
{
    char *pem = NULL;
    BIO *b = BIO_new(BIO_s_mem());
    EVP_PKEY *k;
    long pl;
    PEM_write_bio(b, "PRIVATE KEY", "", der, (long)len);
    pl = BIO_get_mem_data(b, &pem);
    BIO *r = BIO_new_mem_buf(pem, (int)pl);
    ERR_clear_error();
    k = PEM_read_bio_PrivateKey_ex(r, NULL, NULL, NULL, libctx, NULL);
    ERR_clear_error();
    BIO_free(r);
    BIO_free(b);
    return k;
}

static void damaged(size_t row)
{
    const xmss_params *p = xmss_params_by_name(rows[row].param);
    int tree = rows[row].kind != XMSS_KIND_WOTSP;
    char state[600], cache[640], keep[660];
    unsigned char *sig = NULL, *der, *cbytes = NULL, *now;
    size_t siglen, len, core, clen = 0, nlen;
    EVP_PKEY *k = gen_key(rows[row].alg, rows[row].param, NULL, NULL, state, sizeof(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    snprintf(cache, sizeof(cache), "%s.cache", state);
    snprintf(keep, sizeof(keep), "%s.keep", cache);
    if (tree) /* a signer has used the key and its cache */
        CU_ASSERT_EQUAL(sign_msg(k, "before", 6, &sig, &siglen, 0), 0);
    OPENSSL_free(sig);
    der = priv_der(k, state, p, &len, &core);
    EVP_PKEY_free(k); /* writes the cache it changed */
    if (tree)
        CU_ASSERT_PTR_NOT_NULL_FATAL(cbytes = read_file(cache, &clen));
    for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
        for (int with_cache = tree; with_cache >= 0; with_cache--) {
            size_t at = core + 4 + (tree ? p->idx_bytes : 0) + (size_t)fields[f].at * p->n + 3;
            int prf = fields[f].at == 1;
            uint64_t next = state_file_next(state);
            if (tree && !with_cache)
                CU_ASSERT_EQUAL(rename(cache, keep), 0);
            der[at] ^= 0x08;
            EVP_PKEY *d = decode(der, len);
            der[at] ^= 0x08;
            if (prf) {
                CU_ASSERT_PTR_NOT_NULL_FATAL(d);
                CU_ASSERT_EQUAL(sign_msg(d, "prf", 3, &sig, &siglen, 0), 0);
                CU_ASSERT(verify_msg(d, "prf", 3, sig, siglen));
                OPENSSL_free(sig);
            } else {
                CU_ASSERT_PTR_NOT_NULL_FATAL(d);
                for (int t = 0; t < 2; t++) {
                    CU_ASSERT_EQUAL(sign_msg(d, "damaged", 7, &sig, &siglen, 0),
                                    FASTSIG_ERR_KEY_MISMATCH);
                    CU_ASSERT_PTR_NULL(sig);
                }
            }
            EVP_PKEY_free(d);
            if (!prf) {
                if (state_file_next(state) != next)
                    fprintf(stderr, "\n%s %s (cache %d): index moved\n", rows[row].alg,
                            fields[f].name, with_cache);
                CU_ASSERT_EQUAL(state_file_next(state), next);
                /* the cache file: as it was, or still absent */
                now = read_file(cache, &nlen);
                if (with_cache) {
                    CU_ASSERT(now != NULL && nlen == clen && memcmp(now, cbytes, clen) == 0);
                } else {
                    CU_ASSERT_PTR_NULL(now);
                }
                free(now);
            }
            if (tree && !with_cache) {
                remove(cache);
                CU_ASSERT_EQUAL(rename(keep, cache), 0);
            }
        }
    }
    OPENSSL_free(der);
    free(cbytes);
}

static void test_damaged_xmss(void)
{
    damaged(0);
}

static void test_damaged_xmssmt(void)
{
    damaged(1);
}

static void test_damaged_wotsp(void)
{
    damaged(2);
}

/* ---- verify-after-sign ------------------------------------------------------ */

/* Digest-sign with the context parameter prm; 0 or the fastsig reason.
 * *got: the option read back from the context. */
static int sign_with(EVP_PKEY *k, const OSSL_PARAM *prm, unsigned char **sig, size_t *siglen,
                     int *got)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    OSSL_PARAM g[2] = { OSSL_PARAM_construct_int(FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN, got),
                        OSSL_PARAM_construct_end() };
    size_t cap = 0;
    int rc = 0;
    *sig = NULL;
    *got = -1;
    if (EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, prm) <= 0
        || !EVP_PKEY_CTX_get_params(EVP_MD_CTX_get_pkey_ctx(m), g)
        || EVP_DigestSign(m, NULL, &cap, (const unsigned char *)"vas", 3) <= 0
        || (*sig = OPENSSL_malloc(cap)) == NULL
        || EVP_DigestSign(m, *sig, &cap, (const unsigned char *)"vas", 3) <= 0) {
        rc = last_reason();
        rc = rc ? rc : -1;
        OPENSSL_free(*sig);
        *sig = NULL;
    }
    *siglen = cap;
    EVP_MD_CTX_free(m);
    return rc;
}

static void test_verify_after_sign(void)
{
    for (size_t row = 0; row < N_ROWS; row++) {
        char state[600];
        unsigned char *sig;
        size_t siglen;
        int one = 1, two = 2, got;
        OSSL_PARAM as_int[2] = { OSSL_PARAM_construct_int(FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN,
                                                          &one),
                                 OSSL_PARAM_construct_end() };
        OSSL_PARAM as_text[2] = {
            OSSL_PARAM_construct_utf8_string(FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN, "1", 0),
            OSSL_PARAM_construct_end()
        };
        OSSL_PARAM bad_int[2] = { OSSL_PARAM_construct_int(FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN,
                                                           &two),
                                  OSSL_PARAM_construct_end() };
        OSSL_PARAM bad_text[2] = {
            OSSL_PARAM_construct_utf8_string(FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN, "yes", 0),
            OSSL_PARAM_construct_end()
        };
        EVP_PKEY *k = gen_key(rows[row].alg, rows[row].param, NULL, NULL, state, sizeof(state));
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        /* refused values spend nothing */
        CU_ASSERT_NOT_EQUAL(sign_with(k, bad_int, &sig, &siglen, &got), 0);
        CU_ASSERT_NOT_EQUAL(sign_with(k, bad_text, &sig, &siglen, &got), 0);
        CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_INDEX), 0);
        CU_ASSERT_EQUAL(sign_with(k, as_int, &sig, &siglen, &got), 0);
        CU_ASSERT_EQUAL(got, 1);
        CU_ASSERT(sig != NULL && verify_msg(k, "vas", 3, sig, siglen));
        OPENSSL_free(sig);
        if (rows[row].kind != XMSS_KIND_WOTSP) {
            CU_ASSERT_EQUAL(sign_with(k, as_text, &sig, &siglen, &got), 0);
            CU_ASSERT_EQUAL(got, 1);
            CU_ASSERT(sig != NULL && verify_msg(k, "vas", 3, sig, siglen));
            OPENSSL_free(sig);
            CU_ASSERT_EQUAL(sign_with(k, NULL, &sig, &siglen, &got), 0); /* default: off */
            CU_ASSERT_EQUAL(got, 0);
            OPENSSL_free(sig);
        }
        EVP_PKEY_free(k);
    }
}

static void test_settable(void)
{
    for (size_t row = 0; row < N_ROWS; row++) {
        EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(libctx, rows[row].alg, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        const OSSL_PARAM *t = EVP_SIGNATURE_settable_ctx_params(s);
        CU_ASSERT_PTR_NOT_NULL(OSSL_PARAM_locate_const(t, FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN));
        EVP_SIGNATURE_free(s);
    }
}

static void setup(void)
{
    stateful_load();
}

static void teardown(void)
{
    stateful_unload();
}

int main(void)
{
    static const fs_test tests[] = {
        { "load providers", setup },
        { "XMSS: flipped seed or root refused, index and cache kept", test_damaged_xmss },
        { "XMSS^MT: the same", test_damaged_xmssmt },
        { "WOTSP: the same", test_damaged_wotsp },
        { "verify-after-sign: listed as settable", test_settable },
        { "verify-after-sign: values, sign, verify", test_verify_after_sign },
        { "unload providers", teardown },
        { NULL, NULL },
    };
    return fs_cu_run("fault_evp", tests);
}
