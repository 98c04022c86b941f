/* bench_rw.c - Rabin-Williams through EVP beside OpenSSL RSA (PKCS#1 v1.5,
 * SHA-256, same modulus size) and Ed25519, measured in the same run:
 * keygen, sign (compact and expanded signatures), verify (compact, expanded
 * exact, expanded probabilistic) at 2048/3072/4096 bits. A size none of
 * whose rows --filter selects generates no key.
 *
 * Verification rows reuse one EVP_PKEY_CTX (EVP_PKEY_verify) on both sides,
 * and both sides hash the 64-byte message: RW hashes inside its verify (FDH),
 * the RSA baseline runs SHA-256 then EVP_PKEY_verify. Ed25519 uses the only
 * path it has (EVP_DigestVerify, init per call). Sign rows use
 * EVP_DigestSignInit + EVP_DigestSign per call on every side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rsa.h>
#include "bench.h"
#include "bench_stateful.h"

#define MSG_LEN 64
static unsigned char msg[MSG_LEN];

/* A key of alg (bits: the "bits" generation parameter, 0 = the default);
 * also the RW key of bench_pq.c. */
EVP_PKEY *bench_rw_keygen(OSSL_LIB_CTX *lc, const char *alg, const char *props, size_t bits)
{
    EVP_PKEY *k = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc, alg, props);
    if (c != NULL && EVP_PKEY_keygen_init(c) > 0) {
        OSSL_PARAM p[2] = { OSSL_PARAM_size_t("bits", &bits), OSSL_PARAM_END };
        if (bits == 0 || EVP_PKEY_CTX_set_params(c, p) > 0)
            EVP_PKEY_generate(c, &k);
    }
    EVP_PKEY_CTX_free(c);
    return k;
}

/* ---- sign ---------------------------------------------------------------- */

struct sign_job {
    OSSL_LIB_CTX *lc;
    EVP_PKEY *key;
    const char *md;          /* NULL: the algorithm hashes itself */
    const char *rw_format;   /* NULL, or "compact"/"expanded" */
    unsigned char sig[1100];
};

static void run_sign(void *arg, size_t iters)
{
    struct sign_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
        if (j->rw_format != NULL)
            p[0] = OSSL_PARAM_construct_utf8_string("rw-format", (char *)j->rw_format, 0);
        size_t len = sizeof(j->sig);
        if (EVP_DigestSignInit_ex(m, NULL, j->md, j->lc, NULL, j->key, p) <= 0 ||
            EVP_DigestSign(m, j->sig, &len, msg, MSG_LEN) <= 0)
            fprintf(stderr, "bench_rw: sign failed\n");
        EVP_MD_CTX_free(m);
    }
}

/* ---- verify -------------------------------------------------------------- */

struct verify_job {
    EVP_PKEY_CTX *ctx;       /* verify-initialised once */
    const EVP_MD *prehash;   /* RSA: SHA-256 of the message first */
    unsigned char sig[1100];
    size_t siglen;
};

static void run_verify(void *arg, size_t iters)
{
    struct verify_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        unsigned char d[64];
        unsigned int dl = 0;
        const unsigned char *tbs = msg;
        size_t tbslen = MSG_LEN;
        if (j->prehash != NULL) {
            EVP_Digest(msg, MSG_LEN, d, &dl, j->prehash, NULL);
            tbs = d;
            tbslen = dl;
        }
        if (EVP_PKEY_verify(j->ctx, j->sig, j->siglen, tbs, tbslen) != 1)
            fprintf(stderr, "bench_rw: verify failed\n");
    }
}

static int verify_setup(struct verify_job *j, OSSL_LIB_CTX *lc, EVP_PKEY *key, const char *fmt,
                        const char *vmode, const EVP_MD *prehash)
{
    struct sign_job s = { lc, key, prehash ? "SHA256" : NULL, fmt, { 0 } };
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    if (fmt != NULL)
        p[0] = OSSL_PARAM_construct_utf8_string("rw-format", (char *)fmt, 0);
    j->siglen = sizeof(j->sig);
    int ok = EVP_DigestSignInit_ex(m, NULL, s.md, lc, NULL, key, p) > 0 &&
             EVP_DigestSign(m, j->sig, &j->siglen, msg, MSG_LEN) > 0;
    EVP_MD_CTX_free(m);
    j->prehash = prehash;
    j->ctx = EVP_PKEY_CTX_new_from_pkey(lc, key, NULL);
    ok = ok && j->ctx != NULL && EVP_PKEY_verify_init(j->ctx) > 0;
    if (ok && prehash != NULL)
        ok = EVP_PKEY_CTX_set_rsa_padding(j->ctx, RSA_PKCS1_PADDING) > 0 &&
             EVP_PKEY_CTX_set_signature_md(j->ctx, prehash) > 0;
    if (ok && vmode != NULL) {
        OSSL_PARAM v[2] = { OSSL_PARAM_construct_utf8_string("rw-verify", (char *)vmode, 0),
                            OSSL_PARAM_END };
        ok = EVP_PKEY_CTX_set_params(j->ctx, v) > 0;
    }
    return ok;
}

/* Ed25519: digest-verify with init per call (its only EVP path). */
struct ed_job {
    OSSL_LIB_CTX *lc;
    EVP_PKEY *key;
    unsigned char sig[64];
    size_t siglen;
};

