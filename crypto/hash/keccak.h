/* keccak.h - Keccak-f[1600] kernels (one state, or N states interleaved) and
 * the SHAKE128/SHAKE256 sponge helpers built on them.
 *
 * State layout. One state is 25 words, word i = x + 5*y is the FIPS 202 lane
 * A[x][y] read little-endian (byte 8*i+k of the state string is byte k of
 * word i). An N-lane ("interleaved") state holds N independent states with
 * word i of lane l at st[i*N + l]; kernels permute every one of the N lanes.
 * Kernels are leaf functions with no alignment requirement on st.
 *
 * Kernels (all compute the same function; the tests hold the asm against the
 * portable twins):
 *   fs_keccakf1600(st[25])                   portable, one state
 *   fs_keccakf1600_x4_portable(st[25*4])     portable twin of the AVX2 kernel
 *   fs_keccakf1600_x8_portable(st[25*8])     portable twin of the AVX-512 one
 *   fs_keccakf1600_x2_portable(st[25*2])     portable twin of the x2 one
 *   fs_keccakf1600_x4_avx2(st[25*4])         asm, needs FS_CPU_AVX2
 *   fs_keccakf1600_x8_avx512(st[25*8])       asm, needs FS_CPU_AVX512
 *   fs_keccakf1600_x2_avx512(st[25*2])       asm (xmm, AVX-512VL), needs FS_CPU_AVX512;
 *                                            for one or two messages it beats the
 *                                            x8 kernel (see fs_keccak_kernels_x2)
 * Absorb kernels (asm) xor whole blocks into the state and permute, block
 * after block in one call (the AVX-512 one keeps the state in registers);
 * fs_keccak_absorb_blocks uses them when it can:
 *   fs_keccak_absorb_x4_avx2(st[25*4], in[4], nblocks, rate)
 *   fs_keccak_absorb_x8_avx512(st[25*8], in[8], nblocks, rate)
 * for every block b < nblocks and lane l: xor in[l][rate*b .. rate*b+rate)
 * (little-endian words) into lane l, then permute. rate is 136 or 168, or 0
 * to permute nblocks times without input. All N pointers must be readable.
 * The asm ones exist only when FASTSIG_HAVE_ASM is defined. */
#ifndef FASTSIG_KECCAK_H
#define FASTSIG_KECCAK_H

#include <stddef.h>
#include <stdint.h>

#define FS_KECCAK_WORDS 25
#define FS_KECCAK_MAX_LANES 8
#define FS_SHAKE128_RATE 168 /* bytes per block */
#define FS_SHAKE256_RATE 136
#define FS_SHAKE_DS 0x1f     /* SHAKE domain bits + first padding bit */

/* Round constants of Keccak-f[1600], also read by the asm kernels. */
extern const uint64_t fs_keccak_rc[24];

/* Permutes every lane of an interleaved state (the lane count is the
 * kernel's, see fs_keccak_kernel). */
typedef void fs_keccak_perm_fn(uint64_t *st);

void fs_keccakf1600(uint64_t st[25]);
void fs_keccakf1600_x4_portable(uint64_t st[25 * 4]);
void fs_keccakf1600_x8_portable(uint64_t st[25 * 8]);
void fs_keccakf1600_x2_portable(uint64_t st[25 * 2]);
/* Any lane count n >= 1 (st[i*n + l]). */
void fs_keccakf1600_xn_portable(uint64_t *st, unsigned n);

typedef void fs_keccak_absorb_fn(uint64_t *st, const uint8_t *const in[], size_t nblocks,
                                 size_t rate);

#if defined(FASTSIG_HAVE_ASM)
void fs_keccakf1600_x4_avx2(uint64_t st[25 * 4]);
void fs_keccakf1600_x8_avx512(uint64_t st[25 * 8]);
void fs_keccakf1600_x2_avx512(uint64_t st[25 * 2]);
void fs_keccak_absorb_x4_avx2(uint64_t st[25 * 4], const uint8_t *const in[4], size_t nblocks,
                              size_t rate);
void fs_keccak_absorb_x8_avx512(uint64_t st[25 * 8], const uint8_t *const in[8], size_t nblocks,
                                size_t rate);
#endif

