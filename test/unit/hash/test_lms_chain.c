/* test_lms_chain.c - every fused LM-OTS chain kernel of the table
 * (sha256_chain.h, fs_lmots_chain_kernels) that this CPU path allows, the portable twin
 * included, against the one-chain-at-a-time walk lms_chains_ref: random
 * chain values, q, i and j, for n = 32 and 24; 0, 1, 2, 15, 255 and 256
 * steps; j wrapping past 0xff, and the secret-derivation start j = 0xff;
 * several calls in a row on the same lanes (the words carried over); all-zero
 * and all-one words. And
 * the chain walker's LM-OTS row (chains.h) on each of those kernels and on
 * its block walk against lms_chains_ref: counts with tails and refills,
 * zero-step chains, a shared start (in_stride 0) and in == out. And
 * keygen's chains (fs_hash_lmots_key_chains) against the same reference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "cpu.h"
#include "fastsig_err.h"
#include "hash/chains.h"
#include "hash/lanes.h"
#include "hash/sha256_chain.h"
#include "lms/lms_chain.h"
#include "kernel_path.h"
#include "testutil.h"

enum { L = FS_CHAIN_LANES };

/* Lane l of a row's arrays: a row of 32 lanes is two 16-lane groups back
 * to back (sha256_chain.h). XI: word k's index, QI: lane word k's. */
#define XI(k, l) ((l) / L * 8 * L + (k) * L + (l) % L)
#define QI(k, l) ((l) / L * FS_CHAIN_MAX_WORDS * L + (k) * L + (l) % L)
enum { ML = FS_CHAIN_MAX_LANES };

/* lms_chains_ref's view of lane l: its job and its start bytes */
static void lane_ref(const lmots_params *o, const uint8_t Ib[16], const uint32_t *x,
                     const uint32_t *qij, unsigned l, unsigned steps, uint8_t *out)
{
    uint8_t in[32];
    for (unsigned k = 0; k < o->n / 4; k++)
        fs_store_be32(in + 4 * k, x[XI(k, l)]);
    lms_chain_job job = { qij[QI(0, l)], (uint16_t)(qij[QI(1, l)] >> 16),
                          (uint8_t)(qij[QI(1, l)] >> 8), (uint16_t)steps };
    CU_ASSERT_EQUAL(lms_chains_ref(o, Ib, &job, 1, in, 0, out), FASTSIG_OK);
}

/* Random words, then edge ones (t >= 6): I, x and q all 0x00, then all
 * 0xff (i and j too). Every lane of the row (16 or 32). */
