/* test_hss_evp.c - LMS / HSS through EVP only (the provider loaded by
 * path): keys from the published SEED and I give the published public
 * keys and, at the published q, the published signatures byte for byte;
 * RFC 8554's test cases 1 and 2 verify through a raw public key imported
 * with EVP_PKEY_fromdata; the SPKI is the OID with parameters absent around
 * the raw key; round trips for a set of each hash family and HSS L = 2
 * (the third signature at an index the state was moved to, signed by a key
 * decoded anew); tampering; an exhausted key; private PEM continuing the
 * state; the process, thread and SIGKILL checks of the stateful rows.
 *
 * Every parameter set, from the core's table (4 families x h 5..25 x w
 * 1..8): generated on 2 threads, PEM and DER of both halves, signatures at
 * 0, 1 and the last index, tampering, pkey -text, the index. The default run
 * takes every w at H5 and H10 and each family at H15/W4 (36 of 80; H15
 * builds 2^15 leaves, seconds each); FASTSIG_SOAK=1 every set within
 * SOAK_BUDGET (69 of 80; H20 and H25 at full height: an LMS height is part
 * of its typecode, so there is no reduced-height key through EVP; the core's
 * unit suite runs the tall trees' split cache on small ones). HSS mixes (heights and w
 * differing per level, L up to 8) at small heights by default, taller ones
 * under FASTSIG_SOAK=1. */
#include <inttypes.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "stateful_evp.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "xmss_vec.h"
#include "lms/lms_params.h"

#define H5_W8(f, n) "LMS_" f "_M" n "_H5/LMOTS_" f "_N" n "_W8"

/* Published vectors with their top tree's SEED and I: the levels to
 * generate (tc2's lower level as published), and q of the published
 * signature when it is an L = 1 one (UINT64_MAX: not compared). */
static const struct {
    const char *file, *param;
    uint64_t q;
} kats[] = {
    { "rfc8554-tc2.txt", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4," H5_W8("SHA256", "32"),
      UINT64_MAX },
    { "LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8.txt", H5_W8("SHA256", "24"), 5 },
    { "LMS_SHAKE_M24_H5-LMOTS_SHAKE_N24_W8.txt", H5_W8("SHAKE", "24"), 6 },
    { "LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8.txt", H5_W8("SHAKE", "32"), 7 },
};

static xmss_vec *load(const char *file)
{
    char rel[128];
    snprintf(rel, sizeof(rel), "../lms/%s", file); /* xmss_vec reads under xmss/ */
    return xmss_vec_load(rel);
}

static void test_kat(void)
{
    for (size_t i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
        xmss_vec *v = load(kats[i].file);
        char seed[200], state[600];
        unsigned char pub[100], *want, *sig, *msg;
        size_t len = 0, wlen, siglen, mlen;
        EVP_PKEY *k;

        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        snprintf(seed, sizeof(seed), "%s%s", xmss_vec_get(v, "seed"), xmss_vec_get(v, "I"));
        k = gen_key(FASTSIG_SIG_HSS, kats[i].param, seed, NULL, state, sizeof(state));
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        want = xmss_vec_bytes(v, "pub", &wlen);
        CU_ASSERT(get_pub(k, pub, sizeof(pub), &len) && len == wlen
                  && memcmp(pub, want, wlen) == 0);
        free(want);
        msg = xmss_vec_bytes(v, "msg", &mlen);
        if (kats[i].q != UINT64_MAX) {
            CU_ASSERT_EQUAL_FATAL(state_jump(k, state, kats[i].q), FASTSIG_OK);
            CU_ASSERT_EQUAL_FATAL(sign_msg(k, msg, mlen, &sig, &siglen, 0), 0);
            want = xmss_vec_bytes(v, "sig", &wlen);
            CU_ASSERT(siglen == wlen && memcmp(sig, want, wlen) == 0);
            free(want);
            OPENSSL_free(sig);
        }
        free(msg);
        EVP_PKEY_free(k);
        xmss_vec_free(v);
    }
}

/* A raw RFC 8554 HSS public key as another implementation hands it over. */
static EVP_PKEY *import_pub(const unsigned char *pub, size_t len)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, FASTSIG_SIG_LMS, NULL);
    EVP_PKEY *k = NULL;
    OSSL_PARAM p[] = { OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                         (void *)pub, len),
                       OSSL_PARAM_construct_end() };
    if (c == NULL || EVP_PKEY_fromdata_init(c) != 1
        || EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, p) != 1)
        k = NULL;
    EVP_PKEY_CTX_free(c);
    return k;
}