/* A permutation kernel and its lane count (the interleave stride). */
typedef struct {
    const char *name;       /* "portable-x1", "avx512-x8", ... */
    fs_keccak_perm_fn *perm;
    fs_keccak_absorb_fn *absorb; /* NULL: absorb in C around perm */
    unsigned lanes;
    unsigned cpu;           /* FS_CPU_* bits it needs (0 for portable) */
} fs_keccak_kernel;

/* Every kernel built in, portable ones first; ends with { NULL }. Tests and
 * benchmarks walk it; a dispatcher may pick from it with fs_cpu_features(). */
extern const fs_keccak_kernel fs_keccak_kernels[];

/* Two-lane kernels (portable twin first; ends with { NULL }) for callers
 * that hash one or two messages at a time (the RW full-domain hash). Kept
 * out of fs_keccak_kernels, from which the lane engine picks its widths.
 * fs_keccak_kernel_x2 returns the asm one when fs_cpu_features() allows it,
 * else NULL (the caller keeps its other kernel). */
extern const fs_keccak_kernel fs_keccak_kernels_x2[];
const fs_keccak_kernel *fs_keccak_kernel_x2(void);

/* A two-lane permutation with a side job for the integer pipes, which sit
 * idle while the vector unit permutes (the asm kernel interleaves the two
 * at no cost in its time): two dot products of each of two word vectors,
 *   acc[2 m + q] = sum over i < FS_KECCAK_DOT_LEN of X_m[i] * w[m][i][q]
 * (m, q in {0, 1}) as 192-bit little-endian numbers, set (not added to),
 * where X_m[i] is the big-endian 64-bit word at x[m] + 8 i (as numbers sit
 * in a signature). x[m] must have 8 * FS_KECCAK_DOT_LEN readable bytes. */
#define FS_KECCAK_DOT_LEN 36
typedef struct {
    const uint8_t *x[2];
    const uint64_t (*w[2])[2];
    uint64_t acc[4][3];
} fs_keccak_dot_job;
typedef void fs_keccak_dot_fn(uint64_t st[25 * 2], fs_keccak_dot_job *job);
void fs_keccakf1600_x2_dot_portable(uint64_t st[25 * 2], fs_keccak_dot_job *job);
#if defined(FASTSIG_HAVE_ASM)
void fs_keccakf1600_x2_dot_avx512(uint64_t st[25 * 2], fs_keccak_dot_job *job);
#endif
/* The asm kernel when fs_cpu_features() allows it (with the x2 kernel),
 * else NULL. */
fs_keccak_dot_fn *fs_keccak_dot_x2(void);

/* Sponge helpers over kernel k. `used` lanes (1..k->lanes) carry messages:
 * in[l] / out[l] for l < used; the remaining lanes of st are left in an
 * unspecified state. Every lane's message has the same length. rate is the
 * block size in bytes, at most FS_SHAKE128_RATE (the asm absorb kernels are
 * used for FS_SHAKE128_RATE and FS_SHAKE256_RATE).
 * A sponge call squeezes once: out bytes start at the beginning of the block
 * that the last absorb produced.
 *
 * absorb_blocks: xors len bytes (a multiple of rate) into st, permuting after
 *   each block. st starts all-zero, or as a midstate from earlier blocks.
 * absorb_final: absorbs len bytes (any length), then the padding (ds, e.g.
 *   FS_SHAKE_DS, and the final 0x80), and permutes: st then holds the first
 *   output block.
 * squeeze: writes outlen bytes per lane, permuting between output blocks. */
void fs_keccak_absorb_blocks(const fs_keccak_kernel *k, uint64_t *st, unsigned rate,
                             const uint8_t *const in[], unsigned used, size_t len);
void fs_keccak_absorb_final(const fs_keccak_kernel *k, uint64_t *st, unsigned rate,
                            const uint8_t *const in[], unsigned used, size_t len, uint8_t ds);
void fs_keccak_squeeze(const fs_keccak_kernel *k, uint64_t *st, unsigned rate,
                       uint8_t *const out[], unsigned used, size_t outlen);

/* One call: SHAKE (rate FS_SHAKE128_RATE or FS_SHAKE256_RATE) of `used`
 * messages of inlen bytes each into outlen bytes each. */
void fs_shake_lanes(const fs_keccak_kernel *k, unsigned rate, uint8_t *const out[], size_t outlen,
                    const uint8_t *const in[], size_t inlen, unsigned used);
/* Single message, portable kernel. */
void fs_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);
void fs_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

#endif
