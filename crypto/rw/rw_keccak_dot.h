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
#include "cpu.h"
#include "kernel_cost.h"

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

/* The rows (cpu.h fs_kernel: "portable-x2-dot" the twin, "avx512-x2-dot"):
 * fn is an rw_keccak_dot_fn. */
static inline rw_keccak_dot_fn *rw_keccak_dot_fn_of(const fs_kernel *k)
{
    return (rw_keccak_dot_fn *)k->fn;
}

/* Every kernel built in (the twin first); ends with { NULL }. */
extern const fs_kernel rw_keccak_dot_kernels[];
/* The table as the picker sees it ("rw-keccak-dot"; static costs: the
 * kernel's time is the two-lane permutation's). */
extern const fs_kernel_table rw_keccak_dot_table;

/* The picker's choice among the rows fs_cpu_features() allows (twins never),
 * made once; NULL when there is none (the caller keeps its other path). */
rw_keccak_dot_fn *rw_keccak_dot(void);

#endif
