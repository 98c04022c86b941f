/* bench_hbs_core.c - the WOTS+ core (crypto/hbs/wotsp.h) without the
 * provider and without state I/O, beside OpenSSL Ed25519 through EVP in the
 * same run: the rows issue #5's targets are stated for. The EVP rows, state
 * included, are bench_wots.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "bench.h"
#include "bench_hbs.h"
#include "hbs/params.h"
#include "hbs/wotsp.h"

#define MSG_LEN 64
#define CAP 8192
static const unsigned char msg[MSG_LEN] = "fastsig-bench: a 64-byte message signed by every row, 0123456";

struct core_job {
    const hbs_params *p;
    uint8_t seed[3 * 64], sk[CAP], pk[CAP], sig[CAP];
    size_t sklen, pklen, siglen;
};

static void run_core_keygen(void *arg, size_t iters)
{
    struct core_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        j->seed[0] = (uint8_t)i; /* a new key each time */
        if (hbs_wotsp_keygen(j->p, j->seed, 3 * j->p->n, j->sk, j->sklen, j->pk, j->pklen) != 0)
            fprintf(stderr, "bench: WOTS+ core keygen failed\n");
    }
}

/* The core does not count uses: signing one key again costs the same. */
static void run_core_sign(void *arg, size_t iters)
{
    struct core_job *j = arg;
    for (size_t i = 0; i < iters; i++)
        if (hbs_wotsp_sign(j->sk, j->sklen, msg, MSG_LEN, j->sig, j->siglen) != 0)
            fprintf(stderr, "bench: WOTS+ core sign failed\n");
}

static void run_core_verify(void *arg, size_t iters)
{
    struct core_job *j = arg;
    for (size_t i = 0; i < iters; i++)
        if (hbs_wotsp_verify(j->pk, j->pklen, msg, MSG_LEN, j->sig, j->siglen) != 0)
            fprintf(stderr, "bench: WOTS+ core verify failed\n");
}

static void run_ed_keygen(void *arg, size_t iters)
{
    (void)arg;
    for (size_t i = 0; i < iters; i++)
        EVP_PKEY_free(bench_hbs_base_keygen("ED25519"));
}

struct ed_verify {
    EVP_PKEY *key;
    unsigned char sig[64];
    size_t siglen;
};

static void run_ed_verify(void *arg, size_t iters)
{
    struct ed_verify *e = arg;
    for (size_t i = 0; i < iters; i++) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        if (EVP_DigestVerifyInit_ex(m, NULL, NULL, bench_libctx(), NULL, e->key, NULL) <= 0
            || EVP_DigestVerify(m, e->sig, e->siglen, msg, MSG_LEN) != 1)
            fprintf(stderr, "bench: Ed25519 verify failed\n");
        EVP_MD_CTX_free(m);
    }
}

static int ed_verify_init(struct ed_verify *e)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    e->siglen = sizeof(e->sig);
    int ok = e->key != NULL && m != NULL
             && EVP_DigestSignInit_ex(m, NULL, NULL, bench_libctx(), NULL, e->key, NULL) > 0
             && EVP_DigestSign(m, e->sig, &e->siglen, msg, MSG_LEN) > 0;
    EVP_MD_CTX_free(m);
    return ok;
}

static void bench_hbs_core(void)
{
    static const struct { const char *row, *variant; } sets[] = {
        { "WOTSP-SHA2_256", "WOTSP-SHA2_256 W16" },
        { "WOTSP-SHA2_256_W4", "WOTSP-SHA2_256 W4" },
    };
    struct ed_verify ed = { bench_hbs_base_keygen("ED25519"), { 0 }, 0 };
    struct core_job *j = calloc(1, sizeof(*j));
    if (j == NULL || !ed_verify_init(&ed)) {
        fprintf(stderr, "bench: wots-core set-up failed\n");
        goto done;
    }
    for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
        j->p = hbs_params_by_name(sets[s].row);
        if (j->p == NULL)
            continue;
        for (size_t i = 0; i < sizeof(j->seed); i++)
            j->seed[i] = (uint8_t)(7 * i + 1);
        j->sklen = hbs_sk_bytes(j->p);
        j->pklen = hbs_pk_bytes(j->p);
        j->siglen = hbs_sig_bytes(j->p);
        run_core_keygen(j, 1);
        run_core_sign(j, 1);
        bench_spec ks = { "wots-core-keygen", sets[s].variant, "us", "Ed25519", 0 };
        bench_compare(&ks, run_core_keygen, j, run_ed_keygen, NULL);
        bench_spec ss = { "wots-core-sign", sets[s].variant, "us", "Ed25519", 0 };
        bench_compare(&ss, run_core_sign, j, bench_hbs_run_sign, ed.key);
        bench_spec vs = { "wots-core-verify", sets[s].variant, "us", "Ed25519", 0 };
        bench_compare(&vs, run_core_verify, j, run_ed_verify, &ed);
    }
done:
    free(j);
    EVP_PKEY_free(ed.key);
}

BENCH_GROUP(hbs_core, bench_hbs_core)