static void one_kernel(const fs_kernel *row, const char *ots_name)
{
    fs_chain_fn *fn = fs_chain_fn_of(row);
    const unsigned lanes = row->lanes;
    static const unsigned steps[] = { 0, 1, 2, 15, 255, 256, 3, 3 };
    lmots_params o;
    CU_ASSERT_FATAL(lmots_params_by_name(&o, ots_name) == FASTSIG_OK);
    CU_ASSERT_FATAL(lanes == L || lanes == ML);
    for (size_t t = 0; t < sizeof(steps) / sizeof(steps[0]); t++) {
        uint8_t Ib[16], want[ML][32];
        _Alignas(64) uint32_t x[8 * ML], qij[FS_CHAIN_MAX_WORDS * ML];
        uint32_t Iw[8] = { 0 }, x0[8 * ML];
        fs_test_random(Ib, sizeof(Ib));
        fs_test_random((uint8_t *)x, sizeof(x));
        fs_test_random((uint8_t *)qij, sizeof(qij));
        if (t >= 6) {
            int fill = t == 6 ? 0x00 : 0xff;
            memset(Ib, fill, sizeof(Ib));
            memset(x, fill, sizeof(x));
            memset(qij, fill, sizeof(qij));
        }
        for (unsigned w = 0; w < 4; w++)
            Iw[w] = fs_load_be32(Ib + 4 * w);
        for (unsigned l = 0; l < lanes && t < 6; l++) {
            uint32_t *ij = &qij[QI(1, l)];
            *ij &= 0xffffff00u;
            if (l % 4 == 0) /* the secret derivation's start: wraps at once */
                *ij |= 0xff00u;
            else if (l % 4 == 1) /* wraps after a few steps */
                *ij = (*ij & 0xffff0000u) | 0xfd00u;
        }
        for (unsigned l = 0; l < lanes; l++)
            qij[QI(1, l)] &= 0xffffff00u; /* the contract: low byte zero */
        memcpy(x0, x, sizeof(x));
        for (unsigned l = 0; l < lanes; l++)
            lane_ref(&o, Ib, x, qij, l, steps[t], want[l]);
        uint32_t q0[FS_CHAIN_MAX_WORDS * ML];
        memcpy(q0, qij, sizeof(qij));
        /* the walk in two calls: what a call leaves is the next one's start */
        unsigned first = steps[t] / 3;
        fn(x, qij, Iw, first, o.n);
        fn(x, qij, Iw, steps[t] - first, o.n);
        for (unsigned l = 0; l < lanes; l++) {
            uint8_t got[32];
            for (unsigned w = 0; w < o.n / 4 && w < 8; w++)
                fs_store_be32(got + 4 * w, x[XI(w, l)]);
            if (memcmp(got, want[l], o.n) != 0)
                fprintf(stderr, "\n%s %s: lane %u differs, case %zu, %u steps\n", row->name,
                        ots_name, l, t, steps[t]);
            CU_ASSERT(memcmp(got, want[l], o.n) == 0);
            CU_ASSERT_EQUAL(qij[QI(0, l)], q0[QI(0, l)]); /* q kept */
            uint32_t ij0 = q0[QI(1, l)];
            CU_ASSERT_EQUAL(qij[QI(1, l)],
                            (ij0 & 0xffff0000u) | (((ij0 >> 8) + steps[t]) & 0xff) << 8);
            for (unsigned w = o.n / 4; w < 8; w++) /* words past n untouched */
                CU_ASSERT_EQUAL(x[XI(w, l)], x0[XI(w, l)]);
        }
        /* lane words past the row's two untouched */
        for (unsigned l = 0; l < lanes; l++)
            for (unsigned w = 2; w < FS_CHAIN_MAX_WORDS; w++)
                CU_ASSERT_EQUAL(qij[QI(w, l)], q0[QI(w, l)]);
    }
}

static void test_kernels(void)
{
    int ran = 0, wide = 0;
    for (const fs_kernel *k = fs_lmots_chain_kernels; k->name; k++) {
        if (!kernel_on_path("lms-chain", k->name, k->cpu))
            continue;
        one_kernel(k, "LMOTS_SHA256_N32_W4");
        one_kernel(k, "LMOTS_SHA256_N24_W4");
        ran++;
        wide += k->lanes == FS_CHAIN_MAX_LANES;
    }
    CU_ASSERT(ran >= 2 && wide >= 1); /* the twins run on every path */
}

/* One random batch: the walk on fn (NULL: the block walk) against the
 * one-chain reference. */
static void walk_once(fs_chain_fn *fn, const lmots_params *o, size_t count, int shared, int alias)
{
    enum { MAXC = 300 };
    uint8_t I[16], in[MAXC * 32], want[MAXC * 32], got[MAXC * 32];
    lms_chain_job jobs[MAXC];
    fs_hash_params hp = lms_hash_params(o->hash, o->n);
    fs_test_random(I, sizeof(I));
    fs_test_random(in, sizeof(in));
    for (size_t c = 0; c < count; c++) {
        uint32_t r = (uint32_t)fs_test_rand64();
        lms_chain_job j = { r, (uint16_t)(r >> 7), (uint8_t)(r >> 3),
                            (uint16_t)(c % 7 == 3 ? 0 : c % 11 == 5 ? 256 : r % 17) };
        jobs[c] = j;
    }
    size_t stride = shared ? 0 : o->n;
    CU_ASSERT_EQUAL(lms_chains_ref(o, I, jobs, count, in, stride, want), FASTSIG_OK);
    if (alias)
        memcpy(got, in, count * o->n);
    CU_ASSERT_EQUAL(fs_lmots_chains_walk(fn, &hp, I, jobs, count, alias ? got : in, stride, got,
                                         1),
                    FASTSIG_OK);
    CU_ASSERT(memcmp(got, want, count * o->n) == 0);
}

