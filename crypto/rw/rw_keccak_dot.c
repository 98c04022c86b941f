/* rw_keccak_dot.c - the portable twin of the stitched two-lane permutation
 * (rw_keccak_dot.h), the kernel table and its dispatch. */
#include "cpu.h"
#include "hash/keccak.h"
#include "rw/rw_keccak_dot.h"

void rw_keccakf1600_x2_dot_portable(uint64_t st[25 * 2], rw_keccak_dot_job *job)
{
    fs_keccakf1600_x2_portable(st);
    for (int m = 0; m < 2; m++)
        for (int q = 0; q < 2; q++) {
            unsigned __int128 lo = 0;   /* the low 128 bits */
            uint64_t top = 0;
            for (int i = 0; i < RW_KECCAK_DOT_LEN; i++) {
                uint64_t x = 0;
                for (int b = 0; b < 8; b++)
                    x = x << 8 | job->x[m][8 * i + b];
                unsigned __int128 t = lo + (unsigned __int128)x * job->w[m][i][q];
                top += t < lo;
                lo = t;
            }
            job->acc[2 * m + q][0] = (uint64_t)lo;
            job->acc[2 * m + q][1] = (uint64_t)(lo >> 64);
            job->acc[2 * m + q][2] = top;
        }
}

const rw_keccak_dot_kernel rw_keccak_dot_kernels[] = {
    { "portable-x2-dot", rw_keccakf1600_x2_dot_portable, 0, FS_KERNEL_TWIN },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x2-dot", rw_keccakf1600_x2_dot_avx512, FS_CPU_AVX512, 0 },
#endif
    { NULL, NULL, 0, 0 },
};

/* The choice is a pure function of fs_cpu_features(): threads that race
 * to make it store the same pointer. */
static rw_keccak_dot_fn *choose(void)
{
    for (const rw_keccak_dot_kernel *k = rw_keccak_dot_kernels; k->name != NULL; k++)
        if (!(k->flags & FS_KERNEL_TWIN) && fs_cpu_allows(k->cpu))
            return k->fn;
    return NULL;
}

rw_keccak_dot_fn *rw_keccak_dot(void)
{
    static int chosen;
    static rw_keccak_dot_fn *fn;
    if (__atomic_load_n(&chosen, __ATOMIC_ACQUIRE))
        return __atomic_load_n(&fn, __ATOMIC_RELAXED);
    rw_keccak_dot_fn *k = choose();
    __atomic_store_n(&fn, k, __ATOMIC_RELAXED);
    __atomic_store_n(&chosen, 1, __ATOMIC_RELEASE);
    return k;
}
