/* bench_hash.c - the hash engine: ns per compression (or permutation) of
 * every kernel this CPU path allows, and of whole batches through hash.h,
 * beside OpenSSL's bulk rate measured in the same run (interleaved):
 *   SHA-256 / SHA-512: EVP over 16 KiB buffers, per compression;
 *   Keccak: EVP SHAKE128 over 168-byte blocks, per permutation;
 *   WOTS+ chain steps: EVP one-shot calls, as a one-at-a-time signer does.
 * An "iteration" of every row is one compression (permutation, chain step):
 * each run function makes iters / per_call calls, so bench_compare's ns per
 * iteration is ns per compression and speedup = OpenSSL time / ours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "bench.h"
#include "cpu.h"
#include "hash/hash.h"
#include "hash/keccak.h"
#include "hash/sha256.h"
#include "hash/sha512.h"
#include "hash/sha256_chain.h"
#include "kernel_bound.h"
#include "kernel_cost.h"

#define CALLS(iters, per) (((iters) + (per)-1) / (per))

/* ---- OpenSSL baselines ---- */
struct evp_job {
    const EVP_MD *md;
    EVP_MD_CTX *ctx;
    const uint8_t *buf;
    size_t len, per_call, calls; /* units per call; calls per digest (chain rows) */
};

static void run_evp(void *arg, size_t iters)
{
    struct evp_job *j = arg;
    uint8_t out[64];
    int xof = EVP_MD_get_flags(j->md) & EVP_MD_FLAG_XOF;
    for (size_t i = 0, n = CALLS(iters, j->per_call) * j->calls; i < n; i++) {
        EVP_DigestInit_ex(j->ctx, j->md, NULL);
        EVP_DigestUpdate(j->ctx, j->buf, j->len);
        if (xof)
            EVP_DigestFinalXOF(j->ctx, out, 32);
        else
            EVP_DigestFinal_ex(j->ctx, out, NULL);
    }
}

/* ---- our kernels ---- */
struct kernel_job {
    void (*sha256)(uint32_t *, const uint8_t *const[], size_t);
    void (*sha512)(uint64_t *, const uint8_t *const[], size_t);
    void (*perm)(uint64_t *);
    void (*absorb)(uint64_t *, const uint8_t *const[], size_t, size_t);
    unsigned lanes;
    size_t nblocks;
    _Alignas(64) uint64_t st[25 * 16]; /* as every caller's (the x16 kernel streams it) */
    const uint8_t *in[FS_SHA256_MAX_LANES]; /* the widest kernel's lanes */
};

static void run_kernel(void *arg, size_t iters)
{
    struct kernel_job *j = arg;
    size_t n = CALLS(iters, j->lanes * j->nblocks);
    for (size_t i = 0; i < n; i++) {
        if (j->sha256)
            j->sha256((uint32_t *)j->st, j->in, j->nblocks);
        else if (j->sha512)
            j->sha512(j->st, j->in, j->nblocks);
        else if (j->absorb)
            j->absorb(j->st, j->in, j->nblocks, 168);
        else
            j->perm(j->st);
    }
}

/* ---- batches through hash.h ---- */
struct batch_job {
    fs_hash_params p;
    fs_hash_seeds seeds;
    size_t lanes, msglen, per_call;
    uint8_t *in, *out, *adrs;
    uint32_t *steps;
};

static void run_many(void *arg, size_t iters)
{
    struct batch_job *j = arg;
    for (size_t i = 0, n = CALLS(iters, j->per_call); i < n; i++)
        fs_hash_many(&j->p, j->out, j->in, j->msglen, j->lanes);
}

/* F: 96-byte messages (toByte(0,32) || KEY || M), two compressions each. */
static void run_f(void *arg, size_t iters)
{
    struct batch_job *j = arg;
    for (size_t i = 0, n = CALLS(iters, j->per_call); i < n; i++)
        fs_hash_F(&j->p, j->out, j->in, j->in + 32 * j->lanes, j->lanes);
}

/* PRF: one compression each on top of the seed's midstate. */
static void run_prf(void *arg, size_t iters)
{
    struct batch_job *j = arg;
    for (size_t i = 0, n = CALLS(iters, j->per_call); i < n; i++)
        fs_hash_prf(&j->seeds, j->out, j->in, j->lanes);
}

static void run_chains(void *arg, size_t iters)
{
    struct batch_job *j = arg;
    for (size_t i = 0, n = CALLS(iters, j->per_call); i < n; i++)
        fs_hash_chains(&j->seeds, j->out, j->in, j->adrs, NULL, j->steps, j->lanes);
}

static uint8_t *filled(size_t len)
{
    uint8_t *p = malloc(len);
    for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t)(i * 167 + 13);
    return p;
}

static int usable(unsigned cpu, unsigned flags)
{
    /* the kernels a dispatcher may pick on this path (no twins) */
    return !(flags & FS_KERNEL_TWIN) && fs_cpu_allows(cpu);
}

