/* bench_xmss.c - XMSS through EVP beside OpenSSL Ed25519 and RSA-2048
 * (PKCS#1 v1.5, SHA-256) measured in the same run: keygen, sign in-process
 * (durable state, default batch 64), sign per-process as the CLI does (a
 * new key object from the PEM, one signature, free: the cache file is
 * loaded, one index reserved, the cache written back when the signature
 * changed it: h=16, not h=10 whose tree the cache keeps whole), verify.
 *
 * Also the helpers the WOTSP and XMSS^MT groups share (bench_hbs_*).
 *
 * Signing consumes indices, so a stateful row cannot let bench_compare
 * calibrate (it would exhaust an h=10 key): those rows time fixed blocks
 * (bench_hbs_compare_fixed). XMSS-SHA2_16_256 key generation (~10 s) runs
 * once, and only when rows of that set are selected. Keygen rows name the
 * "threads" option they pass: h=10 on 1 and on 2 threads, h=16 on 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include "bench.h"
#include "fastsig/provider.h"

#include "bench_hbs.h"

#define MSG_LEN 64
#define SIG_CAP 65536 /* XMSSMT-SHA2_60/12_256: 27.7 KB */
#define ROUNDS 11
static const unsigned char msg[MSG_LEN] = "fastsig-bench: a 64-byte message signed by every row, 0123456";

EVP_PKEY *bench_hbs_keygen(const char *alg, const char *param, const char *mode, const char *dir,
                           unsigned threads)
{
    static unsigned seq;
    char state[600];
    OSSL_PARAM p[5];
    size_t n = 0;
    EVP_PKEY *k = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(bench_libctx(), alg, "provider=fastsig");

    snprintf(state, sizeof(state), "%s/k%u.state", dir, seq++);
    if (param != NULL)
        p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)param, 0);
    if (mode != NULL)
        p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_MODE, (char *)mode, 0);
    if (threads != 0)
        p[n++] = OSSL_PARAM_construct_uint(FASTSIG_PKEY_PARAM_THREADS, &threads);
    p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0);
    p[n] = OSSL_PARAM_construct_end();
    if (c == NULL || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_CTX_set_params(c, p) <= 0
        || EVP_PKEY_generate(c, &k) <= 0) {
        fprintf(stderr, "bench: %s %s keygen failed\n", alg, param ? param : mode ? mode : "");
        ERR_print_errors_fp(stderr);
        k = NULL;
    }
    EVP_PKEY_CTX_free(c);
    return k;
}

/* "ED25519" or "RSA" (2048 bits) from OpenSSL's default provider. */
EVP_PKEY *bench_hbs_base_keygen(const char *alg)
{
    if (strcmp(alg, "RSA") == 0)
        return EVP_PKEY_Q_keygen(bench_libctx(), "provider=default", "RSA", (size_t)2048);
    return EVP_PKEY_Q_keygen(bench_libctx(), "provider=default", alg);
}

/* Median of n key generations; dir NULL: an OpenSSL baseline key. */
double bench_hbs_keygen_ns(const char *alg, const char *param, const char *mode, const char *dir,
                           unsigned threads, int n)
{
    double t[64];
    n = n > 64 ? 64 : n;
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_ns();
        EVP_PKEY *k = dir ? bench_hbs_keygen(alg, param, mode, dir, threads)
                          : bench_hbs_base_keygen(alg);
        t[i] = bench_now_ns() - t0;
        EVP_PKEY_free(k);
    }
    return bench_median(t, (size_t)n);
}

static void sign_with(EVP_PKEY *key, const char *md, size_t iters)
{
    static unsigned char sig[SIG_CAP];
    for (size_t i = 0; i < iters; i++) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        size_t len = sizeof(sig);
        if (EVP_DigestSignInit_ex(m, NULL, md, bench_libctx(), NULL, key, NULL) <= 0
            || EVP_DigestSign(m, sig, &len, msg, MSG_LEN) <= 0) {
            fprintf(stderr, "bench: sign failed\n");
            ERR_print_errors_fp(stderr);
        }
        EVP_MD_CTX_free(m);
    }
}

/* One EVP_DigestSignInit + EVP_DigestSign per repetition. */
void bench_hbs_run_sign(void *key, size_t iters)
{
    sign_with(key, NULL, iters);
}

void bench_hbs_run_sign_sha256(void *key, size_t iters)
{
    sign_with(key, "SHA256", iters);
}

struct verify_job {
    EVP_PKEY *key;
    const char *md;
    size_t siglen;
    unsigned char sig[SIG_CAP];
};

/* A job holding one signature of msg by key (free with free()). */
void *bench_hbs_verify_job(EVP_PKEY *key, const char *md)
{
    struct verify_job *j = calloc(1, sizeof(*j));
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    j->key = key;
    j->md = md;
    j->siglen = sizeof(j->sig);
    if (EVP_DigestSignInit_ex(m, NULL, md, bench_libctx(), NULL, key, NULL) <= 0
        || EVP_DigestSign(m, j->sig, &j->siglen, msg, MSG_LEN) <= 0) {
        fprintf(stderr, "bench: signing for the verify row failed\n");
        j->siglen = 0;
    }
    EVP_MD_CTX_free(m);
    return j;
}

