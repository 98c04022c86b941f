/* test_verify_kat.c - libfastsig-verify (<fastsig/verify.h>) against every
 * XMSS, XMSS^MT, LMS and HSS known answer of test/vectors (xmss/, lms/: RFC
 * 8554, draft-fluhrer-lms-more-parm-sets, the 80 ACVP LMS sets),
 * one-shot and streamed on random splits of the message; every signature
 * tampered (bits flipped along it, truncated, extended), the message and
 * the key changed: all refused. Plain C with its own runner (no CUnit) so
 * that the same program runs cross-built under qemu-arm (scripts/test.sh).
 * Prints one line per vector and a summary; exits 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig/verify.h"
#include "vecfile.h"
#include "verify_cases.h"
#include "xmss_vec.h"

static unsigned checks, failures;

void fs_vector_missing(const char *msg)
{
    (void)msg;
    failures++;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void check(int ok, const char *name, const char *what, int rc)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s: %s (code %d: %s)\n", name, what, rc, fastsig_strerror(rc));
    }
}

/* The message in random pieces (empty ones included). */
static int streamed(int scheme, const uint8_t *pk, size_t pklen, const uint8_t *msg, size_t mlen,
                    const uint8_t *sig, size_t siglen)
{
    fastsig_verify_ctx ctx;
    int rc = fastsig_verify_init(&ctx, scheme, pk, pklen, sig, siglen);
    for (size_t at = 0; rc == FASTSIG_OK && at < mlen;) {
        size_t piece = (size_t)(next_rand() % (mlen - at + 1));
        if (next_rand() % 4 == 0) /* short pieces too: block boundaries */
            piece = piece % 3;
        rc = fastsig_verify_update(&ctx, msg + at, piece);
        at += piece;
    }
    return rc == FASTSIG_OK ? fastsig_verify_final(&ctx) : rc;
}

/* Both ways: one-shot, and streamed; both must agree with want_ok. */
static void both(const char *name, const char *what, int want_ok, int scheme, const uint8_t *pk,
                 size_t pklen, const uint8_t *msg, size_t mlen, const uint8_t *sig, size_t siglen)
{
    char label[160];
    int rc = fastsig_verify(scheme, pk, pklen, msg, mlen, sig, siglen);
    snprintf(label, sizeof(label), "%s (one-shot)", what);
    check(want_ok ? rc == FASTSIG_OK : rc != FASTSIG_OK, name, label, rc);
    rc = streamed(scheme, pk, pklen, msg, mlen, sig, siglen);
    snprintf(label, sizeof(label), "%s (streamed)", what);
    check(want_ok ? rc == FASTSIG_OK : rc != FASTSIG_OK, name, label, rc);
}

#define TAMPERS 12

/* A valid signature, then everything changed about it refused. */
static void holds(const char *name, int scheme, const uint8_t *pk, size_t pklen,
                  const uint8_t *msg, size_t mlen, const uint8_t *sig, size_t siglen)
{
    unsigned before = failures;
    for (int i = 0; i < 3; i++)
        both(name, "valid signature", 1, scheme, pk, pklen, msg, mlen, sig, siglen);
    uint8_t *s = malloc(siglen + 1), *m = malloc(mlen + 1), *k = malloc(pklen);
    memcpy(s, sig, siglen);
    for (int t = 0; t < TAMPERS; t++) { /* spread along it, the first and last bytes included */
        size_t pos = t == TAMPERS - 1 ? siglen - 1 : (size_t)t * siglen / (TAMPERS - 1);
        uint8_t bit = (uint8_t)(1u << (next_rand() % 8));
        s[pos] ^= bit;
        both(name, "bit flipped in the signature", 0, scheme, pk, pklen, msg, mlen, s, siglen);
        s[pos] ^= bit;
    }
    both(name, "signature truncated", 0, scheme, pk, pklen, msg, mlen, s, siglen - 1);
    s[siglen] = 0;
    both(name, "signature extended", 0, scheme, pk, pklen, msg, mlen, s, siglen + 1);
    memcpy(m, msg, mlen);
    m[mlen] = 0;
    both(name, "message extended", 0, scheme, pk, pklen, m, mlen + 1, sig, siglen);
    if (mlen) {
        m[next_rand() % mlen] ^= 1;
        both(name, "bit flipped in the message", 0, scheme, pk, pklen, m, mlen, sig, siglen);
    }
    memcpy(k, pk, pklen);
    k[pklen - 1] ^= 0x80; /* XMSS: PUB_SEED; LMS, HSS: T[1] */
    both(name, "bit flipped in the key", 0, scheme, k, pklen, msg, mlen, sig, siglen);
    free(s);
    free(m);
    free(k);
    printf("%s %s\n", failures == before ? "ok  " : "FAIL", name);
}