/* One SHA-2 compression row: 2-block runs of `lanes` lanes, lane l's blocks
 * at data + stride * l (the F shape: short messages, state in and out per
 * call). */
static void compress_row(const char *op, const fs_kernel_table *t, const char *name,
                         struct kernel_job *j, uint8_t *data, size_t stride, struct evp_job *ref,
                         const char *refname)
{
    char variant[64];
    j->nblocks = 2;
    for (unsigned l = 0; l < FS_SHA256_MAX_LANES; l++)
        j->in[l] = data + stride * l;
    snprintf(variant, sizeof(variant), "%s 2blk", name);
    bench_spec s = { op, variant, "ns", refname, 0 };
    bench_kernel_bound(s.op, s.variant, t->name, name);
    bench_compare(&s, run_kernel, j, run_evp, ref);
}

static void kernel_rows(uint8_t *data, struct evp_job *sha256, struct evp_job *sha512,
                        struct evp_job *shake)
{
    struct kernel_job j;
    for (const fs_kernel *k = fs_sha256_kernels; k->name; k++) {
        if (!usable(k->cpu, k->flags))
            continue;
        memset(&j, 0, sizeof(j));
        j.sha256 = fs_sha256_fn(k);
        j.lanes = k->lanes;
        compress_row("sha256-compress", &fs_sha256_table, k->name, &j, data, 128, sha256,
                     "SHA-256 16KiB");
    }
    for (const fs_kernel *k = fs_sha512_kernels; k->name; k++) {
        if (!usable(k->cpu, k->flags))
            continue;
        memset(&j, 0, sizeof(j));
        j.sha512 = fs_sha512_fn(k);
        j.lanes = k->lanes;
        compress_row("sha512-compress", &fs_sha512_table, k->name, &j, data, 256, sha512,
                     "SHA-512 16KiB");
    }
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++) {
        if (!usable(k->cpu, k->flags))
            continue;
        memset(&j, 0, sizeof(j));
        j.perm = fs_keccak_perm(k);
        j.lanes = k->lanes;
        j.nblocks = 1;
        bench_spec s = { "keccak-f1600", k->name, "ns", "SHAKE128 168B", 0 };
        bench_kernel_bound(s.op, s.variant, fs_keccak_table.name, k->name);
        bench_compare(&s, run_kernel, &j, run_evp, shake);
        if (k->aux) { /* whole blocks read from the lanes, per permutation */
            j.perm = NULL;
            j.absorb = fs_keccak_absorb(k);
            j.nblocks = 2;
            for (unsigned l = 0; l < 16; l++)
                j.in[l] = data + 2 * 168 * l;
            bench_spec a = { "shake128-absorb", k->name, "ns", "SHAKE128 168B", 0 };
            bench_compare(&a, run_kernel, &j, run_evp, shake);
        }
    }
}

static void batch_rows(struct evp_job *sha256)
{
    static const size_t lanes[] = { 1, 2, 4, 8, 16, 32, 64 };
    char variant[64];
    for (size_t i = 0; i < sizeof(lanes) / sizeof(lanes[0]); i++) {
        /* 64-byte messages: two compressions each with the padding block */
        struct batch_job j = { .p = { FS_HASH_SHA256, 32, 32 }, .lanes = lanes[i], .msglen = 64,
                               .per_call = 2 * lanes[i], .in = filled(64 * lanes[i]),
                               .out = malloc(32 * lanes[i]) };
        snprintf(variant, sizeof(variant), "x%zu %s", lanes[i],
                 fs_hash_kernel_name(FS_HASH_SHA256));
        bench_spec s = { "sha256-many 64B", variant, "ns", "SHA-256 16KiB", 0 };
        bench_compare(&s, run_many, &j, run_evp, sha256);
        free(j.in);
        free(j.out);
    }
    /* the keyed shapes of the WOTS+ chains, per compression */
    static const size_t keyed_lanes[] = { 1, 16, 64 };
    for (size_t i = 0; i < sizeof(keyed_lanes) / sizeof(keyed_lanes[0]); i++) {
        size_t l = keyed_lanes[i];
        struct batch_job j = { .p = { FS_HASH_SHA256, 32, 32 }, .lanes = l, .in = filled(64 * l),
                               .out = malloc(32 * l) };
        fs_hash_seeds_init(&j.seeds, &j.p, j.in, NULL);
        snprintf(variant, sizeof(variant), "x%zu %s", l, fs_hash_kernel_name(FS_HASH_SHA256));
        j.per_call = 2 * l;
        bench_spec f = { "sha256-F", variant, "ns", "SHA-256 16KiB", 0 };
        bench_compare(&f, run_f, &j, run_evp, sha256);
        j.per_call = l;
        bench_spec r = { "sha256-prf", variant, "ns", "SHA-256 16KiB", 0 };
        bench_compare(&r, run_prf, &j, run_evp, sha256);
        fs_hash_seeds_clear(&j.seeds);
        free(j.in);
        free(j.out);
    }
}

