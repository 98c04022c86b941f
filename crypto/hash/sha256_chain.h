/* sha256_chain.h - fused SHA-256 chain kernels: 16 chains kept in words
 * across steps, each call running `steps` steps of every lane (the chain
 * walker, chain_walk.h, runs them on full 16-lane groups). Two rows of one
 * kernel type, which differ in what a step computes:
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
 * untouched. The asm kernels exist only with FASTSIG_HAVE_ASM and need
 * FS_CPU_AVX512; each row's portable twin is its reference in the tests. */
#ifndef FASTSIG_SHA256_CHAIN_H
#define FASTSIG_SHA256_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#define FS_CHAIN_LANES 16
/* Most lane words a kernel keeps per chain (WOTS+: ADRS words 0..6). */
#define FS_CHAIN_MAX_WORDS 7

/* The rows: which step a kernel computes. */
typedef enum { FS_CHAIN_WOTS = 0, FS_CHAIN_LMOTS = 1, FS_CHAIN_KINDS = 2 } fs_chain_kind;

typedef void fs_chain_fn(uint32_t x[8 * FS_CHAIN_LANES],
                         uint32_t words[FS_CHAIN_MAX_WORDS * FS_CHAIN_LANES],
                         const uint32_t key[8], size_t steps, unsigned n);

fs_chain_fn fs_sha256_chain_x16_portable, fs_lms_chain_x16_portable;
#if defined(FASTSIG_HAVE_ASM)
fs_chain_fn fs_sha256_chain_x16_avx512, fs_lms_chain_x16_avx512;
#endif

typedef struct {
    const char *name;   /* "portable-x16-chain", "avx512-x16-lms-chain", ... */
    fs_chain_kind kind; /* the step it computes */
    fs_chain_fn *fn;
    unsigned cpu;       /* FS_CPU_* bits it needs */
    unsigned flags;     /* FS_KERNEL_* (cpu.h) */
} fs_chain_kernel;

/* Every kernel built in (each row's twin first); ends with { NULL }. The
 * lane engine's selection takes, per kind, the first that is no twin and
 * that its CPU mask allows (fs_lanes_chain_kernel). */
extern const fs_chain_kernel fs_chain_kernels[];

#endif