static void run_ed_verify(void *arg, size_t iters)
{
    struct ed_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        if (EVP_DigestVerifyInit_ex(m, NULL, NULL, j->lc, NULL, j->key, NULL) <= 0 ||
            EVP_DigestVerify(m, j->sig, j->siglen, msg, MSG_LEN) != 1)
            fprintf(stderr, "bench_rw: Ed25519 verify failed\n");
        EVP_MD_CTX_free(m);
    }
}

/* ---- keygen -------------------------------------------------------------- */

static double keygen_ns(OSSL_LIB_CTX *lc, const char *alg, const char *props, size_t bits, int n)
{
    double t[8];
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_ns();
        EVP_PKEY *k = bench_rw_keygen(lc, alg, props, bits);
        t[i] = bench_now_ns() - t0;
        if (k == NULL)
            fprintf(stderr, "bench_rw: %s keygen failed\n", alg);
        EVP_PKEY_free(k);
    }
    return bench_median(t, (size_t)n);
}

static void bench_rw(void)
{
    static const size_t sizes[] = { 2048, 3072, 4096 };
    static const char *names[] = { "RW-2048", "RW-3072", "RW-4096" };
    OSSL_LIB_CTX *lc = bench_libctx();
    for (size_t i = 0; i < MSG_LEN; i++)
        msg[i] = (unsigned char)(i * 7 + 1);
    EVP_PKEY *ed = bench_rw_keygen(lc, "ED25519", "provider=default", 0);
    struct sign_job ed_sign = { lc, ed, NULL, NULL, { 0 } };
    struct ed_job ed_ver = { lc, ed, { 0 }, 64 };
    run_sign(&ed_sign, 1);
    memcpy(ed_ver.sig, ed_sign.sig, 64);

    static const struct { const char *op, *fmt, *mode; } forms[] = {
        { "rw-verify-compact", "compact", NULL },
        { "rw-verify-expanded", "expanded", "exact" },
        { "rw-verify-exp-prob", "expanded", "probabilistic" },
    };
    static const struct { const char *op, *fmt; } signs[] = {
        { "rw-sign", "compact" },
        { "rw-sign-expanded", "expanded" },
    };
    for (size_t s = 0; s < 3; s++) {
        char rsa_name[16];
        snprintf(rsa_name, sizeof(rsa_name), "RSA-%zu", sizes[s]);
        int rows = 0;
        for (size_t f = 0; f < 3; f++)
            rows |= bench_selected(forms[f].op, names[s]);
        for (size_t f = 0; f < 2; f++)
            rows |= bench_selected(signs[f].op, names[s]);
        if (bench_selected("rw-keygen", names[s])) {
            int n = sizes[s] >= 4096 ? 3 : 5;
            double ours = keygen_ns(lc, "RW", "provider=fastsig", sizes[s], n);
            double theirs = keygen_ns(lc, "RSA", "provider=default", sizes[s], n);
            bench_spec ks = { "rw-keygen", names[s], "ms", rsa_name, 0 };
            bench_report(&ks, ours, theirs);
        }
        if (!rows) /* keygens of seconds for nothing */
            continue;
        EVP_PKEY *rw = bench_rw_keygen(lc, "RW", "provider=fastsig", sizes[s]);
        EVP_PKEY *rsa = bench_rw_keygen(lc, "RSA", "provider=default", sizes[s]);
        if (rw == NULL || rsa == NULL) {
            fprintf(stderr, "bench_rw: no %s key (is the RW glue built?)\n", names[s]);
            EVP_PKEY_free(rw);
            EVP_PKEY_free(rsa);
            continue;
        }
        /* sign: compact, expanded */
        struct sign_job rsa_sign = { lc, rsa, "SHA256", NULL, { 0 } };
        for (size_t f = 0; f < 2; f++) {
            struct sign_job ours = { lc, rw, NULL, signs[f].fmt, { 0 } };
            bench_spec ss = { signs[f].op, names[s], "us", rsa_name, 0 };
            bench_compare(&ss, run_sign, &ours, run_sign, &rsa_sign);
            if (s == 0) {
                bench_spec se = { signs[f].op, names[s], "us", "Ed25519", 0 };
                bench_compare(&se, run_sign, &ours, run_sign, &ed_sign);
            }
        }
        /* verify: compact, expanded exact, expanded probabilistic */
        struct verify_job rsa_ver;
        int rsa_ok = verify_setup(&rsa_ver, lc, rsa, NULL, NULL, EVP_sha256());
        for (size_t f = 0; f < 3; f++) {
            struct verify_job v;
            if (!verify_setup(&v, lc, rw, forms[f].fmt, forms[f].mode, NULL) || !rsa_ok) {
                fprintf(stderr, "bench_rw: %s setup failed\n", forms[f].op);
                continue;
            }
            bench_spec vs = { forms[f].op, names[s], "us", rsa_name, 0 };
            bench_compare(&vs, run_verify, &v, run_verify, &rsa_ver);
            if (s == 0) {
                bench_spec ve = { forms[f].op, names[s], "us", "Ed25519", 0 };
                bench_compare(&ve, run_verify, &v, run_ed_verify, &ed_ver);
            }
            EVP_PKEY_CTX_free(v.ctx);
        }
        EVP_PKEY_CTX_free(rsa_ver.ctx);
        EVP_PKEY_free(rw);
        EVP_PKEY_free(rsa);
    }
    EVP_PKEY_free(ed);
}

BENCH_GROUP(rw, bench_rw)
