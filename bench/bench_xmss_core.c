/* bench_xmss_core.c - the WOTS+ core (crypto/xmss/wotsp_scheme.h) without the
 * provider and without state I/O, beside OpenSSL Ed25519 through EVP in the
 * same run: the rows the speed targets are stated for. The EVP rows, state
 * included, are bench_wots.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "bench.h"
#include "bench_stateful.h"
#include "xmss/params.h"
#include "xmss/wotsp_scheme.h"

#define MSG_LEN 64
#define CAP 8192
static const unsigned char msg[MSG_LEN] = "fastsig-bench: a 64-byte message signed by every row, 0123456";

struct core_job {
    const xmss_params *p;
    uint8_t seed[3 * 64], sk[CAP], pk[CAP], sig[CAP];
    size_t sklen, pklen, siglen;
};

static void run_core_keygen(void *arg, size_t iters)
{
    struct core_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        j->seed[0] = (uint8_t)i; /* a new key each time */
        if (xmss_wotsp_keygen(j->p, j->seed, 3 * j->p->n, j->sk, j->sklen, j->pk, j->pklen) != 0)
            fprintf(stderr, "bench: WOTS+ core keygen failed\n");
    }
}

/* The core does not count uses: signing one key again costs the same. */
static void run_core_sign(void *arg, size_t iters)
{
    struct core_job *j = arg;
    for (size_t i = 0; i < iters; i++)
        if (xmss_wotsp_sign(j->sk, j->sklen, msg, MSG_LEN, j->sig, j->siglen) != 0)
            fprintf(stderr, "bench: WOTS+ core sign failed\n");
}

static void run_core_verify(void *arg, size_t iters)
{
    struct core_job *j = arg;
    for (size_t i = 0; i < iters; i++)
        if (xmss_wotsp_verify(j->pk, j->pklen, msg, MSG_LEN, j->sig, j->siglen) != 0)
            fprintf(stderr, "bench: WOTS+ core verify failed\n");
}

static void run_ed_keygen(void *arg, size_t iters)
{
    (void)arg;
    for (size_t i = 0; i < iters; i++)
        EVP_PKEY_free(bench_stateful_base_keygen("ED25519"));
}

static void bench_xmss_core(void)
{
    static const struct { const char *row, *variant; } sets[] = {
        { "WOTSP-SHA2_256", "WOTSP-SHA2_256 W16" },
        { "WOTSP-SHA2_256_W4", "WOTSP-SHA2_256 W4" },
    };
    EVP_PKEY *ed = bench_stateful_base_keygen("ED25519");
    void *edv = ed != NULL ? bench_stateful_verify_job(ed, NULL) : NULL;
    struct core_job *j = calloc(1, sizeof(*j));
    if (j == NULL || edv == NULL) {
        fprintf(stderr, "bench: wots-core set-up failed\n");
        goto done;
    }
    for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
        j->p = xmss_params_by_name(sets[s].row);
        if (j->p == NULL)
            continue;
        for (size_t i = 0; i < sizeof(j->seed); i++)
            j->seed[i] = (uint8_t)(7 * i + 1);
        j->sklen = xmss_sk_bytes(j->p);
        j->pklen = xmss_pk_bytes(j->p);
        j->siglen = xmss_sig_bytes(j->p);
        run_core_keygen(j, 1);
        run_core_sign(j, 1);
        bench_spec ks = { "wots-core-keygen", sets[s].variant, "us", "Ed25519", 0 };
        bench_compare(&ks, run_core_keygen, j, run_ed_keygen, NULL);
        bench_spec ss = { "wots-core-sign", sets[s].variant, "us", "Ed25519", 0 };
        bench_compare(&ss, run_core_sign, j, bench_stateful_run_sign, ed);
        bench_spec vs = { "wots-core-verify", sets[s].variant, "us", "Ed25519", 0 };
        bench_compare(&vs, run_core_verify, j, bench_stateful_run_verify, edv);
    }
done:
    free(j);
    free(edv);
    EVP_PKEY_free(ed);
}

BENCH_GROUP(xmss_core, bench_xmss_core)
