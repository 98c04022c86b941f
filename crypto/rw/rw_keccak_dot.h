/* rw_keccak_dot.h - a two-lane Keccak-f[1600] permutation with a side job
 * for the integer pipes, which sit idle while the vector unit permutes (the
 * asm kernel interleaves the two at no cost in its time): RW's probabilistic
 * verification computes residues of the signature this way while its hash
 * runs. The job is two dot products of each of two word vectors,
 *   acc[2 m + q] = sum over i < RW_KECCAK_DOT_LEN of X_m[i] * w[m][i][q]
 * (m, q in {0, 1}) as 192-bit little-endian numbers, set (not added to),
 * where X_m[i] is the big-endian 64-bit word at x[m] + 8 i (as numbers sit
 * in a signature). x[m] must have 8 * RW_KECCAK_DOT_LEN readable bytes. The
 * state is that of crypto/hash/keccak.h's two-lane kernels (word i of lane
 * l at st[2 i + l]). */
#ifndef FASTSIG_RW_KECCAK_DOT_H
#define FASTSIG_RW_KECCAK_DOT_H

#include <stdint.h>

#define RW_KECCAK_DOT_LEN 36
typedef struct {
    const uint8_t *x[2];
    const uint64_t (*w[2])[2];
    uint64_t acc[4][3];
} rw_keccak_dot_job;

typedef void rw_keccak_dot_fn(uint64_t st[25 * 2], rw_keccak_dot_job *job);

void rw_keccakf1600_x2_dot_portable(uint64_t st[25 * 2], rw_keccak_dot_job *job);
#if defined(FASTSIG_HAVE_ASM)
void rw_keccakf1600_x2_dot_avx512(uint64_t st[25 * 2], rw_keccak_dot_job *job);
#endif

typedef struct {
    const char *name;   /* "portable-x2-dot", "avx512-x2-dot" */
    rw_keccak_dot_fn *fn;
    unsigned cpu;       /* FS_CPU_* bits it needs */
    unsigned flags;     /* FS_KERNEL_* (cpu.h) */
} rw_keccak_dot_kernel;

/* Every kernel built in (the twin first); ends with { NULL }. */
extern const rw_keccak_dot_kernel rw_keccak_dot_kernels[];

/* The first entry that is no twin and that fs_cpu_features() allows, chosen
 * once; NULL when there is none (the caller keeps its other path). */
rw_keccak_dot_fn *rw_keccak_dot(void);

#endif
