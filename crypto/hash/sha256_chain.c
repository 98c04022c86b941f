/* sha256_chain.c - the portable twins of the fused chain kernels
 * (sha256_chain.h): the same steps, lane by lane, through the one-lane
 * compression on byte messages, and the tables of chain kernels. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "cpu.h"
#include "kernel_cost.h"
#include "hash/sha256.h"
#include "hash/lanes.h"
#include "hash/sha256_chain.h"

/* The last block of a 96-byte message: 8 words, 0x80, zeros, 768 bits. */
static void last_block(uint8_t blk[64], const uint32_t w[8])
{
    memset(blk, 0, 64);
    for (unsigned i = 0; i < 8; i++)
        fs_store_be32(blk + 4 * i, w[i]);
    blk[32] = 0x80;
    blk[62] = 768 >> 8;
}

static void prf(uint32_t out[8], const uint32_t mid[8], const uint32_t adrs[7], uint32_t km)
{
    uint8_t blk[64];
    uint32_t w[8];
    const uint8_t *in[1] = { blk };
    memcpy(w, adrs, 7 * sizeof(uint32_t));
    w[7] = km;
    last_block(blk, w);
    memcpy(out, mid, 8 * sizeof(uint32_t));
    fs_sha256_compress_x1(out, in, 1);
}

enum { L = FS_CHAIN_LANES, HDR = 23 };

/* WOTS+: words are ADRS words 0..6, key the PRF midstate. */
void fs_sha256_chain_x16_portable(uint32_t x[8 * L], uint32_t adrs[FS_CHAIN_MAX_WORDS * L],
                                  const uint32_t mid[8], size_t steps, unsigned n)
{
    for (; steps; steps--)
        for (unsigned l = 0; l < L; l++) {
            uint32_t a[7], key[8], bm[8], m[8];
            uint8_t blk[64];
            const uint8_t *in[1] = { blk };
            for (unsigned i = 0; i < 7; i++)
                a[i] = adrs[i * L + l];
            prf(key, mid, a, 0);
            prf(bm, mid, a, 1);
            for (unsigned i = 0; i < 8; i++)
                m[i] = x[i * L + l] ^ bm[i];
            uint32_t h[8];
            memcpy(h, fs_sha256_iv, sizeof(h));
            memset(blk, 0, 32); /* toByte(0, 32) || KEY */
            for (unsigned i = 0; i < 8; i++)
                fs_store_be32(blk + 32 + 4 * i, key[i]);
            fs_sha256_compress_x1(h, in, 1);
            last_block(blk, m);
            fs_sha256_compress_x1(h, in, 1);
            for (unsigned i = 0; i < 8; i++)
                x[i * L + l] = h[i];
            adrs[6 * L + l]++;
            fs_wipe(m, sizeof(m));
            fs_wipe(blk, sizeof(blk));
        }
}

/* LM-OTS: words are q and i << 16 | j << 8, key is I. */
void fs_lms_chain_x16_portable(uint32_t x[8 * L], uint32_t qij[FS_CHAIN_MAX_WORDS * L],
                               const uint32_t I[8], size_t steps, unsigned n)
{
    if (steps == 0)
        return;
    for (unsigned l = 0; l < L; l++) {
        uint8_t blk[64];
        const uint8_t *in[1] = { blk };
        uint32_t h[8];
        memset(blk, 0, sizeof(blk));
        for (unsigned k = 0; k < 4; k++)
            fs_store_be32(blk + 4 * k, I[k]);
        fs_store_be32(blk + 16, qij[l]);
        blk[20] = (uint8_t)(qij[L + l] >> 24);
        blk[21] = (uint8_t)(qij[L + l] >> 16);
        uint8_t j = (uint8_t)(qij[L + l] >> 8);
        for (unsigned k = 0; k < n / 4; k++)
            fs_store_be32(blk + HDR + 4 * k, x[k * L + l]);
        blk[HDR + n] = 0x80;
        blk[62] = (uint8_t)(((HDR + n) * 8) >> 8);
        blk[63] = (uint8_t)((HDR + n) * 8);
        for (size_t s = 0; s < steps; s++, j++) {
            blk[22] = j;
            memcpy(h, fs_sha256_iv, sizeof(h));
            fs_sha256_compress_x1(h, in, 1);
            for (unsigned k = 0; k < n / 4; k++)
                fs_store_be32(blk + HDR + 4 * k, h[k]);
        }
        for (unsigned k = 0; k < n / 4; k++)
            x[k * L + l] = fs_load_be32(blk + HDR + 4 * k);
        qij[L + l] = (qij[L + l] & 0xffff00ffu) | (uint32_t)j << 8;
        fs_wipe(blk, sizeof(blk));
        fs_wipe(h, sizeof(h));
    }
}

/* Lanes 32: the x16 twin on each group. */
void fs_lms_chain_x32_portable(uint32_t x[8 * L], uint32_t qij[FS_CHAIN_MAX_WORDS * L],
                               const uint32_t I[8], size_t steps, unsigned n)
{
    fs_lms_chain_x16_portable(x, qij, I, steps, n);
    fs_lms_chain_x16_portable(x + 8 * L, qij + FS_CHAIN_MAX_WORDS * L, I, steps, n);
}