/* Every published signature verifies under its raw public key, tampered
 * copies do not; the SPKI is SEQUENCE { SEQUENCE { OID }, BIT STRING {
 * raw key } } with the parameters absent. */
static void test_interop(void)
{
    static const char *const files[] = {
        "rfc8554-tc1.txt", "rfc8554-tc2.txt", "LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8.txt",
        "LMS_SHAKE_M24_H5-LMOTS_SHAKE_N24_W8.txt", "LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8.txt",
    };
    static const unsigned char oid[] = { 0x06, 0x0b, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
                                         0x01, 0x09, 0x10, 0x03, 0x11 };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        xmss_vec *v = load(files[i]);
        unsigned char *pub, *sig, *msg, *der = NULL;
        size_t plen, siglen, mlen;
        int dlen;
        EVP_PKEY *k;

        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        pub = xmss_vec_bytes(v, "pub", &plen);
        sig = xmss_vec_bytes(v, "sig", &siglen);
        msg = xmss_vec_bytes(v, "msg", &mlen);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k = import_pub(pub, plen));
        CU_ASSERT(verify_msg(k, msg, mlen, sig, siglen));
        sig[siglen / 3] ^= 1;
        CU_ASSERT(!verify_msg(k, msg, mlen, sig, siglen));
        dlen = i2d_PUBKEY(k, &der);
        CU_ASSERT_FATAL(dlen == (int)(2 + 2 + sizeof(oid) + 3 + plen));
        CU_ASSERT(der[2] == 0x30 && der[3] == sizeof(oid)
                  && memcmp(der + 4, oid, sizeof(oid)) == 0);
        CU_ASSERT(der[4 + sizeof(oid)] == 0x03 && der[5 + sizeof(oid)] == plen + 1
                  && der[6 + sizeof(oid)] == 0 && memcmp(der + 7 + sizeof(oid), pub, plen) == 0);
        OPENSSL_free(der);
        free(pub);
        free(sig);
        free(msg);
        EVP_PKEY_free(k);
        xmss_vec_free(v);
    }
}

/* The q of an L = 1 signature (after u32str(L-1)). */
static uint64_t lms_q(const unsigned char *sig)
{
    return sig_index(sig + 4, 4);
}

/* A signature of param (as the message) by signer: u32str(L-1) first, at
 * q when L = 1; it verifies under every key of ver; the last of them
 * refuses tampered copies when asked. */
static void sign_check(EVP_PKEY *signer, EVP_PKEY *const *ver, size_t nver, const char *param,
                       unsigned L, uint64_t q, int tamper)
{
    unsigned char *sig;
    size_t siglen;
    CU_ASSERT_EQUAL_FATAL(sign_msg(signer, param, strlen(param), &sig, &siglen, 0), 0);
    CU_ASSERT_EQUAL(sig_index(sig, 4), L - 1);
    if (L == 1)
        CU_ASSERT_EQUAL(lms_q(sig), q);
    for (size_t v = 0; v < nver; v++)
        CU_ASSERT(verify_msg(ver[v], param, strlen(param), sig, siglen));
    if (tamper)
        check_tamper(ver[nver - 1], param, sig, siglen);
    OPENSSL_free(sig);
}

/* Signatures at 0 and 1, then at jump (the state moved there, the key
 * decoded anew from its PEM, so its trees are built at that index); each
 * verifies under the key and its public PEM, the first not when tampered. */
static void hss_round_trip(const char *param, uint64_t jump, unsigned L)
{
    char state[600], *pub, *priv;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, param, NULL, NULL, state, sizeof(state)), *pk;
    uint64_t one = 1;
    OSSL_PARAM b1[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &one),
                         OSSL_PARAM_construct_end() };

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT(EVP_PKEY_set_params(k, b1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pub = to_pem(k, 0));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pk = from_pem(pub, 0));
    CU_ASSERT_PTR_NOT_NULL_FATAL(priv = to_pem(k, 1));
    for (int i = 0; i < 3; i++) {
        if (i == 2) {
            EVP_PKEY_free(k);
            CU_ASSERT_PTR_NOT_NULL_FATAL(k = from_pem(priv, 1));
            CU_ASSERT(EVP_PKEY_set_params(k, b1));
            CU_ASSERT_EQUAL_FATAL(state_jump(k, state, jump), FASTSIG_OK);
        }
        EVP_PKEY *ver[2] = { k, pk };
        sign_check(k, ver, 2, param, L, i < 2 ? (uint64_t)i : jump, i == 0);
    }
    CU_ASSERT_EQUAL(state_file_next(state), jump + 1);
    EVP_PKEY_free(pk);
    EVP_PKEY_free(k);
    OPENSSL_free(pub);
    OPENSSL_free(priv);
}

