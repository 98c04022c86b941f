/* bench_lms.c - the LMS / HSS core (crypto/lms) without the provider and
 * without state I/O, beside OpenSSL Ed25519 through EVP in the same run:
 * keygen, sign in memory (the next index each time; an HSS key crossing
 * into a new lower tree pays for that tree then), verify; and the fused
 * LM-OTS chain kernels per lane-step beside one EVP SHA-256 of the same
 * 55-byte message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "bench.h"
#include "kernel_bound.h"
#include "bench_stateful.h"
#include "cpu.h"
#include "hash/sha256_chain.h"
#include "lms/hss.h"

#define MSG_LEN 64
static const unsigned char msg[MSG_LEN] = "fastsig-bench: a 64-byte message signed by every row, 0123456";

struct lms_job {
    unsigned L;
    lms_params lp[2];
    lmots_params op[2];
    uint8_t seed[32], I[16], pub[64];
    hss_key *k;
    uint8_t *sig;
    size_t siglen;
    uint64_t next, max;
};

static void run_keygen(void *arg, size_t iters)
{
    struct lms_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        hss_key *k = NULL;
        j->seed[0]++; /* a new key each time */
        if (hss_key_gen(&k, j->L, j->lp, j->op, j->seed, j->I, NULL, NULL) != 0)
            fprintf(stderr, "bench: LMS keygen failed\n");
        hss_key_free(k);
    }
}

static void run_sign(void *arg, size_t iters)
{
    struct lms_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        if (hss_sign(j->k, j->next, msg, MSG_LEN, j->sig) != 0)
            fprintf(stderr, "bench: LMS sign failed\n");
        j->next = (j->next + 1) % j->max;
    }
}

static void run_verify(void *arg, size_t iters)
{
    struct lms_job *j = arg;
    for (size_t i = 0; i < iters; i++)
        if (hss_verify(j->pub, hss_pub_bytes(j->k), msg, MSG_LEN, j->sig, j->siglen) != 0)
            fprintf(stderr, "bench: LMS verify failed\n");
}

static void run_ed_keygen(void *arg, size_t iters)
{
    (void)arg;
    for (size_t i = 0; i < iters; i++)
        EVP_PKEY_free(bench_stateful_base_keygen("ED25519"));
}

/* ---- the fused chain kernels: one repetition is one lane-step ---------- */
struct kernel_job {
    fs_chain_fn *fn;
    unsigned lanes; /* the row's: 16, or 32 in two groups */
    _Alignas(64) uint32_t x[8 * FS_CHAIN_MAX_LANES], qij[FS_CHAIN_MAX_WORDS * FS_CHAIN_MAX_LANES];
};

static void run_kernel(void *arg, size_t iters)
{
    static const uint32_t I[8] = { 1, 2, 3, 4 };
    struct kernel_job *k = arg;
    k->fn(k->x, k->qij, I, (iters + k->lanes - 1) / k->lanes, 32);
}

static void run_evp_step(void *arg, size_t iters)
{
    static const unsigned char step[55] = { 1 };
    unsigned char md[32];
    for (size_t i = 0; i < iters; i++)
        EVP_Digest(step, sizeof(step), md, NULL, arg, NULL);
}

static void chain_kernel_rows(void)
{
    EVP_MD *sha = EVP_MD_fetch(bench_libctx(), "SHA256", "provider=default");
    if (sha == NULL)
        return;
    for (const fs_kernel *k = fs_lmots_chain_kernels; k->name; k++) {
        if (!fs_cpu_allows(k->cpu))
            continue;
        struct kernel_job j = { .fn = fs_chain_fn_of(k), .lanes = k->lanes };
        bench_spec s = { "lms-chain-step", k->name, "ns", "EVP SHA-256 55 B", 0 };
        bench_kernel_bound(s.op, s.variant, fs_lmots_chain_table.name, k->name);
        bench_compare(&s, run_kernel, &j, run_evp_step, sha);
    }
    EVP_MD_free(sha);
}

static void bench_lms(void)
{
    chain_kernel_rows();
    static const struct { const char *prefix, *variant, *lms[2], *ots[2]; unsigned L; } sets[] = {
        { "lms", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", { "LMS_SHA256_M32_H10" },
          { "LMOTS_SHA256_N32_W4" }, 1 },
        { "lms", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8", { "LMS_SHA256_M32_H10" },
          { "LMOTS_SHA256_N32_W8" }, 1 },
        { "lms", "LMS_SHA256_M24_H10/LMOTS_SHA256_N24_W4", { "LMS_SHA256_M24_H10" },
          { "LMOTS_SHA256_N24_W4" }, 1 }, /* SP 800-208's SHA-256/192 */
        { "lms", "LMS_SHAKE_M24_H10/LMOTS_SHAKE_N24_W4", { "LMS_SHAKE_M24_H10" },
          { "LMOTS_SHAKE_N24_W4" }, 1 }, /* ... and SHAKE256/192 */
        { "hss", "L=2 H10/H10 W4", { "LMS_SHA256_M32_H10", "LMS_SHA256_M32_H10" },
          { "LMOTS_SHA256_N32_W4", "LMOTS_SHA256_N32_W4" }, 2 },
    };
    EVP_PKEY *ed = bench_stateful_base_keygen("ED25519");
    void *edv = ed != NULL ? bench_stateful_verify_job(ed, NULL) : NULL;
    if (edv == NULL) {
        fprintf(stderr, "bench: lms set-up failed\n");
        EVP_PKEY_free(ed);
        return;
    }
    for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
        struct lms_job j = { .L = sets[s].L };
        for (unsigned i = 0; i < j.L; i++)
            if (lms_params_by_name(&j.lp[i], sets[s].lms[i]) != 0 ||
                lmots_params_by_name(&j.op[i], sets[s].ots[i]) != 0)
                j.L = 0;
        for (size_t i = 0; i < sizeof(j.seed); i++)
            j.seed[i] = (uint8_t)(7 * i + 1);
        if (j.L == 0 || hss_key_gen(&j.k, j.L, j.lp, j.op, j.seed, j.I, NULL, NULL) != 0)
            continue;
        hss_pub(j.k, j.pub);
        j.siglen = hss_sig_bytes(j.k);
        j.max = (uint64_t)1 << hss_total_height(j.k);
        j.sig = malloc(j.siglen);
        if (j.sig != NULL) {
            char op[32];
            run_sign(&j, 1);
            snprintf(op, sizeof(op), "%s-keygen", sets[s].prefix);
            bench_spec ks = { op, sets[s].variant, "us", "Ed25519", 0 };
            bench_compare(&ks, run_keygen, &j, run_ed_keygen, NULL);
            snprintf(op, sizeof(op), "%s-sign", sets[s].prefix);
            bench_spec ss = { op, sets[s].variant, "us", "Ed25519", 0 };
            bench_compare(&ss, run_sign, &j, bench_stateful_run_sign, ed);
            snprintf(op, sizeof(op), "%s-verify", sets[s].prefix);
            bench_spec vs = { op, sets[s].variant, "us", "Ed25519", 0 };
            bench_compare(&vs, run_verify, &j, bench_stateful_run_verify, edv);
        }
        free(j.sig);
        hss_key_free(j.k);
    }
    free(edv);
    EVP_PKEY_free(ed);
}

BENCH_GROUP(lms, bench_lms)
