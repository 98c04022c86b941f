/* bench_fault.c - what the fault and damaged-key checks cost, in the cores
 * (no provider, no state I/O), each beside the same work without the check:
 *   hbs-load-check      xmss_key_from_sk + xmss_cache_import + xmss_key_check
 *                       beside the load alone (the check with the node cache:
 *                       one leaf and its path);
 *   hbs-sign-verified   xmss_sign_verified beside xmss_sign on one key,
 *                       consecutive indices (verify-after-sign);
 *   wotsp-load-check    xmss_wotsp_pk_from_sk (the WOTS+ key check at decode)
 *                       beside a WOTS+ signature;
 *   wotsp-sign-verified xmss_wotsp_sign_verified beside xmss_wotsp_sign.
 * The "speedup" column is then the check's price: plain time / checked time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "xmss/params.h"
#include "xmss/wotsp_scheme.h"
#include "xmss/xmss.h"

static const unsigned char msg[64] = "fastsig-bench: a 64-byte message signed by every row, 0123456";

struct load_job {
    const xmss_params *p;
    uint8_t sk[4 + 8 + 4 * XMSS_MAX_N];
    uint8_t *cache;
    size_t clen;
    int check;
};

static void run_load(void *arg, size_t iters)
{
    struct load_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        xmss_key *k = NULL;
        if (xmss_key_from_sk(j->p->kind, j->sk, xmss_sk_bytes(j->p), NULL, &k) != 0
            || xmss_cache_import(k, j->cache, j->clen) != 0
            || (j->check && xmss_key_check(k) != 0))
            fprintf(stderr, "bench: key load failed\n");
        xmss_key_free(k);
    }
}

struct sign_job {
    xmss_key *k;
    uint64_t *idx; /* shared by both sides: every signature a new index */
    uint8_t *sig;
    size_t siglen;
    int verify;
};

static void run_sign(void *arg, size_t iters)
{
    struct sign_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        uint64_t idx = (*j->idx)++ & xmss_last_index(xmss_key_params(j->k)); /* h = 10 wraps */
        int rc = j->verify ? xmss_sign_verified(j->k, idx, msg, sizeof(msg), j->sig, j->siglen)
                           : xmss_sign(j->k, idx, msg, sizeof(msg), j->sig, j->siglen);
        if (rc != 0)
            fprintf(stderr, "bench: sign at %llu failed\n", (unsigned long long)idx);
    }
}

static void tree_rows(const char *set)
{
    const xmss_params *p = xmss_params_by_name(set);
    uint8_t seed[3 * XMSS_MAX_N];
    xmss_key *k = NULL;
    uint64_t idx = 0;
    int sel_load = bench_selected("hbs-load-check", set);
    int sel_sign = bench_selected("hbs-sign-verified", set);
    if (p == NULL || (!sel_load && !sel_sign))
        return;
    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)(5 * i + 3);
    fprintf(stderr, "[bench] fault %s: key generation ...\n", set);
    if (xmss_keygen(p, seed, 3u * p->n, 2, NULL, NULL, &k) != 0) {
        fprintf(stderr, "bench: keygen %s failed\n", set);
        return;
    }
    struct load_job lj = { p, { 0 }, NULL, 0, 1 }, lb;
    struct sign_job sj = { k, &idx, malloc(xmss_sig_bytes(p)), xmss_sig_bytes(p), 1 }, sb;
    run_sign(&sj, 1); /* the cache a signer leaves behind */
    if (xmss_key_export_sk(k, idx, lj.sk, xmss_sk_bytes(p)) != 0
        || xmss_cache_export(k, &lj.cache, &lj.clen) != 0)
        fprintf(stderr, "bench: export %s failed\n", set);
    lb = lj;
    lb.check = 0;
    sb = sj;
    sb.verify = 0;
    if (sel_load) {
        bench_spec s = { "hbs-load-check", set, "us", "load alone", 0 };
        bench_compare(&s, run_load, &lj, run_load, &lb);
    }
    if (sel_sign) {
        bench_spec s = { "hbs-sign-verified", set, "us", "xmss_sign", 0 };
        bench_compare(&s, run_sign, &sj, run_sign, &sb);
    }
    free(lj.cache);
    free(sj.sig);
    xmss_key_free(k);
}

struct wotsp_job {
    const xmss_params *p;
    uint8_t sk[4 + 4 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N], *sig;
    int verify;
};

static void run_wotsp_check(void *arg, size_t iters)
{
    struct wotsp_job *j = arg;
    for (size_t i = 0; i < iters; i++)
        if (xmss_wotsp_pk_from_sk(j->sk, xmss_sk_bytes(j->p), j->pk, xmss_pk_bytes(j->p)) != 0)
            fprintf(stderr, "bench: WOTS+ key check failed\n");
}

/* The core does not count uses: signing one key again costs the same. */
static void run_wotsp_sign(void *arg, size_t iters)
{
    struct wotsp_job *j = arg;
    size_t sl = xmss_sig_bytes(j->p), kl = xmss_sk_bytes(j->p);
    for (size_t i = 0; i < iters; i++)
        if ((j->verify ? xmss_wotsp_sign_verified(j->sk, kl, msg, sizeof(msg), j->sig, sl)
                       : xmss_wotsp_sign(j->sk, kl, msg, sizeof(msg), j->sig, sl)) != 0)
            fprintf(stderr, "bench: WOTS+ sign failed\n");
}

static void wotsp_rows(const char *set)
{
    struct wotsp_job j = { xmss_params_by_name(set), { 0 }, { 0 }, NULL, 1 }, b;
    uint8_t seed[3 * XMSS_MAX_N];
    if (j.p == NULL)
        return;
    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)(5 * i + 3);
    j.sig = malloc(xmss_sig_bytes(j.p));
    if (xmss_wotsp_keygen(j.p, seed, 3u * j.p->n, j.sk, xmss_sk_bytes(j.p), j.pk,
                         xmss_pk_bytes(j.p)) != 0)
        fprintf(stderr, "bench: WOTS+ keygen failed\n");
    b = j;
    b.verify = 0;
    bench_spec cs = { "wotsp-load-check", set, "us", "WOTS+ sign", 0 };
    bench_compare(&cs, run_wotsp_check, &j, run_wotsp_sign, &b);
    bench_spec ss = { "wotsp-sign-verified", set, "us", "WOTS+ sign", 0 };
    bench_compare(&ss, run_wotsp_sign, &j, run_wotsp_sign, &b);
    free(j.sig);
}

static void bench_fault(void)
{
    static const char *const trees[] = {
        "XMSS-SHA2_10_256", "XMSS-SHA2_16_256", "XMSSMT-SHA2_20/4_256", "XMSSMT-SHA2_60/12_256",
    };
    for (size_t s = 0; s < sizeof(trees) / sizeof(trees[0]); s++)
        tree_rows(trees[s]);
    wotsp_rows("WOTSP-SHA2_256");
}

BENCH_GROUP(fault, bench_fault)