/* One EVP_DigestVerifyInit + EVP_DigestVerify per repetition. */
void bench_hbs_run_verify(void *job, size_t iters)
{
    struct verify_job *j = job;
    for (size_t i = 0; i < iters; i++) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        if (EVP_DigestVerifyInit_ex(m, NULL, j->md, bench_libctx(), NULL, j->key, NULL) <= 0
            || EVP_DigestVerify(m, j->sig, j->siglen, msg, MSG_LEN) != 1)
            fprintf(stderr, "bench: verify failed\n");
        EVP_MD_CTX_free(m);
    }
}

/* A verify row: key's signature of msg against base's (base_md: RSA's). */
int bench_hbs_verify_row(const bench_spec *s, EVP_PKEY *key, EVP_PKEY *base, const char *base_md)
{
    if (!bench_selected(s->op, s->variant))
        return 0;
    void *vj = bench_hbs_verify_job(key, NULL), *bj = bench_hbs_verify_job(base, base_md);
    int r = bench_compare(s, bench_hbs_run_verify, vj, bench_hbs_run_verify, bj);
    free(vj);
    free(bj);
    return r;
}

/* Per-operation median of ROUNDS blocks of iters repetitions. */
double bench_hbs_op_ns(bench_fn fn, void *arg, size_t iters)
{
    double t[ROUNDS];
    fn(arg, 1); /* warm-up */
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = bench_now_ns();
        fn(arg, iters);
        t[r] = (bench_now_ns() - t0) / (double)iters;
    }
    return bench_median(t, ROUNDS);
}

/* bench_compare for operations that consume something (indices, one-time
 * keys): fn runs exactly iters times per round (ROUNDS rounds); the baseline
 * gets blocks of about the same length, interleaved. fn is not warmed up. */
int bench_hbs_compare_fixed(const bench_spec *s, bench_fn fn, void *arg, size_t iters, bench_fn base,
                            void *base_arg)
{
    double ours[ROUNDS], theirs[ROUNDS];
    if (!bench_selected(s->op, s->variant))
        return 0;
    fprintf(stderr, "[bench] %s %s ...\n", s->op, s->variant);
    double t0 = bench_now_ns();
    base(base_arg, 1);
    double one = bench_now_ns() - t0;
    size_t biters = 0;
    for (int r = 0; r < ROUNDS; r++) {
        t0 = bench_now_ns();
        fn(arg, iters);
        ours[r] = (bench_now_ns() - t0) / (double)iters;
        if (biters == 0)
            biters = (size_t)(ours[r] * (double)iters / (one > 1 ? one : 1)) + 1;
        t0 = bench_now_ns();
        base(base_arg, biters);
        theirs[r] = (bench_now_ns() - t0) / (double)biters;
    }
    bench_report(s, bench_median(ours, ROUNDS), bench_median(theirs, ROUNDS));
    return 1;
}

int bench_hbs_tmpdir(char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/fastsig-bench-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("bench: mkdtemp");
        return 0;
    }
    return 1;
}

void bench_hbs_rmdir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
}

/* ---- the XMSS group ------------------------------------------------------ */

/* Per-process signing, as `openssl pkeyutl -sign` does it. */
struct cli_job {
    const char *pem;
    const char *md;
};

static void run_cli_sign(void *arg, size_t iters)
{
    struct cli_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        BIO *b = BIO_new_mem_buf(j->pem, -1);
        EVP_PKEY *k = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, bench_libctx(), NULL);
        BIO_free(b);
        if (k == NULL)
            fprintf(stderr, "bench: PEM load failed\n");
        else
            sign_with(k, j->md, 1);
        EVP_PKEY_free(k);
    }
}

static char *priv_pem(EVP_PKEY *k)
{
    BIO *b = BIO_new(BIO_s_mem());
    char *data, *out = NULL;
    long len;
    if (PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL)
        && (len = BIO_get_mem_data(b, &data)) > 0)
        out = OPENSSL_strndup(data, (size_t)len);
    BIO_free(b);
    return out;
}

/* Key generation on 1 and on 2 threads (the "threads" option), interleaved
 * so that the machine's load falls on both rows alike: medians of 5 each. */
