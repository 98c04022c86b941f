/* sha256_chain.h - fused SHA-256 chain kernels: 16 chains kept in words
 * across steps, each call running `steps` steps of every lane (the chain
 * walker, chain_walk.h, runs them on full 16-lane groups). Two kinds of one
 * kernel type, fs_chain_fn, which differ in what a step computes:
 *
 * FS_CHAIN_WOTS, WOTS+ with n = pad = 32 (RFC 8391 section 3.1.2):
 *   words: ADRS words 0..6 (word 6, the hash address, is the step's and is
 *   advanced by one per step; word 7, keyAndMask, is implied). key: the PRF
 *   midstate after toByte(3, 32) || PUB_SEED (8 words). n is ignored (32).
 *   KEY = PRF(ADRS, km 0), BM = PRF(ADRS, km 1), x = F(KEY, x ^ BM)
 *   F(KEY, M) = SHA-256(toByte(0, 32) || KEY || M), PRF(A) = SHA-256 on key.
 * FS_CHAIN_LMOTS, LM-OTS with n = 32 or 24 (RFC 8554 section 4.4):
 *   words: word 0 = q, word 1 = i << 16 | j << 8 (low byte zero); j is
 *   advanced by one per step, modulo 256. key: the identifier I, 4 words.
 *   x = SHA-256(I || u32str(q) || u16str(i) || u8str(j) || x), first n bytes
 *   (n/4 words of x are used, the others left alone).
 *
 * Contract: word k of lane l is at x[k*16 + l] and words[k*16 + l] (SHA-256
 * words: big-endian bytes read as integers). steps == 0 leaves everything
 * untouched. A row of lanes 32 takes two such 16-lane groups back to back
 * (the second's x at x + 8*16, its words at words + FS_CHAIN_MAX_WORDS*16),
 * the same steps in all 32 lanes. The asm kernels exist only with
 * FASTSIG_HAVE_ASM and need FS_CPU_AVX512; each row's portable twin is its
 * reference in the tests. */
#ifndef FASTSIG_SHA256_CHAIN_H
#define FASTSIG_SHA256_CHAIN_H

#include <stddef.h>
#include <stdint.h>
#include "kernel_cost.h"

#define FS_CHAIN_LANES 16
/* Most lane words a kernel keeps per chain (WOTS+: ADRS words 0..6). */
#define FS_CHAIN_MAX_WORDS 7
/* Lanes of the widest row (two groups of FS_CHAIN_LANES). */
#define FS_CHAIN_MAX_LANES 32

/* The rows: which step a kernel computes. */
typedef enum { FS_CHAIN_WOTS = 0, FS_CHAIN_LMOTS = 1, FS_CHAIN_KINDS = 2 } fs_chain_kind;

typedef void fs_chain_fn(uint32_t x[8 * FS_CHAIN_LANES],
                         uint32_t words[FS_CHAIN_MAX_WORDS * FS_CHAIN_LANES],
                         const uint32_t key[8], size_t steps, unsigned n);

fs_chain_fn fs_sha256_chain_x16_portable, fs_lms_chain_x16_portable;
fs_chain_fn fs_lms_chain_x32_portable; /* lanes 32: two groups */
#if defined(FASTSIG_HAVE_ASM)
fs_chain_fn fs_sha256_chain_x16_avx512, fs_lms_chain_x16_avx512;
/* LM-OTS, lanes 32: two x16 groups' rounds paired (sha256_x16_pair.h) */
fs_chain_fn fs_lms_chain_x32_avx512;
/* the same kernels in the port-lean round layout (sha256_x16_rounds.h) */
fs_chain_fn fs_sha256_chain_x16_avx512_lean, fs_lms_chain_x16_avx512_lean;
#endif

/* The kernels, one fs_kernel table (cpu.h, kernel_cost.h) per kind: its
 * portable twin first (FS_KERNEL_TWIN: tests and benchmarks only), then the
 * asm rows (two round layouts); lanes 16, costs measured on the x16
 * compression kernel of the row's layout, its aux (static ones tie, to the
 * first asm row). LM-OTS also has a row of lanes 32 (and its twin), its
 * cost measured on the x32 compression kernel. The lane engine takes, per
 * kind, fs_chain_pick_rows's rows under its CPU mask: the cheapest of 16
 * lanes (fs_lanes_chain_kernel; none on a path without AVX-512) and the
 * cheapest of 32 when it costs less per lane (fs_lanes_chain_kernel_x32),
 * else none. Rows are matched by their lanes, not by fs_kernel_choose's
 * calls-times-cost, so a cost override cannot hand a 16-chain caller a
 * 32-lane row. */
extern const fs_kernel fs_wots_chain_kernels[], fs_lmots_chain_kernels[];
extern const fs_kernel_table fs_wots_chain_table;  /* "wots-chain" */
extern const fs_kernel_table fs_lmots_chain_table; /* "lmots-chain" */

/* The rows a selection uses under a CPU mask: x16, the cheapest row of 16
 * lanes by the table's costs (fs_kernel_costs; NULL when none is usable);
 * x32, the cheapest of 32 lanes when it costs less per lane than x16, else
 * NULL (32 chains then go as two calls of x16). */
typedef struct {
    const fs_kernel *x16, *x32;
} fs_chain_pick;
fs_chain_pick fs_chain_pick_rows(const fs_kernel_table *t, unsigned mask);

/* A row's kernel, through its real type. */
static inline fs_chain_fn *fs_chain_fn_of(const fs_kernel *k)
{
    return (fs_chain_fn *)k->fn;
}

/* The table of a kind's kernels. */
static inline const fs_kernel_table *fs_chain_table(fs_chain_kind kind)
{
    return kind == FS_CHAIN_WOTS ? &fs_wots_chain_table : &fs_lmots_chain_table;
}

#endif
