/* sha256_chain.h - fused WOTS+ chain steps for SHA-256 with n = pad = 32:
 * 16 chains kept in words across steps, each step's two PRFs and F in one
 * kernel call (the chain walk of hash.c uses it for full 16-lane groups).
 *
 * Contract: fn(x, adrs, mid, steps) runs `steps` chain steps on each of 16
 * lanes. Word i of lane l is at x[i*16 + l] and adrs[i*16 + l] (SHA-256
 * words: big-endian bytes as integers). x: the chain values, in and out.
 * adrs: ADRS words 0..6 (word 6, the hash address, is the step's and is
 * advanced by one per step; word 7, keyAndMask, is implied). mid: the PRF
 * midstate after toByte(3, 32) || PUB_SEED. One step, per lane:
 *   KEY = PRF(ADRS, km 0), BM = PRF(ADRS, km 1), x = F(KEY, x ^ BM)
 *   F(KEY, M) = SHA-256(toByte(0, 32) || KEY || M), PRF(A) = SHA-256 on mid.
 * steps == 0 leaves everything untouched. The asm kernel exists only with
 * FASTSIG_HAVE_ASM and needs FS_CPU_AVX512; the portable twin is its
 * reference in the tests. */
#ifndef FASTSIG_SHA256_CHAIN_H
#define FASTSIG_SHA256_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#define FS_CHAIN_LANES 16

typedef void fs_sha256_chain_fn(uint32_t x[8 * FS_CHAIN_LANES], uint32_t adrs[7 * FS_CHAIN_LANES],
                                const uint32_t mid[8], size_t steps);

void fs_sha256_chain_x16_portable(uint32_t x[8 * FS_CHAIN_LANES],
                                  uint32_t adrs[7 * FS_CHAIN_LANES], const uint32_t mid[8],
                                  size_t steps);
#if defined(FASTSIG_HAVE_ASM)
void fs_sha256_chain_x16_avx512(uint32_t x[8 * FS_CHAIN_LANES], uint32_t adrs[7 * FS_CHAIN_LANES],
                                const uint32_t mid[8], size_t steps);
#endif

typedef struct {
    const char *name;   /* "portable-x16-chain", "avx512-x16-chain" */
    fs_sha256_chain_fn *fn;
    unsigned cpu;       /* FS_CPU_* bits it needs */
    unsigned flags;     /* FS_KERNEL_* (cpu.h) */
} fs_sha256_chain_kernel;

/* Every kernel built in (the twin first); ends with { NULL }. The lane
 * engine's selection takes the first that is no twin and that its CPU
 * mask allows (fs_lanes_chain_kernel). */
extern const fs_sha256_chain_kernel fs_sha256_chain_kernels[];

#endif