static void keygen_rows(const char *set, const char *dir, const char *v1, const char *v2)
{
    bench_spec s1 = { "xmss-keygen", v1, "ms", "RSA-2048", 0 };
    bench_spec s2 = { "xmss-keygen", v2, "ms", "RSA-2048", 0 };
    int sel1 = bench_selected(s1.op, v1), sel2 = bench_selected(s2.op, v2);
    double t1[5], t2[5];
    if (!sel1 && !sel2)
        return;
    fprintf(stderr, "[bench] xmss-keygen %s 1 and 2 threads ...\n", set);
    for (int r = 0; r < 5; r++) {
        t1[r] = sel1 ? bench_hbs_keygen_ns("XMSS", set, NULL, dir, 1, 1) : 0;
        t2[r] = sel2 ? bench_hbs_keygen_ns("XMSS", set, NULL, dir, 2, 1) : 0;
    }
    double rsa = bench_hbs_keygen_ns("RSA", NULL, NULL, NULL, 0, 5);
    if (sel1)
        bench_report(&s1, bench_median(t1, 5), rsa);
    if (sel2)
        bench_report(&s2, bench_median(t2, 5), rsa);
}

static void bench_xmss_set(const char *set, int tall, const char *dir, EVP_PKEY *ed, EVP_PKEY *rsa)
{
    char v[48], v1[48];
    snprintf(v, sizeof(v), "%s 2thr", set);
    snprintf(v1, sizeof(v1), "%s 1thr", set);
    int kg_sel = bench_selected("xmss-keygen", v);
    /* the h=16 key generation is reported only when the filter names it
     * (e.g. --filter xmss-keygen): no filter or a generic one skips it */
    if (tall && bench_selected("xmss", ""))
        kg_sel = 0;
    int rows = bench_selected("xmss-sign", set) || bench_selected("xmss-sign-cli", set)
               || bench_selected("xmss-verify", set);
    if (!tall)
        keygen_rows(set, dir, v1, v);
    if (!(kg_sel && tall) && !rows)
        return;
    /* the key the rows use; for h=16 its one generation (2 threads) is the
     * keygen figure */
    bench_spec ks = { "xmss-keygen", v, "ms", "RSA-2048", 0 };
    double t0 = bench_now_ns();
    EVP_PKEY *k = bench_hbs_keygen("XMSS", set, NULL, dir, 2);
    if (kg_sel && tall && k != NULL)
        bench_report(&ks, bench_now_ns() - t0, bench_hbs_keygen_ns("RSA", NULL, NULL, NULL, 0, 5));
    if (!rows) {
        EVP_PKEY_free(k);
        return;
    }
    char *pem = k ? priv_pem(k) : NULL;
    if (pem == NULL) {
        EVP_PKEY_free(k);
        return;
    }
    snprintf(v, sizeof(v), "%s b64", set);
    bench_spec ss = { "xmss-sign", v, "us", "Ed25519", 0 };
    bench_hbs_compare_fixed(&ss, bench_hbs_run_sign, k, 8, bench_hbs_run_sign, ed);
    bench_spec sr = { "xmss-sign", v, "us", "RSA-2048", 0 };
    bench_hbs_compare_fixed(&sr, bench_hbs_run_sign, k, 8, bench_hbs_run_sign_sha256, rsa);

    /* per-process: the default batch reserves 64 indices per process, so an
     * h=10 key (1024) affords one process per round against RSA-2048 only
     * (11 x 64 beside the in-process rows' 192); h=16: 3 per round, both */
    struct cli_job ours = { pem, NULL };
    char *rsa_pem = priv_pem(rsa), *ed_pem = priv_pem(ed);
    struct cli_job ed_cli = { ed_pem, NULL }, rsa_cli = { rsa_pem, "SHA256" };
    bench_spec cs = { "xmss-sign-cli", v, "us", "Ed25519", 0 };
    bench_spec cr = { "xmss-sign-cli", v, "us", "RSA-2048", 0 };
    if (tall) {
        bench_hbs_compare_fixed(&cs, run_cli_sign, &ours, 3, run_cli_sign, &ed_cli);
        bench_hbs_compare_fixed(&cr, run_cli_sign, &ours, 3, run_cli_sign, &rsa_cli);
    } else {
        bench_hbs_compare_fixed(&cr, run_cli_sign, &ours, 1, run_cli_sign, &rsa_cli);
    }
    OPENSSL_free(rsa_pem);
    OPENSSL_free(ed_pem);

    bench_spec ve = { "xmss-verify", set, "us", "Ed25519", 0 };
    bench_hbs_verify_row(&ve, k, ed, NULL);
    bench_spec vr = { "xmss-verify", set, "us", "RSA-2048", 0 };
    bench_hbs_verify_row(&vr, k, rsa, "SHA256");
    OPENSSL_free(pem);
    EVP_PKEY_free(k);
}

static void bench_xmss(void)
{
    char dir[512];
    if (!bench_hbs_tmpdir(dir, sizeof(dir)))
        return;
    EVP_PKEY *ed = bench_hbs_base_keygen("ED25519"), *rsa = bench_hbs_base_keygen("RSA");
    if (ed != NULL && rsa != NULL) {
        bench_xmss_set("XMSS-SHA2_10_256", 0, dir, ed, rsa);
        bench_xmss_set("XMSS-SHA2_16_256", 1, dir, ed, rsa);
    }
    EVP_PKEY_free(ed);
    EVP_PKEY_free(rsa);
    bench_hbs_rmdir(dir);
}

BENCH_GROUP(xmss, bench_xmss)