static void walk_all(fs_chain_fn *fn)
{
    static const char *const sets[] = { "LMOTS_SHA256_N32_W4", "LMOTS_SHA256_N24_W8" };
    static const size_t counts[] = { 1, 4, 5, 16, 17, 34, 67, 300 };
    for (size_t s = 0; s < 2; s++) {
        lmots_params o;
        CU_ASSERT_FATAL(lmots_params_by_name(&o, sets[s]) == FASTSIG_OK);
        for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
            walk_once(fn, &o, counts[i], 0, 0);
            walk_once(fn, &o, counts[i], 1, 0);
            walk_once(fn, &o, counts[i], 0, 1);
        }
    }
}

static void test_walks(void)
{
    walk_all(NULL);
    for (const fs_kernel *k = fs_lmots_chain_kernels; k->name; k++)
        if (k->lanes == L && kernel_on_path("lms-chain", k->name, k->cpu))
            walk_all(fs_chain_fn_of(k)); /* the walker's groups are of 16 */
}

/* The engine picks a kernel exactly when the CPU path has one, the one the
 * table's costs choose (of two round layouts: the calibration's or
 * FASTSIG_KERNEL_COSTS's); none on the portable path. */
static void test_selection(void)
{
    for (unsigned kind = 0; kind < FS_CHAIN_KINDS; kind++) {
        const fs_kernel_table *t = fs_chain_table(kind);
        fs_chain_fn *sel = fs_lanes_chain_kernel(kind);
        int usable = 0;
        for (const fs_kernel *k = t->rows; k->name; k++)
            usable |= !(k->flags & FS_KERNEL_TWIN) && fs_cpu_allows(k->cpu);
        /* 16 chains: the cheapest row of 16 lanes; 32: a row of 32 lanes
         * only when cheaper per lane */
        const unsigned *cost = fs_kernel_costs(t);
        const fs_kernel *want = NULL, *w32 = NULL;
        for (const fs_kernel *k = t->rows; k->name; k++) {
            const fs_kernel **b = k->lanes == FS_CHAIN_LANES ? &want : &w32;
            if (fs_kernel_usable(k, fs_cpu_features(), 0) &&
                (*b == NULL || cost[k - t->rows] < cost[*b - t->rows]))
                *b = k;
        }
        if (want == NULL || (w32 && cost[w32 - t->rows] >= cost[want - t->rows]))
            w32 = NULL;
        CU_ASSERT_EQUAL(want != NULL, usable);
        CU_ASSERT(sel == (want ? fs_chain_fn_of(want) : NULL));
        fs_chain_fn *sel32 = fs_lanes_chain_kernel_x32(kind);
        CU_ASSERT(sel32 == (w32 ? fs_chain_fn_of(w32) : NULL));
        printf(" [%s: %s for 16, %s for 32]", t->name, want ? want->name : "none",
               sel32 ? w32->name : "16-lane calls");
        /* FASTSIG_KERNEL_COSTS of the lms-chain-x32 test makes it the cheapest */
        const char *env = getenv("FASTSIG_KERNEL_COSTS");
#if defined(FASTSIG_HAVE_ASM)
        if (kind == FS_CHAIN_LMOTS && env && strstr(env, "avx512-x32-lms-chain=1") &&
            fs_cpu_allows(FS_CPU_AVX512))
            CU_ASSERT(sel32 == fs_lms_chain_x32_avx512);
#endif
        if (env && strstr(env, "avx512-x32-lms-chain=0"))
            CU_ASSERT(sel32 == NULL);
        fs_hash_select(0);
        CU_ASSERT(fs_lanes_chain_kernel(kind) == NULL);
        CU_ASSERT(fs_lanes_chain_kernel_x32(kind) == NULL);
        fs_hash_select(~0u);
        CU_ASSERT(fs_lanes_chain_kernel(kind) == sel);
        CU_ASSERT(fs_lanes_chain_kernel_x32(kind) == sel32);
    }
}

/* fs_hash_lmots_key_chains (keygen's chains, whole groups on the
 * selected kernel, the rest on the walker) against lms_chains_ref: leaf
 * counts that fill the groups exactly, leave a few chains over, or fewer
 * than one group; ends inside K-message-shaped rows whose other bytes stay
 * untouched; FASTSIG_ERR_UNSUPPORTED with no kernel (portable path) and
 * for SHAKE. */
