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
 *   fs_keccakf1600_x16_portable(st[25*16])   portable twin of the x16 one
 *   fs_keccakf1600_x2_portable(st[25*2])     portable twin of the x2 one
 *   fs_keccakf1600_x4_avx2(st[25*4])         asm, needs FS_CPU_AVX2
 *   fs_keccakf1600_x8_avx2(st[25*8])         asm, two groups of 4 lanes, needs
 *                                            FS_CPU_AVX2 (twin: the x8 portable)
 *   fs_keccakf1600_x8_avx512(st[25*8])       asm, needs FS_CPU_AVX512
 *   fs_keccakf1600_x16_avx512(st[25*16])     asm, two groups of 8 lanes, needs
 *                                            FS_CPU_AVX512 (the engine's groups
 *                                            of 9..16 lanes)
 *   fs_keccakf1600_x2_avx512(st[25*2])       asm (xmm, AVX-512VL), needs FS_CPU_AVX512;
 *                                            for one or two messages it beats the
 *                                            x8 kernel (FS_KERNEL_PAIR, see
 *                                            fs_keccak_kernel_for)
 * Absorb kernels (asm) xor whole blocks into the state and permute, block
 * after block in one call (the AVX-512 one keeps the state in registers);
 * fs_keccak_absorb_blocks uses them when it can:
 *   fs_keccak_absorb_x4_avx2(st[25*4], in[4], nblocks, rate)
 *   fs_keccak_absorb_x8_avx512(st[25*8], in[8], nblocks, rate)
 *   fs_keccak_absorb_x16_avx512(st[25*16], in[16], nblocks, rate)
 * for every block b < nblocks and lane l: xor in[l][rate*b .. rate*b+rate)
 * (little-endian words) into lane l, then permute. rate is 136 or 168, or 0
 * to permute nblocks times without input. All N pointers must be readable.
 * The asm ones exist only when FASTSIG_HAVE_ASM is defined. */
#ifndef FASTSIG_KECCAK_H
#define FASTSIG_KECCAK_H

#include <stddef.h>
#include <stdint.h>
#include "cpu.h"
#include "kernel_cost.h"

#define FS_KECCAK_WORDS 25
#define FS_KECCAK_MAX_LANES 16
#define FS_SHAKE128_RATE 168 /* bytes per block */
#define FS_SHAKE256_RATE 136
#define FS_SHAKE_DS 0x1f     /* SHAKE domain bits + first padding bit */

/* Round constants of Keccak-f[1600], also read by the asm kernels. */
extern const uint64_t fs_keccak_rc[24];

/* Permutes every lane of an interleaved state (the lane count is the
 * kernel's, see fs_keccak_kernels). */
typedef void fs_keccak_perm_fn(uint64_t *st);

void fs_keccakf1600(uint64_t st[25]);
void fs_keccakf1600_x4_portable(uint64_t st[25 * 4]);
void fs_keccakf1600_x8_portable(uint64_t st[25 * 8]);
void fs_keccakf1600_x2_portable(uint64_t st[25 * 2]);
void fs_keccakf1600_x16_portable(uint64_t st[25 * 16]);
/* Any lane count n >= 1 (st[i*n + l]). */
void fs_keccakf1600_xn_portable(uint64_t *st, unsigned n);

typedef void fs_keccak_absorb_fn(uint64_t *st, const uint8_t *const in[], size_t nblocks,
                                 size_t rate);

#if defined(FASTSIG_HAVE_ASM)
void fs_keccakf1600_x4_avx2(uint64_t st[25 * 4]);
void fs_keccakf1600_x8_avx2(uint64_t st[25 * 8]);
void fs_keccakf1600_x8_avx512(uint64_t st[25 * 8]);
void fs_keccakf1600_x2_avx512(uint64_t st[25 * 2]);
void fs_keccakf1600_x16_avx512(uint64_t st[25 * 16]);
void fs_keccak_absorb_x4_avx2(uint64_t st[25 * 4], const uint8_t *const in[4], size_t nblocks,
                              size_t rate);
void fs_keccak_absorb_x8_avx512(uint64_t st[25 * 8], const uint8_t *const in[8], size_t nblocks,
                                size_t rate);
void fs_keccak_absorb_x16_avx512(uint64_t st[25 * 16], const uint8_t *const in[16],
                                 size_t nblocks, size_t rate);
#endif

/* The kernel table's rows (cpu.h fs_kernel): fn is an fs_keccak_perm_fn,
 * aux an fs_keccak_absorb_fn (NULL: absorb in C around the permutation),
 * lanes the interleave stride. */
static inline fs_keccak_perm_fn *fs_keccak_perm(const fs_kernel *k)
{
    return (fs_keccak_perm_fn *)k->fn;
}

static inline fs_keccak_absorb_fn *fs_keccak_absorb(const fs_kernel *k)
{
    return (fs_keccak_absorb_fn *)k->aux;
}

/* Every kernel built in, portable ones first; ends with { NULL }. Tests and
 * benchmarks walk it; the lane engine (lanes.c) and fs_keccak_kernel_for
 * pick from it. */
extern const fs_kernel fs_keccak_kernels[];
/* The table as the picker and the calibration see it ("keccak"). */
extern const fs_kernel_table fs_keccak_table;

/* The kernel for a caller that hashes `lanes` messages at a time outside
 * the lane engine (the RW full-domain hash): fs_kernel_pick's choice among
 * the rows fs_cpu_features() allows, two-lane ones included, by the
 * process's kernel costs (kernel_cost.h); e.g. for one or two lanes the
 * two-lane asm kernel (about 3/4 of an x8 call), for three one x8 call.
 * Worked out once per lane count; never NULL. */
const fs_kernel *fs_keccak_kernel_for(unsigned lanes);

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
void fs_keccak_absorb_blocks(const fs_kernel *k, uint64_t *st, unsigned rate,
                             const uint8_t *const in[], unsigned used, size_t len);
void fs_keccak_absorb_final(const fs_kernel *k, uint64_t *st, unsigned rate,
                            const uint8_t *const in[], unsigned used, size_t len, uint8_t ds);
void fs_keccak_squeeze(const fs_kernel *k, uint64_t *st, unsigned rate,
                       uint8_t *const out[], unsigned used, size_t outlen);

/* Incremental SHAKE on one state and the portable kernel, for callers that
 * absorb a message in pieces (RW: a domain string, a key id, the message).
 * rate: FS_SHAKE128_RATE or FS_SHAKE256_RATE. The first squeeze pads; later
 * squeezes continue the output stream; absorbing after a squeeze is not
 * allowed. Wipe a context that held secrets. */
typedef struct {
    uint64_t st[25];
    unsigned rate;
    unsigned pos;     /* bytes absorbed into the current block / squeezed */
    int squeezing;
} fs_shake_ctx;

void fs_shake_init(fs_shake_ctx *x, unsigned rate);
void fs_shake_absorb(fs_shake_ctx *x, const void *in, size_t len);
void fs_shake_squeeze(fs_shake_ctx *x, uint8_t *out, size_t len);
void fs_shake_wipe(fs_shake_ctx *x);

/* One call: SHAKE (rate FS_SHAKE128_RATE or FS_SHAKE256_RATE) of `used`
 * messages of inlen bytes each into outlen bytes each. */
void fs_shake_lanes(const fs_kernel *k, unsigned rate, uint8_t *const out[], size_t outlen,
                    const uint8_t *const in[], size_t inlen, unsigned used);
/* Single message, portable kernel. */
void fs_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);
void fs_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

#endif
