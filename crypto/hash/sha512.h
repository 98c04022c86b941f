/* sha512.h - SHA-512 compression kernels (one message, or N messages with a
 * transposed state) and the padding/finalisation helpers built on them.
 *
 * State layout. One state is the 8 chaining words H0..H7 as host integers.
 * An N-lane ("transposed") state holds N independent states with word i of
 * lane l at st[i*N + l].
 *
 * Compression kernels: fn(st, in, nblocks) compresses nblocks 128-byte blocks
 * of every lane: lane l reads in[l][0 .. 128*nblocks). All N pointers must be
 * readable (a caller with fewer messages repeats one); they need no alignment.
 * Leaf functions; nblocks == 0 leaves st untouched.
 *   fs_sha512_compress_x1(st[8], in[1], nblocks)        portable, one lane
 *   fs_sha512_compress_x4_portable(st[8*4], in[4], n)   twin of the AVX2 kernel
 *   fs_sha512_compress_x8_portable(st[8*8], in[8], n)   twin of the AVX-512 one
 *   fs_sha512_compress_x16_portable(st[8*16], in[16], n) twin of the 16-lane one
 *   fs_sha512_compress_x4_avx2(st[8*4], in[4], n)       asm, needs FS_CPU_AVX2
 *   fs_sha512_compress_x8_avx512(st[8*8], in[8], n)     asm, needs FS_CPU_AVX512
 *   fs_sha512_compress_x16_avx512(st[8*16], in[16], n)  asm, the same: two
 *                                   8-lane states interleaved round by round
 * The asm ones exist only when FASTSIG_HAVE_ASM is defined. */
#ifndef FASTSIG_SHA512_H
#define FASTSIG_SHA512_H

#include <stddef.h>
#include <stdint.h>
#include "cpu.h"
#include "kernel_cost.h"

#define FS_SHA512_BLOCK 128
#define FS_SHA512_DIGEST 64
#define FS_SHA512_MAX_LANES 16

extern const uint64_t fs_sha512_iv[8];
/* Round constants, also read by the asm kernels. */
extern const uint64_t fs_sha512_k[80];

typedef void fs_sha512_compress_fn(uint64_t *st, const uint8_t *const in[], size_t nblocks);

void fs_sha512_compress_x1(uint64_t st[8], const uint8_t *const in[1], size_t nblocks);
void fs_sha512_compress_x4_portable(uint64_t st[8 * 4], const uint8_t *const in[4], size_t nblocks);
void fs_sha512_compress_x8_portable(uint64_t st[8 * 8], const uint8_t *const in[8], size_t nblocks);
void fs_sha512_compress_x16_portable(uint64_t st[8 * 16], const uint8_t *const in[16],
                                     size_t nblocks);
/* Any lane count n >= 1. */
void fs_sha512_compress_xn_portable(uint64_t *st, unsigned n, const uint8_t *const in[],
                                    size_t nblocks);

#if defined(FASTSIG_HAVE_ASM)
void fs_sha512_compress_x4_avx2(uint64_t st[8 * 4], const uint8_t *const in[4], size_t nblocks);
void fs_sha512_compress_x8_avx512(uint64_t st[8 * 8], const uint8_t *const in[8], size_t nblocks);
void fs_sha512_compress_x16_avx512(uint64_t st[8 * 16], const uint8_t *const in[16],
                                   size_t nblocks);
#endif

/* The kernel table's rows (cpu.h fs_kernel): fn is an
 * fs_sha512_compress_fn, lanes the transpose stride. */
static inline fs_sha512_compress_fn *fs_sha512_fn(const fs_kernel *k)
{
    return (fs_sha512_compress_fn *)k->fn;
}

/* Every kernel built in, portable ones first; ends with { NULL }. */
extern const fs_kernel fs_sha512_kernels[];
/* The table as the picker and the calibration see it ("sha512"). */
extern const fs_kernel_table fs_sha512_table;

/* Helpers over kernel k. `used` lanes (1..k->lanes) carry messages, in[l] /
 * out[l] for l < used; other lanes of st may hold anything.
 *
 * init: sets every lane of st to the SHA-512 IV.
 * final: st holds the state after `prefix` bytes (a multiple of 128: 0 after
 *   init, or a precomputed midstate); compresses each lane's len more bytes
 *   with the padding for a prefix+len byte message and writes the first
 *   outlen (<= 64) bytes of each digest. st is left holding the final state.
 * fs_sha512_lanes: init + final, prefix 0. */
void fs_sha512_init(const fs_kernel *k, uint64_t *st);
void fs_sha512_final(const fs_kernel *k, uint64_t *st, uint64_t prefix,
                     const uint8_t *const in[], unsigned used, size_t len, uint8_t *const out[],
                     size_t outlen);
void fs_sha512_lanes(const fs_kernel *k, uint8_t *const out[], size_t outlen,
                     const uint8_t *const in[], size_t len, unsigned used);
/* Single message, portable kernel. */
void fs_sha512(uint8_t out[64], const uint8_t *in, size_t len);

#endif