static void test_round_trips(void)
{
    hss_round_trip("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W1", 30, 1);
    hss_round_trip("LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W2", 30, 1);
    hss_round_trip("LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W4", 30, 1);
    hss_round_trip("LMS_SHAKE_M24_H10/LMOTS_SHAKE_N24_W8", 1000, 1);
    hss_round_trip("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", 1022, 1);
    /* L = 2 and 3: the jump lands under another top leaf than 0 and 1 */
    hss_round_trip("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
                   3 * 32 + 17, 2);
    hss_round_trip("LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4,LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4,"
                   "LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W2", 5 * 1024 + 7 * 32 + 9, 3);
}

/* ---- every parameter set ---------------------------------------------------- */

/* One round trip of a key of levels param (L levels, 2^total_h indices),
 * generated on 2 threads: PEM and DER encodings of both halves decode to the
 * same key (the DER private key, when its top tree is at most H10, signs
 * index 1: it builds its trees again); signatures at 0, 1 and, the state
 * moved there, at the last index verify under the key and both decoded
 * public keys, the first not when tampered; the index advances; pkey -text
 * names the set and the state; then the key is exhausted. */
static void set_trip(const char *param, unsigned L, unsigned total_h, unsigned top_h)
{
    char state[600], *pem[2], line[700];
    unsigned char *der[2] = { NULL, NULL }, *sig;
    size_t siglen;
    int dlen[2];
    uint64_t last = ((uint64_t)1 << total_h) - 1, one = 1;
    OSSL_PARAM b1[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &one),
                         OSSL_PARAM_construct_end() };
    EVP_PKEY *k = gen_key_ex(FASTSIG_SIG_HSS, param, NULL, NULL, 2, state, sizeof(state));
    EVP_PKEY *pub_pem, *pub_der, *priv_pem, *priv_der;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT(EVP_PKEY_set_params(k, b1));
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_MAX), last + 1);
    pem[0] = to_pem(k, 0);
    pem[1] = to_pem(k, 1);
    dlen[0] = i2d_PUBKEY(k, &der[0]);
    dlen[1] = i2d_PrivateKey(k, &der[1]);
    CU_ASSERT_FATAL(pem[0] != NULL && pem[1] != NULL && dlen[0] > 0 && dlen[1] > 0);
    const unsigned char *dp0 = der[0], *dp1 = der[1];
    pub_pem = from_pem(pem[0], 0);
    priv_pem = from_pem(pem[1], 1);
    pub_der = d2i_PUBKEY_ex(NULL, &dp0, dlen[0], libctx, NULL);
    priv_der = d2i_AutoPrivateKey_ex(NULL, &dp1, dlen[1], libctx, NULL);
    CU_ASSERT_FATAL(pub_pem != NULL && priv_pem != NULL && pub_der != NULL && priv_der != NULL);
    CU_ASSERT(EVP_PKEY_eq(k, pub_pem) == 1 && EVP_PKEY_eq(k, pub_der) == 1
              && EVP_PKEY_eq(k, priv_pem) == 1 && EVP_PKEY_eq(k, priv_der) == 1);
    CU_ASSERT(EVP_PKEY_set_params(priv_der, b1));
    for (int i = 0; i < 3; i++) {
        EVP_PKEY *signer = i == 1 && top_h <= 10 ? priv_der : k;
        if (i == 2)
            CU_ASSERT_EQUAL_FATAL(state_jump(k, state, last), FASTSIG_OK);
        EVP_PKEY *ver[3] = { k, pub_pem, pub_der };
        sign_check(signer, ver, 3, param, L, i < 2 ? (uint64_t)i : last, i == 0);
        if (i < 2)
            CU_ASSERT_EQUAL(state_file_next(state), (uint64_t)i + 1);
    }
    CU_ASSERT_EQUAL(state_file_next(state), last + 1);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 0);
    CU_ASSERT_EQUAL(sign_msg(k, "x", 1, &sig, &siglen, 0), FASTSIG_ERR_KEY_EXHAUSTED);
    /* pkey -text */
    BIO *b = BIO_new(BIO_s_mem());
    char *text = NULL;
    CU_ASSERT_FATAL(b != NULL && EVP_PKEY_print_private(b, k, 0, NULL) == 1
                    && BIO_write(b, "", 1) == 1 && BIO_get_mem_data(b, &text) > 0);
    snprintf(line, sizeof(line), "parameter set: %s\n", param);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
    snprintf(line, sizeof(line), "state: index %" PRIu64 ", remaining 0 of %" PRIu64 " signatures",
             last + 1, last + 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
    BIO_free(b);
    EVP_PKEY_free(pub_pem);
    EVP_PKEY_free(pub_der);
    EVP_PKEY_free(priv_pem);
    EVP_PKEY_free(priv_der);
    EVP_PKEY_free(k);
    for (int i = 0; i < 2; i++) {
        OPENSSL_free(pem[i]);
        OPENSSL_free(der[i]);
    }
}

