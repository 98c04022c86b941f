/* sha256_lms_chain.h - fused LM-OTS chain steps (RFC 8554 section 4.4) for
 * SHA-256 (n = 32) and SHA-256/192 (n = 24): 16 chains kept in words across
 * steps, each step one compression whose message is rebuilt from the last
 * digest (lms_chain.c walks LM-OTS chains with it).
 *
 * Contract: fn(x, qij, I, steps, n) runs `steps` chain steps on each of 16
 * lanes. Word k of lane l is at x[k*16 + l] (SHA-256 words: big-endian bytes
 * read as integers); n/4 words per lane are used, the others left alone.
 * qij[l] = q, qij[16 + l] = i << 16 | j << 8 of lane l (low byte zero); j
 * is advanced by one per step, modulo 256. I: the 16-byte identifier as four
 * words. One step, per lane:
 *   x = SHA-256(I || u32str(q) || u16str(i) || u8str(j) || x), first n bytes.
 * steps == 0 leaves everything untouched; n is 24 or 32. The asm kernel
 * exists only with FASTSIG_HAVE_ASM and needs FS_CPU_AVX512; the portable
 * twin is its reference in the tests. */
#ifndef FASTSIG_SHA256_LMS_CHAIN_H
#define FASTSIG_SHA256_LMS_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#define FS_LMS_CHAIN_LANES 16

typedef void fs_lms_chain_fn(uint32_t x[8 * FS_LMS_CHAIN_LANES],
                             uint32_t qij[2 * FS_LMS_CHAIN_LANES], const uint32_t I[4],
                             size_t steps, unsigned n);

void fs_lms_chain_x16_portable(uint32_t x[8 * FS_LMS_CHAIN_LANES],
                               uint32_t qij[2 * FS_LMS_CHAIN_LANES], const uint32_t I[4],
                               size_t steps, unsigned n);
#if defined(FASTSIG_HAVE_ASM)
void fs_lms_chain_x16_avx512(uint32_t x[8 * FS_LMS_CHAIN_LANES],
                             uint32_t qij[2 * FS_LMS_CHAIN_LANES], const uint32_t I[4],
                             size_t steps, unsigned n);
#endif

typedef struct {
    const char *name;   /* "portable-x16-lms-chain", "avx512-x16-lms-chain" */
    fs_lms_chain_fn *fn;
    unsigned cpu;       /* FS_CPU_* bits it needs */
    unsigned flags;     /* FS_KERNEL_* (cpu.h) */
} fs_lms_chain_kernel;

/* Every kernel built in (the twin first); ends with { NULL }. The lane
 * engine's selection takes the first that is no twin and that its CPU
 * mask allows (fs_lanes_lms_chain_kernel). */
extern const fs_lms_chain_kernel fs_lms_chain_kernels[];

#endif