static void key_chains_once(const char *set, uint32_t q0, size_t leaves)
{
    enum { GAP = 22, MAXL = 33 };
    lmots_params o;
    CU_ASSERT_FATAL(lmots_params_by_name(&o, set) == FASTSIG_OK);
    const fs_hash_params hp = lms_hash_params(o.hash, o.n);
    const size_t row = GAP + (size_t)o.p * o.n + 5, steps = (size_t)1 << o.w;
    uint8_t I[16], seed[32], *want = malloc(leaves * o.p * o.n), *got = malloc(leaves * row);
    lms_chain_job *jobs = malloc(leaves * o.p * sizeof(*jobs));
    CU_ASSERT_FATAL(want != NULL && got != NULL && jobs != NULL && leaves <= MAXL);
    fs_test_random(I, sizeof(I));
    fs_test_random(seed, sizeof(seed));
    for (size_t c = 0; c < leaves * o.p; c++) {
        lms_chain_job j = { q0 + (uint32_t)(c / o.p), (uint16_t)(c % o.p), 0xff, (uint16_t)steps };
        jobs[c] = j;
    }
    CU_ASSERT_EQUAL(lms_chains_ref(&o, I, jobs, leaves * o.p, seed, 0, want), FASTSIG_OK);
    memset(got, 0xa5, leaves * row);
    int rc = fs_hash_lmots_key_chains(&hp, I, seed, q0, leaves, o.p, (unsigned)steps, got + GAP,
                                      row);
    if (fs_lanes_chain_kernel(FS_CHAIN_LMOTS) == NULL || o.hash != FS_HASH_SHA256) {
        CU_ASSERT_EQUAL(rc, FASTSIG_ERR_UNSUPPORTED);
    } else {
        CU_ASSERT_EQUAL(rc, FASTSIG_OK);
        for (size_t l = 0; l < leaves; l++) {
            const uint8_t *r = got + l * row;
            CU_ASSERT(memcmp(r + GAP, want + l * o.p * o.n, (size_t)o.p * o.n) == 0);
            for (size_t b = 0; b < row; b++)
                if (b < GAP || b >= GAP + (size_t)o.p * o.n)
                    CU_ASSERT_EQUAL(r[b], 0xa5);
        }
    }
    free(want);
    free(got);
    free(jobs);
}

static void test_key_chains(void)
{
    static const char *const sets[] = { "LMOTS_SHA256_N32_W4", "LMOTS_SHA256_N32_W8",
                                        "LMOTS_SHA256_N24_W2", "LMOTS_SHAKE_N24_W4" };
    static const size_t leaves[] = { 1, 2, 3, 16, 33 };
    for (int path = 0; path < 2; path++) {
        fs_hash_select(path ? 0 : ~0u); /* path 1: no kernel */
        for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++)
            for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++)
                key_chains_once(sets[s], 0xfffffff0u - (uint32_t)(7 * i), leaves[i]);
    }
    fs_hash_select(~0u);
    lmots_params o;
    CU_ASSERT_FATAL(lmots_params_by_name(&o, "LMOTS_SHA256_N32_W4") == FASTSIG_OK);
    const fs_hash_params hp = lms_hash_params(o.hash, o.n);
    uint8_t x[32] = { 0 }, out[67 * 32];
    CU_ASSERT_EQUAL(fs_hash_lmots_key_chains(&hp, x, x, 0, 1, o.p, 257, out, sizeof(out)),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fs_hash_lmots_key_chains(&hp, x, x, 0, 1, o.p, 16, out, sizeof(out) - 1),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(fs_hash_lmots_key_chains(&hp, NULL, x, 0, 1, o.p, 16, out, sizeof(out)),
                    FASTSIG_ERR_NULL_ARG);
}

int main(void)
{
    const fs_test tests[] = {
        { "kernels vs lms_chains_ref", test_kernels },
        { "walks (block, fused on each kernel) vs lms_chains_ref", test_walks },
        { "engine selection", test_selection },
        { "keygen chains (fs_hash_lmots_key_chains) vs lms_chains_ref", test_key_chains },
        { NULL, NULL },
    };
    const fs_suite suites[] = { { "fused LM-OTS chains", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