/* Key generation in chain steps (2^h leaves of p chains of 2^w - 1 steps,
 * and the leaf hash), SHAKE256 counted three times (its lanes are slower). */
static double level_cost(const lms_params *lp, const lmots_params *op)
{
    return ldexp(op->p * (double)(1u << op->w), (int)lp->h)
           * (op->hash == FS_HASH_SHAKE256 ? 3 : 1);
}

/* FASTSIG_SOAK=1 runs a set when its key generation costs at most this
 * (2^35 weighted steps: up to about 15 minutes on 2 cores). Above it, 11 of
 * the 80 sets, all H25: W8 of every family (2.2e11 .. 8.8e11: hours each;
 * the key's 2^25 leaves cost 2^25 * p * 255 chain steps), W4 but for
 * SHA-256/192, and SHAKE256 with W1 or W2 (4e10 .. 1.1e11). */
#define SOAK_BUDGET 0x1p35

/* The default run: every LM-OTS set at H5 and H10, H15 at W4. */
static int set_runs(const lms_params *lp, const lmots_params *op)
{
    if (soak())
        return level_cost(lp, op) <= SOAK_BUDGET;
    return lp->h <= 10 || (lp->h == 15 && op->w == 4);
}

static void test_every_set(void)
{
    size_t done = 0, n = 0;
    for (size_t i = 0; i < lms_params_count(); i++)
        for (size_t j = 0; j < lmots_params_count(); j++) {
            lms_params lp;
            lmots_params op;
            CU_ASSERT_FATAL(lms_params_at(&lp, i) == FASTSIG_OK
                            && lmots_params_at(&op, j) == FASTSIG_OK);
            if (!lms_pair_ok(&lp, &op))
                continue;
            n++;
            char param[60];
            snprintf(param, sizeof(param), "%s/%s", lp.name, op.name);
            if (!set_runs(&lp, &op)) {
                if (soak())
                    printf("\n    %s skipped: %.1e steps", param, level_cost(&lp, &op));
                continue;
            }
            struct timespec t0, t1;
            printf("\n    %s ", param);
            fflush(stdout);
            clock_gettime(CLOCK_MONOTONIC, &t0);
            set_trip(param, 1, lp.h, lp.h);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            printf("%.1f s", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
            done++;
        }
    CU_ASSERT_EQUAL(n, 80); /* 4 families x 5 heights x 4 w */
    printf("\n  %zu of %zu sets (FASTSIG_SOAK=1: those within its budget) ", done, n);
}

/* HSS: levels of one family, heights and w differing per level, L up to 8.
 * A level is "h/w"; the family's names are put around it. */
static const struct {
    const char *fam, *n;
    int soak;
    const char *levels; /* "h/w,h/w,..." top first */
} mixes[] = {
    { "SHA256", "32", 0, "5/8,10/1" },
    { "SHA256", "24", 0, "10/2,5/4,5/8" },
    { "SHAKE", "32", 0, "5/1,5/2,5/4,5/8" },
    { "SHAKE", "24", 0, "5/4,5/1,5/8,5/2,5/4,5/1,5/8,5/2" },
    { "SHA256", "32", 0, "5/4,5/4,5/4,5/4,5/4,5/4,5/4,5/4" },
    { "SHA256", "32", 1, "10/4,10/4" },
    { "SHA256", "24", 1, "15/4,10/8" },
    { "SHAKE", "32", 1, "20/2,5/4" },
    { "SHAKE", "24", 1, "10/8,15/1,5/2" },
};

static void test_hss_mixes(void)
{
    size_t done = 0, n = sizeof(mixes) / sizeof(mixes[0]);
    for (size_t i = 0; i < n; i++) {
        char param[600], levels[64], *save = NULL;
        unsigned L = 0, total = 0, top = 0;
        size_t len = 0;
        if (mixes[i].soak && !soak())
            continue;
        snprintf(levels, sizeof(levels), "%s", mixes[i].levels);
        for (char *lv = strtok_r(levels, ",", &save); lv != NULL; lv = strtok_r(NULL, ",", &save)) {
            unsigned h, w;
            CU_ASSERT_FATAL(sscanf(lv, "%u/%u", &h, &w) == 2);
            len += (size_t)snprintf(param + len, sizeof(param) - len, "%sLMS_%s_M%s_H%u/LMOTS_%s_N%s_W%u",
                                    L ? "," : "", mixes[i].fam, mixes[i].n, h, mixes[i].fam,
                                    mixes[i].n, w);
            top = L++ ? top : h;
            total += h;
        }
        printf("\n    %s ", param);
        fflush(stdout);
        set_trip(param, L, total, top);
        done++;
    }
    printf("\n  %zu of %zu mixes (FASTSIG_SOAK=1: all) ", done, n);
}

/* The default set is one LMS level, H10 / W4; the sets and names refused. */
static void test_params(void)
{
    static const char *const bad[] = {
        "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W4", "LMS_SHA256_M32_H10/LMOTS_SHA256_N24_W4",
        "LMS_SHA256_M32_H10/LMOTS_SHAKE_N32_W4", "LMS_SHA256_M32_H11/LMOTS_SHA256_N32_W4",
        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W4",
        "LMS_SHA256_M32_H25/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H25/LMOTS_SHA256_N32_W4,"
        "LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W4", /* 65 levels of height: over the state's 63 */
        "", ",", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,", ",LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
    };
    char state[600];
    EVP_PKEY *k = gen_key(FASTSIG_SIG_LMS, NULL, NULL, NULL, state, sizeof(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_MAX), 1024);
    EVP_PKEY_free(k);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        k = gen_key(FASTSIG_SIG_HSS, bad[i], NULL, NULL, state, sizeof(state));
        CU_ASSERT_PTR_NULL(k);
        if (k != NULL)
            printf("\n  accepted: %s", bad[i]);
        EVP_PKEY_free(k);
        ERR_clear_error();
    }
    /* a seed of the wrong length */
    k = gen_key(FASTSIG_SIG_HSS, "LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8",
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", NULL,
                state, sizeof(state));
    CU_ASSERT_PTR_NULL(k);
    EVP_PKEY_free(k);
    ERR_clear_error();
}