/* The fused WOTS+ chain kernels alone: one repetition is one lane-step of
 * a call of many steps, beside three EVP one-shot calls per step. */
struct chain_job {
    fs_chain_fn *fn;
    _Alignas(64) uint32_t x[8 * FS_CHAIN_LANES], adrs[FS_CHAIN_MAX_WORDS * FS_CHAIN_LANES];
};

static void run_chain_kernel(void *arg, size_t iters)
{
    static const uint32_t mid[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    struct chain_job *j = arg;
    j->fn(j->x, j->adrs, mid, CALLS(iters, FS_CHAIN_LANES), 32);
}

static void chain_kernel_rows(struct evp_job *base)
{
    for (const fs_kernel *k = fs_wots_chain_table.rows; k->name; k++) {
        if (!fs_cpu_allows(k->cpu))
            continue;
        struct chain_job j = { .fn = fs_chain_fn_of(k) };
        bench_spec s = { "wots-chain-step", k->name, "ns", "3 EVP calls", 0 };
        bench_kernel_bound(s.op, s.variant, fs_wots_chain_table.name, k->name);
        bench_compare(&s, run_chain_kernel, &j, run_evp, base);
    }
}

/* 67 WOTS+ chains of 15 steps (a w=16 public key), per chain step, beside
 * three EVP one-shot calls on 96-byte inputs (PRF, PRF, F) per step. */
static void chain_rows(void)
{
    static const struct {
        fs_hash_params p;
        const char *name, *md;
    } rows[] = {
        { { FS_HASH_SHA256, 32, 32 }, "SHA2 n=32", "SHA256" },
        { { FS_HASH_SHAKE128, 32, 32 }, "SHAKE128 n=32", "SHAKE128" },
        { { FS_HASH_SHA512, 64, 64 }, "SHA2 n=64", "SHA512" },
    };
    enum { CHAINS = 67, STEPS = 15 };
    char variant[64];
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        const fs_hash_params *p = &rows[r].p;
        uint8_t *seed = filled(p->n), *msg = filled(p->pad + 2 * p->n);
        struct batch_job j = { .p = *p, .lanes = CHAINS, .per_call = CHAINS * STEPS,
                               .in = filled(CHAINS * p->n), .out = malloc(CHAINS * p->n),
                               .adrs = filled(CHAINS * 32),
                               .steps = malloc(CHAINS * sizeof(uint32_t)) };
        for (size_t c = 0; c < CHAINS; c++)
            j.steps[c] = STEPS;
        fs_hash_seeds_init(&j.seeds, p, seed, NULL);
        EVP_MD *md = EVP_MD_fetch(bench_libctx(), rows[r].md, "provider=default");
        struct evp_job base = { md, EVP_MD_CTX_new(), msg, p->pad + 2 * p->n, 1, 3 };
        snprintf(variant, sizeof(variant), "%s %s", rows[r].name, fs_hash_kernel_name(p->family));
        bench_spec s = { "wots-chain-step", variant, "ns", "3 EVP calls", 0 };
        bench_compare(&s, run_chains, &j, run_evp, &base);
        if (r == 0)
            chain_kernel_rows(&base);
        EVP_MD_CTX_free(base.ctx);
        EVP_MD_free(md);
        fs_hash_seeds_clear(&j.seeds);
        free(seed);
        free(msg);
        free(j.in);
        free(j.out);
        free(j.adrs);
        free(j.steps);
    }
}

static void bench_hash(void)
{
    OSSL_LIB_CTX *lc = bench_libctx();
    EVP_MD *sha256 = EVP_MD_fetch(lc, "SHA256", "provider=default");
    EVP_MD *sha512 = EVP_MD_fetch(lc, "SHA512", "provider=default");
    EVP_MD *shake = EVP_MD_fetch(lc, "SHAKE128", "provider=default");
    uint8_t *data = filled(16 * 1024 + 256 * 16);
    /* 16 KiB is 257 SHA-256 and 129 SHA-512 compressions with the padding;
     * 97 SHAKE128 blocks of 168 bytes are 98 permutations. */
    struct evp_job b256 = { sha256, EVP_MD_CTX_new(), data, 16384, 257, 1 };
    struct evp_job b512 = { sha512, EVP_MD_CTX_new(), data, 16384, 129, 1 };
    struct evp_job bshake = { shake, EVP_MD_CTX_new(), data, 97 * 168, 98, 1 };
    kernel_rows(data, &b256, &b512, &bshake);
    batch_rows(&b256);
    chain_rows();
    EVP_MD_CTX_free(b256.ctx);
    EVP_MD_CTX_free(b512.ctx);
    EVP_MD_CTX_free(bshake.ctx);
    EVP_MD_free(sha256);
    EVP_MD_free(sha512);
    EVP_MD_free(shake);
    free(data);
}

BENCH_GROUP(hash, bench_hash)