/* Static costs per lane-step (the twin runs one lane at a time). aux: the
 * x16 compression kernel of the row's round layout, which the calibration
 * times for it (chain_trial). */
const fs_kernel fs_wots_chain_kernels[] = {
    { "portable-x16-chain", FS_KERNEL_FN(fs_sha256_chain_x16_portable), NULL, 16, 0,
      FS_KERNEL_TWIN, 160 },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x16-chain", FS_KERNEL_FN(fs_sha256_chain_x16_avx512),
      FS_KERNEL_FN(fs_sha256_compress_x16_avx512), 16, FS_CPU_AVX512, 0, 16 },
    { "avx512-x16-lean-chain", FS_KERNEL_FN(fs_sha256_chain_x16_avx512_lean),
      FS_KERNEL_FN(fs_sha256_compress_x16_avx512_lean), 16, FS_CPU_AVX512, 0, 16 },
#endif
    FS_KERNEL_END,
};

const fs_kernel fs_lmots_chain_kernels[] = {
    { "portable-x16-lms-chain", FS_KERNEL_FN(fs_lms_chain_x16_portable), NULL, 16, 0,
      FS_KERNEL_TWIN, 60 },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x16-lms-chain", FS_KERNEL_FN(fs_lms_chain_x16_avx512),
      FS_KERNEL_FN(fs_sha256_compress_x16_avx512), 16, FS_CPU_AVX512, 0, 6 },
    { "avx512-x16-lean-lms-chain", FS_KERNEL_FN(fs_lms_chain_x16_avx512_lean),
      FS_KERNEL_FN(fs_sha256_compress_x16_avx512_lean), 16, FS_CPU_AVX512, 0, 6 },
#endif
    /* two groups: picked for 32 chains when cheaper per lane than x16 */
    { "portable-x32-lms-chain", FS_KERNEL_FN(fs_lms_chain_x32_portable), NULL, 32, 0,
      FS_KERNEL_TWIN, 60 },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x32-lms-chain", FS_KERNEL_FN(fs_lms_chain_x32_avx512),
      FS_KERNEL_FN(fs_sha256_compress_x32_avx512), 32, FS_CPU_AVX512, 0, 5 },
#endif
    FS_KERNEL_END,
};

/* Row k's cost per lane: measured, or static where there are no measured
 * costs (the device build's kernel_cost_static.c). */
static unsigned row_cost(const fs_kernel_table *t, const unsigned *cost, const fs_kernel *k)
{
    return cost ? cost[k - t->rows] : k->cost;
}

/* The cheapest usable row of `lanes` lanes (cost per lane), or NULL. */
static const fs_kernel *cheapest(const fs_kernel_table *t, const unsigned *cost, unsigned mask,
                                 unsigned lanes)
{
    const fs_kernel *best = NULL;
    for (const fs_kernel *k = t->rows; k->name != NULL; k++)
        if (k->lanes == lanes && fs_kernel_usable(k, mask, 0) &&
            (best == NULL || row_cost(t, cost, k) < row_cost(t, cost, best)))
            best = k;
    return best;
}

fs_chain_pick fs_chain_pick_rows(const fs_kernel_table *t, unsigned mask)
{
    const unsigned *cost = fs_kernel_costs(t);
    fs_chain_pick p = { cheapest(t, cost, mask, FS_CHAIN_LANES),
                        cheapest(t, cost, mask, FS_CHAIN_MAX_LANES) };
    if (p.x16 == NULL || (p.x32 != NULL && row_cost(t, cost, p.x32) >= row_cost(t, cost, p.x16)))
        p.x32 = NULL;
    return p;
}

/* The calibration's trial (kernel_cost.h): the row's round layout, timed on
 * its compression kernel (aux, of the row's lanes), four blocks in every lane; the rounds are
 * most of a chain step. The fused kernels' own calls of a few steps timed
 * unsteadily at the start of a process (either layout up to 1.35x its
 * steady time, which picked the slower one in 16 of 40 runs of the bench
 * on Zen 5); the compression kernel's four blocks time steadily. */
static void chain_trial(const fs_kernel *k)
{
    static const uint8_t data[4 * FS_SHA256_BLOCK];
    _Alignas(64) uint32_t st[8 * FS_CHAIN_MAX_LANES] = { 0 };
    const uint8_t *in[FS_CHAIN_MAX_LANES];
    for (unsigned l = 0; l < FS_CHAIN_MAX_LANES; l++)
        in[l] = data;
    ((fs_sha256_compress_fn *)k->aux)(st, in, 4);
    __asm__ volatile("" : : "r"(st) : "memory"); /* the result counts */
}

FS_KERNEL_TABLE(fs_wots_chain_table, "wots-chain", fs_wots_chain_kernels, chain_trial);
FS_KERNEL_TABLE(fs_lmots_chain_table, "lmots-chain", fs_lmots_chain_kernels, chain_trial);