/* 32 signatures of an H5 key, then KEY_EXHAUSTED, in this process and in
 * a key decoded anew. */
static void test_exhausted(void)
{
    char state[600], *pem;
    unsigned char *sig;
    size_t siglen;
    int bad = 0;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8", NULL, NULL,
                          state, sizeof(state));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    for (uint64_t i = 0; i < 32; i++) {
        if (sign_msg(k, "x", 1, &sig, &siglen, 0) != 0 || lms_q(sig) != i
            || !verify_msg(k, "x", 1, sig, siglen))
            bad++;
        OPENSSL_free(sig);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 0);
    CU_ASSERT_EQUAL(sign_msg(k, "x", 1, &sig, &siglen, 0), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    EVP_PKEY_free(k);
    check_decoded_refuses(pem, "x", 1, FASTSIG_ERR_KEY_EXHAUSTED);
    OPENSSL_free(pem);
}

/* The private key pem with one bit of its core flipped, back bytes before
 * the state path: PKCS#8 ends with the privateKey, whose core ends
 * ... || SEED || T[1], then BE16(path length) || path. */
static char *flip_core(const char *pem, const char *state, size_t back)
{
    char *name = NULL, *hdr = NULL, *data, *out = NULL;
    unsigned char *der = NULL;
    long len = 0, dlen;
    BIO *in = BIO_new_mem_buf(pem, -1), *mem = BIO_new(BIO_s_mem());

    if (in != NULL && mem != NULL && PEM_read_bio(in, &name, &hdr, &der, &len) == 1) {
        der[len - 2 - (long)strlen(state) - (long)back] ^= 1;
        if (PEM_write_bio(mem, name, hdr, der, len) > 0
            && (dlen = BIO_get_mem_data(mem, &data)) > 0)
            out = OPENSSL_strndup(data, (size_t)dlen);
    }
    BIO_free(in);
    BIO_free(mem);
    OPENSSL_free(name);
    OPENSSL_free(hdr);
    OPENSSL_free(der);
    return out;
}

