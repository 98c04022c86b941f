/* bench_xmss.c - XMSS through EVP beside OpenSSL Ed25519 and RSA-2048
 * (PKCS#1 v1.5, SHA-256) measured in the same run: keygen, sign in-process
 * (durable state, default batch 64: a series of signatures in a row, mean
 * and tail, bench_series.c), sign per-process (one real `openssl pkeyutl
 * -sign` per signature, bench_cli.c: the cache file is loaded, one index
 * reserved, the cache written back when the signature changed it), verify.
 *
 * Also the helpers the WOTSP and XMSS^MT groups share (bench_stateful_*).
 *
 * Signing consumes indices, so a stateful row cannot let bench_compare
 * calibrate (it would exhaust an h=10 key). XMSS-SHA2_16_256 key generation
 * (~10 s) runs once, and only when rows of that set are selected. Keygen
 * rows name the "threads" option they pass: h=10 on 1 and on 2 threads,
 * h=16 on 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include "bench.h"
#include "fastsig/provider.h"

#include "bench_stateful.h"

#define MSG_LEN 64
#define SIG_CAP 65536 /* XMSSMT-SHA2_60/12_256: 27.7 KB */
#define ROUNDS 11
static const unsigned char msg[MSG_LEN] = "fastsig-bench: a 64-byte message signed by every row, 0123456";

EVP_PKEY *bench_stateful_keygen(const char *alg, const char *param, const char *mode, const char *dir,
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
EVP_PKEY *bench_stateful_base_keygen(const char *alg)
{
    if (strcmp(alg, "RSA") == 0)
        return EVP_PKEY_Q_keygen(bench_libctx(), "provider=default", "RSA", (size_t)2048);
    return EVP_PKEY_Q_keygen(bench_libctx(), "provider=default", alg);
}

/* Median of n key generations; dir NULL: an OpenSSL baseline key. */
double bench_stateful_keygen_ns(const char *alg, const char *param, const char *mode, const char *dir,
                           unsigned threads, int n)
{
    double t[64];
    n = n > 64 ? 64 : n;
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_ns();
        EVP_PKEY *k = dir ? bench_stateful_keygen(alg, param, mode, dir, threads)
                          : bench_stateful_base_keygen(alg);
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

void bench_stateful_run_sign_md(EVP_PKEY *key, const char *md, size_t iters)
{
    sign_with(key, md, iters);
}

/* One EVP_DigestSignInit + EVP_DigestSign per repetition. */
void bench_stateful_run_sign(void *key, size_t iters)
{
    sign_with(key, NULL, iters);
}

void bench_stateful_run_sign_sha256(void *key, size_t iters)
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
void *bench_stateful_verify_job(EVP_PKEY *key, const char *md)
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
void bench_stateful_run_verify(void *job, size_t iters)
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
int bench_stateful_verify_row(const bench_spec *s, EVP_PKEY *key, EVP_PKEY *base, const char *base_md)
{
    if (!bench_selected(s->op, s->variant))
        return 0;
    void *vj = bench_stateful_verify_job(key, NULL), *bj = bench_stateful_verify_job(base, base_md);
    int r = bench_compare(s, bench_stateful_run_verify, vj, bench_stateful_run_verify, bj);
    free(vj);
    free(bj);
    return r;
}

/* Per-operation median of ROUNDS blocks of iters repetitions. */
double bench_stateful_op_ns(bench_fn fn, void *arg, size_t iters)
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

void bench_stateful_rmdir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
}

/* ---- the XMSS group ------------------------------------------------------ */

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
        t1[r] = sel1 ? bench_stateful_keygen_ns("XMSS", set, NULL, dir, 1, 1) : 0;
        t2[r] = sel2 ? bench_stateful_keygen_ns("XMSS", set, NULL, dir, 2, 1) : 0;
    }
    double rsa = bench_stateful_keygen_ns("RSA", NULL, NULL, NULL, 0, 5);
    if (sel1)
        bench_report(&s1, bench_median(t1, 5), rsa);
    if (sel2)
        bench_report(&s2, bench_median(t2, 5), rsa);
}