static const char *const xmss_files[] = {
    "XMSS-SHA2_10_256.txt", "XMSS-SHA2_10_192.txt", "XMSS-SHA2_10_512.txt",
    "XMSS-SHAKE_10_256.txt", "XMSS-SHAKE_10_512.txt", "XMSS-SHAKE256_10_256.txt",
    "XMSS-SHAKE256_10_192.txt", "XMSSMT-SHA2_20-2_256.txt", "XMSSMT-SHA2_20-4_256.txt",
    "XMSSMT-SHA2_20-4_192.txt", "XMSSMT-SHA2_40-8_256.txt", "XMSSMT-SHA2_60-12_256.txt",
    "XMSSMT-SHAKE_20-4_256.txt", "XMSSMT-SHAKE256_20-4_256.txt",
    "XMSSMT-SHAKE256_20-4_192.txt",
};

static void xmss_file(const char *file)
{
    static const char *const sigs[] = { "sig_idx0", "sig_idx1", "sig_idxlast" };
    xmss_vec *v = xmss_vec_load(file);
    size_t pklen, mlen;
    uint8_t *pk = xmss_vec_bytes(v, "pk", &pklen), *msg = xmss_vec_bytes(v, "msg", &mlen);
    const char *set = xmss_vec_get(v, "name");
    check(pk && msg && set, file, "pk, msg and name present", 0);
    int scheme = set && strncmp(set, "XMSSMT", 6) == 0 ? FASTSIG_VERIFY_XMSSMT : FASTSIG_VERIFY_XMSS;
    for (size_t i = 0; pk && msg && set && i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        size_t siglen;
        uint8_t *sig = xmss_vec_bytes(v, sigs[i], &siglen);
        char name[96];
        snprintf(name, sizeof(name), "%s %s", set, sigs[i]);
        check(sig != NULL, name, "signature present", 0);
        if (sig)
            holds(name, scheme, pk, pklen, msg, mlen, sig, siglen);
        /* the other family's oid space names another set (or none) */
        if (sig && i == 0)
            both(name, "other scheme", 0,
                 scheme == FASTSIG_VERIFY_XMSS ? FASTSIG_VERIFY_XMSSMT : FASTSIG_VERIFY_XMSS, pk,
                 pklen, msg, mlen, sig, siglen);
        free(sig);
    }
    free(pk);
    free(msg);
    xmss_vec_free(v);
}

static const char *const lms_files[] = {
    "rfc8554-tc1.txt", "rfc8554-tc2.txt", "LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8.txt",
    "LMS_SHAKE_M24_H5-LMOTS_SHAKE_N24_W8.txt", "LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8.txt",
};