/* A private key whose SEED does not give its T[1] (either one damaged; a
 * damaged SEED keeps the key id, so its state opens): refused at the first
 * signature, before an index is spent. */
static void test_mismatch(void)
{
    static const size_t back[] = { 1, 32 + 1 }; /* T[1]'s last byte, SEED's last byte */
    char state[600], *pem, *bad;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4", NULL, NULL,
                          state, sizeof(state));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    EVP_PKEY_free(k);
    for (size_t i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(bad = flip_core(pem, state, back[i]));
        check_decoded_refuses(bad, "m", 1, FASTSIG_ERR_KEY_MISMATCH);
        CU_ASSERT_EQUAL(state_file_next(state), 0);
        OPENSSL_free(bad);
    }
    OPENSSL_free(pem);
}

/* Raw public keys that are not HSS keys: L of 0 or 9, unknown or
 * mismatched types, a wrong length. */
static void test_bad_pub(void)
{
    static const char good[] = "00000001000000060000000300112233445566778899aabbccddeeff"
                               "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    static const struct { size_t at; const char *hex; } bad[] = {
        { 0, "00000000" }, { 0, "00000009" }, { 4, "00000001" }, { 4, "00000019" },
        { 8, "00000000" }, { 8, "00000009" }, /* SHAKE LM-OTS under a SHA-256 tree */
    };
    unsigned char raw[60];
    long len;
    unsigned char *b = OPENSSL_hexstr2buf(good, &len);
    EVP_PKEY *k;

    CU_ASSERT_FATAL(b != NULL && len == 60);
    CU_ASSERT_PTR_NOT_NULL(k = import_pub(b, 60));
    EVP_PKEY_free(k);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        long l;
        unsigned char *v = OPENSSL_hexstr2buf(bad[i].hex, &l);
        memcpy(raw, b, 60);
        memcpy(raw + bad[i].at, v, 4);
        CU_ASSERT_PTR_NULL(k = import_pub(raw, 60));
        EVP_PKEY_free(k);
        OPENSSL_free(v);
    }
    CU_ASSERT_PTR_NULL(k = import_pub(b, 59));
    EVP_PKEY_free(k);
    ERR_clear_error();
    OPENSSL_free(b);
}

