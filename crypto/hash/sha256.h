/* sha256.h - SHA-256 compression kernels (one message, or N messages with a
 * transposed state): the prototypes of the asm kernels and their C twins.
 *
 * State layout. One state is the 8 chaining words H0..H7 as host integers.
 * An N-lane ("transposed") state holds N independent states with word i of
 * lane l at st[i*N + l] (the SHA-NI kernel uses the same layout).
 *
 * Compression kernels: fn(st, in, nblocks) compresses nblocks 64-byte blocks
 * of every lane: lane l reads in[l][0 .. 64*nblocks). All N pointers must be
 * readable (a caller with fewer messages repeats one); no alignment needed.
 * Leaf functions; nblocks == 0 leaves st untouched.
 *   fs_sha256_compress_x1(st[8], in[1], n)              portable, one lane
 *   fs_sha256_compress_x2_portable(st[8*2], in[2], n)   twin of the SHA-NI x2 kernel
 *   fs_sha256_compress_x4_portable(st[8*4], in[4], n)   twin of the SHA-NI x4 kernel
 *   fs_sha256_compress_x8_portable(st[8*8], in[8], n)   twin of the AVX2 kernel
 *   fs_sha256_compress_x16_portable(st[8*16], in[16], n) twin of the AVX-512 one
 *   fs_sha256_compress_x32_portable(st[8*32], in[32], n) twin of the x32 one
 *   fs_sha256_compress_x1_shani(st[8], in[1], n)        asm sha256_ni.S: one
 *       stream (a lone message), needs FS_CPU_SHANI
 *   fs_sha256_compress_x2_shani(st[8*2], in[2], n)      asm sha256_ni.S: two
 *       interleaved streams (SHA-NI is latency-bound), needs FS_CPU_SHANI
 *   fs_sha256_compress_x4_shani(st[8*4], in[4], n)      asm sha256_ni_x4.S: four
 *       streams, schedules on the stack, needs FS_CPU_SHANI
 *   fs_sha256_compress_x8_avx2(st[8*8], in[8], n)       asm sha256_x8_avx2.S, FS_CPU_AVX2
 *   fs_sha256_compress_x16_avx512(st[8*16], in[16], n)  asm sha256_x16_avx512.S, FS_CPU_AVX512
 *   fs_sha256_compress_x16_avx512_lean(...)             the same in the port-lean
 *       round layout (sha256_x16_rounds.h), FS_CPU_AVX512
 *   fs_sha256_compress_x32_avx512(st[8*32], in[32], n)  asm sha256_x32_avx512.S:
 *       two 16-lane states interleaved round by round, FS_CPU_AVX512
 * The asm ones exist only when FASTSIG_HAVE_ASM is defined. */
#ifndef FASTSIG_SHA256_H
#define FASTSIG_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include "cpu.h"
#include "kernel_cost.h"

#define FS_SHA256_BLOCK 64
#define FS_SHA256_DIGEST 32
#define FS_SHA256_MAX_LANES 32

extern const uint32_t fs_sha256_iv[8];
/* Round constants, also read by the asm kernels. */
extern const uint32_t fs_sha256_k[64];

typedef void fs_sha256_compress_fn(uint32_t *st, const uint8_t *const in[], size_t nblocks);

void fs_sha256_compress_x1(uint32_t st[8], const uint8_t *const in[1], size_t nblocks);
void fs_sha256_compress_x2_portable(uint32_t st[8 * 2], const uint8_t *const in[2], size_t nblocks);
void fs_sha256_compress_x4_portable(uint32_t st[8 * 4], const uint8_t *const in[4], size_t nblocks);
void fs_sha256_compress_x8_portable(uint32_t st[8 * 8], const uint8_t *const in[8], size_t nblocks);
void fs_sha256_compress_x16_portable(uint32_t st[8 * 16], const uint8_t *const in[16],
                                     size_t nblocks);
void fs_sha256_compress_x32_portable(uint32_t st[8 * 32], const uint8_t *const in[32],
                                     size_t nblocks);
/* Any lane count n >= 1. */
void fs_sha256_compress_xn_portable(uint32_t *st, unsigned n, const uint8_t *const in[],
                                    size_t nblocks);

#if defined(FASTSIG_HAVE_ASM)
void fs_sha256_compress_x1_shani(uint32_t st[8], const uint8_t *const in[1], size_t nblocks);
void fs_sha256_compress_x2_shani(uint32_t st[8 * 2], const uint8_t *const in[2], size_t nblocks);
void fs_sha256_compress_x4_shani(uint32_t st[8 * 4], const uint8_t *const in[4], size_t nblocks);
void fs_sha256_compress_x8_avx2(uint32_t st[8 * 8], const uint8_t *const in[8], size_t nblocks);
void fs_sha256_compress_x16_avx512(uint32_t st[8 * 16], const uint8_t *const in[16],
                                   size_t nblocks);
void fs_sha256_compress_x16_avx512_lean(uint32_t st[8 * 16], const uint8_t *const in[16],
                                        size_t nblocks);
void fs_sha256_compress_x32_avx512(uint32_t st[8 * 32], const uint8_t *const in[32],
                                   size_t nblocks);
#endif

/* The kernel table's rows (cpu.h fs_kernel): fn is an
 * fs_sha256_compress_fn, lanes the transpose stride, cost the relative time
 * of one lane-block (avx512-x16 = 11) when nothing is measured. */
static inline fs_sha256_compress_fn *fs_sha256_fn(const fs_kernel *k)
{
    return (fs_sha256_compress_fn *)k->fn;
}

/* Every kernel built in, portable ones first; ends with { NULL }. */
extern const fs_kernel fs_sha256_kernels[];
/* The table as the picker and the calibration see it ("sha256"). */
extern const fs_kernel_table fs_sha256_table;

#endif