/* Steady signing: at least SERIES signatures in a row (an h=10 key holds
 * 1024: two fresh keys), each timed alone and followed by one Ed25519 and
 * one RSA-2048 signature, timed alone. The OPENERS signatures that open a
 * key's first two blocks (reserved on the spot by design: a process that
 * signs once reserves exactly one index) come before the series: what a
 * process start costs is the xmss-sign-cli row's. */
#define SERIES 2000
#define OPENERS BENCH_XMSS_OPENERS
#define CLI_PROCESSES 21

static void sign_rows(const char *variant, EVP_PKEY *const *keys, size_t nkeys, size_t per_key,
                      EVP_PKEY *ed, EVP_PKEY *rsa)
{
    bench_spec spec[2] = { { "xmss-sign", variant, "us", "Ed25519", 0 },
                           { "xmss-sign", variant, "us", "RSA-2048", 0 } };
    bench_stateful_base all[2] = { { "Ed25519", ed, NULL }, { "RSA-2048", rsa, "SHA256" } }, bases[2];
    const bench_spec *row[2];
    size_t nb = 0, n = nkeys * per_key;
    for (int b = 0; b < 2; b++)
        if (bench_selected(spec[b].op, spec[b].variant)) {
            row[nb] = &spec[b];
            bases[nb++] = all[b];
        }
    double *ours = calloc(n, sizeof(double)), *theirs[2] = { calloc(n, sizeof(double)),
                                                             calloc(n, sizeof(double)) };
    if (nb > 0 && ours != NULL && theirs[0] != NULL && theirs[1] != NULL) {
        for (size_t k = 0; k < nkeys; k++)
            bench_stateful_run_sign(keys[k], OPENERS);
        fprintf(stderr, "[bench] xmss-sign %s (%zu signatures) ...\n", variant, n);
        bench_stateful_sign_series(keys, per_key, n, bases, nb, ours, theirs);
        for (size_t b = 0; b < nb; b++)
            bench_stateful_report_series(row[b], ours, theirs[b], n);
    }
    free(ours);
    free(theirs[0]);
    free(theirs[1]);
}

/* One `openssl pkeyutl -sign` process per signature with k, Ed25519's and
 * RSA-2048's beside it. */
static void cli_rows(const char *variant, EVP_PKEY *k, const char *dir, EVP_PKEY *ed,
                     EVP_PKEY *rsa)
{
    char kf[600], ef[600], rf[600];
    if (!bench_selected("xmss-sign-cli", variant))
        return;
    if (!bench_cli_write_key(k, dir, "cli-xmss", kf, sizeof(kf)) ||
        !bench_cli_write_key(ed, dir, "cli-ed25519", ef, sizeof(ef)) ||
        !bench_cli_write_key(rsa, dir, "cli-rsa", rf, sizeof(rf)))
        return;
    bench_cli_base bases[2] = { { "Ed25519", ef }, { "RSA-2048", rf } };
    bench_cli_rows("xmss-sign-cli", variant, kf, bases, 2, CLI_PROCESSES, dir);
}