static void lms_file(const char *file)
{
    char rel[128];
    snprintf(rel, sizeof(rel), "../lms/%s", file); /* the reader prefixes xmss/ */
    xmss_vec *v = xmss_vec_load(rel);
    size_t pklen, mlen, siglen;
    uint8_t *pk = xmss_vec_bytes(v, "pub", &pklen), *msg = xmss_vec_bytes(v, "msg", &mlen);
    uint8_t *sig = xmss_vec_bytes(v, "sig", &siglen);
    const char *levels = xmss_vec_get(v, "levels");
    char name[96];
    snprintf(name, sizeof(name), "HSS %s", file);
    check(pk && msg && sig && levels, name, "pub, msg, sig and levels present", 0);
    if (pk && msg && sig && levels) {
        holds(name, FASTSIG_VERIFY_HSS, pk, pklen, msg, mlen, sig, siglen);
        if (strcmp(levels, "1") == 0) { /* the bare LMS encodings of the same */
            snprintf(name, sizeof(name), "LMS %s", file);
            holds(name, FASTSIG_VERIFY_LMS, pk + 4, pklen - 4, msg, mlen, sig + 4, siglen - 4);
        }
    }
    free(pk);
    free(msg);
    free(sig);
    xmss_vec_free(v);
}

/* The 80 ACVP LMS cases (every LMS and LM-OTS set): held as bare LMS, and
 * as an L = 1 HSS signature (the level counts put in front) one-shot and
 * streamed, tampered once. */
static void acvp_cases(void)
{
    verify_case *c;
    size_t n = verify_cases_acvp(&c);
    check(n == 80, "ACVP", "80 cases read", (int)n);
    for (size_t i = 0; i < n; i++) {
        const verify_case *k = &c[i];
        holds(k->name, FASTSIG_VERIFY_LMS, k->pk, k->pklen, k->msg, k->mlen, k->sig, k->siglen);
        uint8_t *hpk = malloc(k->pklen + 4), *hsig = malloc(k->siglen + 4);
        memcpy(hpk, "\0\0\0\1", 4); /* L = 1 */
        memcpy(hpk + 4, k->pk, k->pklen);
        memcpy(hsig, "\0\0\0\0", 4); /* L - 1 = 0 */
        memcpy(hsig + 4, k->sig, k->siglen);
        both(k->name, "as HSS L = 1", 1, FASTSIG_VERIFY_HSS, hpk, k->pklen + 4, k->msg, k->mlen,
             hsig, k->siglen + 4);
        hsig[4 + k->siglen / 2] ^= 1;
        both(k->name, "as HSS L = 1, tampered", 0, FASTSIG_VERIFY_HSS, hpk, k->pklen + 4, k->msg,
             k->mlen, hsig, k->siglen + 4);
        free(hpk);
        free(hsig);
    }
    verify_cases_free(c, n);
}

/* Misuse of the API: refused, never a crash. */
static void api_misuse(void)
{
    fastsig_verify_ctx ctx;
    const uint8_t b[8] = { 0 };
    memset(&ctx, 0, sizeof(ctx));
    check(fastsig_verify_update(&ctx, b, 1) == FASTSIG_ERR_BAD_PARAM, "api", "update before init", 0);
    check(fastsig_verify_final(&ctx) == FASTSIG_ERR_BAD_PARAM, "api", "final before init", 0);
    check(fastsig_verify_init(&ctx, 99, b, 8, b, 8) == FASTSIG_ERR_BAD_PARAM, "api", "unknown scheme", 0);
    check(fastsig_verify_final(&ctx) == FASTSIG_ERR_BAD_PARAM, "api", "final after a failed init", 0);
    check(fastsig_verify(FASTSIG_VERIFY_HSS, NULL, 0, NULL, 0, NULL, 0) != FASTSIG_OK, "api", "NULLs", 0);
    check(fastsig_verify_init(NULL, FASTSIG_VERIFY_LMS, b, 8, b, 8) == FASTSIG_ERR_NULL_ARG, "api", "NULL context", 0);
    printf("ok   api misuse\n");
}

int main(void)
{
    for (size_t i = 0; i < sizeof(xmss_files) / sizeof(xmss_files[0]); i++)
        xmss_file(xmss_files[i]);
    for (size_t i = 0; i < sizeof(lms_files) / sizeof(lms_files[0]); i++)
        lms_file(lms_files[i]);
    acvp_cases();
    api_misuse();
    printf("verify-kat: %u checks, %u passed, %u failed\n", checks, checks - failures, failures);
    return failures ? 1 : 0;
}