static void test_batches(void)
{
    check_batches(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4");
}

/* L = 1 keys: a signature's first 8 bytes, u32str(0) || u32str(q), are its
 * index for the process checks. H15: room for their reservation blocks; W1:
 * the cheapest leaves, for the signer processes that find no node cache
 * (the first, and every one whose cache write lost a race). */
static void test_proc_key(void)
{
    proc_key_make(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W1", 32768, 8,
                  soak() ? 100 : 30, soak() ? 300 : 20);
}

/* ---- the node cache file beside the state ---- */

/* Replaces the file at path with len bytes. */
static void put_file(const char *path, const unsigned char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT(fwrite(b, 1, len, f) == len);
    fclose(f);
}

/* The cache file's bytes and mtime (ns) now. */
typedef struct {
    unsigned char *b;
    size_t len;
    struct timespec mtime;
} cache_snap;

static void snap(const char *cache, cache_snap *s)
{
    struct stat st;
    free(s->b);
    s->b = read_file(cache, &s->len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->b);
    CU_ASSERT_FATAL(stat(cache, &st) == 0);
    s->mtime = st.st_mtim;
}

static int untouched(const char *cache, const cache_snap *s)
{
    struct stat st;
    size_t len;
    unsigned char *b = read_file(cache, &len);
    int same = b != NULL && len == s->len && memcmp(b, s->b, len) == 0 && stat(cache, &st) == 0
               && st.st_mtim.tv_sec == s->mtime.tv_sec && st.st_mtim.tv_nsec == s->mtime.tv_nsec;
    free(b);
    return same;
}

/* A key decoded from pem signs one message (verified) and is freed. */
static void sign_once(const char *pem, const char *msg)
{
    unsigned char *sig = NULL;
    size_t siglen = 0;
    EVP_PKEY *k = from_pem(pem, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL_FATAL(sign_msg(k, msg, strlen(msg), &sig, &siglen, 0), 0);
    CU_ASSERT(verify_msg(k, msg, strlen(msg), sig, siglen));
    OPENSSL_free(sig);
    EVP_PKEY_free(k);
}

/* Signs once with a key decoded from pem: 1 when that rewrote the cache
 * file (bytes or mtime moved). */
static int sign_rewrites(const char *pem, const char *cache, const char *msg)
{
    cache_snap s = { NULL, 0, { 0, 0 } };
    snap(cache, &s);
    sign_once(pem, msg);
    int moved = !untouched(cache, &s);
    free(s.b);
    return moved;
}

/* Keygen writes the cache file. A key decoded anew builds its trees from
 * it: a key that had to build them rewrites the file when freed, so a file
 * left untouched by a signature (bytes and mtime) is a key that built
 * nothing. A damaged or another key's file is ignored (the signature
 * verifies) and replaced; moving to another bottom tree rewrites it. */
static void test_cache_file(void)
{
    static const char param[] =
        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4";
    char state[600], other[600], cache[640], ocache[640], *pem;
    unsigned char *b;
    size_t len;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, param, NULL, NULL, state, sizeof(state));
    EVP_PKEY *ok = gen_key(FASTSIG_SIG_HSS, param, NULL, NULL, other, sizeof(other));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ok);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    EVP_PKEY_free(k);
    EVP_PKEY_free(ok);
    snprintf(cache, sizeof(cache), "%s.cache", state);
    snprintf(ocache, sizeof(ocache), "%s.cache", other);
    CU_ASSERT(!sign_rewrites(pem, cache, "warm")); /* built from the file */
    /* damaged: ignored, rebuilt, replaced by one the next signer uses */
    CU_ASSERT_PTR_NOT_NULL_FATAL(b = read_file(cache, &len));
    b[len / 2] ^= 1;
    put_file(cache, b, len);
    free(b);
    CU_ASSERT(sign_rewrites(pem, cache, "damaged"));
    CU_ASSERT(!sign_rewrites(pem, cache, "repaired"));
    /* another key's file: ignored, replaced */
    CU_ASSERT_PTR_NOT_NULL_FATAL(b = read_file(ocache, &len));
    put_file(cache, b, len);
    free(b);
    CU_ASSERT(sign_rewrites(pem, cache, "foreign"));
    /* the state moved to another bottom tree: the file follows */
    CU_ASSERT_PTR_NOT_NULL_FATAL(k = from_pem(pem, 1));
    CU_ASSERT_EQUAL_FATAL(state_jump(k, state, 3 * 32 + 5), FASTSIG_OK);
    EVP_PKEY_free(k);
    CU_ASSERT(sign_rewrites(pem, cache, "moved"));
    CU_ASSERT(!sign_rewrites(pem, cache, "moved, warm"));
    OPENSSL_free(pem);
}

static const fs_test tests[] = {
    { "load provider", stateful_load },
    { "known answers: published public keys and signatures from SEED and I", test_kat },
    { "RFC 8554 and draft vectors verify through a raw public key; SPKI", test_interop },
    { "round trips, each hash family, L = 1..3, at a moved index", test_round_trips },
    { "every LMS set (tall trees under FASTSIG_SOAK=1): encodings, text, index, last index",
      test_every_set },
    { "HSS mixes of heights and w, L up to 8", test_hss_mixes },
    { "default set; bad sets and seeds refused", test_params },
    { "an exhausted H5 key refuses", test_exhausted },
    { "a private key whose SEED and T[1] disagree refused before spending", test_mismatch },
    { "raw public keys that are not HSS keys refused", test_bad_pub },
    { "reservation blocks and give-back", test_batches },
    { "key for the process checks", test_proc_key },
    { "node cache file: written, used, damaged or foreign ignored, follows the trees",
      test_cache_file },
    { NULL, NULL }
};

int main(void)
{
    return stateful_cu_run("hss_evp", tests);
}