static void bench_xmss_set(const char *set, int tall, const char *dir, EVP_PKEY *ed, EVP_PKEY *rsa)
{
    char v[48], v1[48], vb[48];
    snprintf(v, sizeof(v), "%s 2thr", set);
    snprintf(v1, sizeof(v1), "%s 1thr", set);
    snprintf(vb, sizeof(vb), "%s b64", set);
    int kg_sel = bench_selected("xmss-keygen", v);
    /* the h=16 key generation is reported only when the filter names it
     * (e.g. --filter xmss-keygen): no filter or a generic one skips it */
    if (tall && bench_selected("xmss", ""))
        kg_sel = 0;
    int sign_sel = bench_selected("xmss-sign", vb), cli_sel = bench_selected("xmss-sign-cli", vb);
    int rows = sign_sel || cli_sel || bench_selected("xmss-verify", set);
    if (!tall)
        keygen_rows(set, dir, v1, v);
    if (!(kg_sel && tall) && !rows)
        return;
    /* the key the rows use; for h=16 its one generation (2 threads) is the
     * keygen figure */
    bench_spec ks = { "xmss-keygen", v, "ms", "RSA-2048", 0 };
    double t0 = bench_now_ns();
    EVP_PKEY *k = bench_stateful_keygen("XMSS", set, NULL, dir, 2);
    if (kg_sel && tall && k != NULL)
        bench_report(&ks, bench_now_ns() - t0, bench_stateful_keygen_ns("RSA", NULL, NULL, NULL, 0, 5));
    if (!rows || k == NULL) {
        EVP_PKEY_free(k);
        return;
    }
    /* h=10: fresh keys for the series and for the processes, k for verify */
    EVP_PKEY *keys[2] = { k, NULL }, *cli = k;
    size_t nkeys = 1, per_key = 2048;
    if (!tall && sign_sel) {
        nkeys = 2;
        per_key = 1024 - OPENERS;
        keys[0] = bench_stateful_keygen("XMSS", set, NULL, dir, 2);
        keys[1] = bench_stateful_keygen("XMSS", set, NULL, dir, 2);
    }
    if (sign_sel && keys[0] != NULL && (nkeys == 1 || keys[1] != NULL))
        sign_rows(vb, keys, nkeys, per_key, ed, rsa);
    if (!tall && cli_sel)
        cli = bench_stateful_keygen("XMSS", set, NULL, dir, 2);
    if (cli != NULL)
        cli_rows(vb, cli, dir, ed, rsa);

    bench_spec ve = { "xmss-verify", set, "us", "Ed25519", 0 };
    bench_stateful_verify_row(&ve, k, ed, NULL);
    bench_spec vr = { "xmss-verify", set, "us", "RSA-2048", 0 };
    bench_stateful_verify_row(&vr, k, rsa, "SHA256");
    if (keys[0] != k) {
        EVP_PKEY_free(keys[0]);
        EVP_PKEY_free(keys[1]);
    }
    if (cli != k)
        EVP_PKEY_free(cli);
    EVP_PKEY_free(k);
}

static void bench_xmss(void)
{
    static const char *const sets[] = { "XMSS-SHA2_10_256", "XMSS-SHA2_16_256" };
    char dir[512];
    int any = 0;
    for (size_t s = 0; s < 2; s++) {
        char v1[48], v2[48], vb[48];
        snprintf(v1, sizeof(v1), "%s 1thr", sets[s]);
        snprintf(v2, sizeof(v2), "%s 2thr", sets[s]);
        snprintf(vb, sizeof(vb), "%s b64", sets[s]);
        any |= bench_selected("xmss-keygen", v1) || bench_selected("xmss-keygen", v2) ||
               bench_selected("xmss-sign", vb) || bench_selected("xmss-sign-cli", vb) ||
               bench_selected("xmss-verify", sets[s]);
    }
    if (!any || !bench_stateful_tmpdir(dir, sizeof(dir))) /* no RSA keygen for nothing */
        return;
    EVP_PKEY *ed = bench_stateful_base_keygen("ED25519"), *rsa = bench_stateful_base_keygen("RSA");
    if (ed != NULL && rsa != NULL) {
        bench_xmss_set(sets[0], 0, dir, ed, rsa);
        bench_xmss_set(sets[1], 1, dir, ed, rsa);
    }
    EVP_PKEY_free(ed);
    EVP_PKEY_free(rsa);
    bench_stateful_rmdir(dir);
}

BENCH_GROUP(xmss, bench_xmss)
