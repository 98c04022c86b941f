/* rw_keccak_dot.c - the portable twin of the stitched two-lane permutation
 * (rw_keccak_dot.h), the kernel table and its dispatch. */
#include "cpu.h"
#include "bytes.h"
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
                uint64_t x = fs_load_be64(job->x[m] + 8 * i);
                unsigned __int128 t = lo + (unsigned __int128)x * job->w[m][i][q];
                top += t < lo;
                lo = t;
            }
            job->acc[2 * m + q][0] = (uint64_t)lo;
            job->acc[2 * m + q][1] = (uint64_t)(lo >> 64);
            job->acc[2 * m + q][2] = top;
        }
}

const fs_kernel rw_keccak_dot_kernels[] = {
    { "portable-x2-dot", FS_KERNEL_FN(rw_keccakf1600_x2_dot_portable), NULL, 2, 0, FS_KERNEL_TWIN,
      150 },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x2-dot", FS_KERNEL_FN(rw_keccakf1600_x2_dot_avx512), NULL, 2, FS_CPU_AVX512, 0, 33 },
#endif
    FS_KERNEL_END,
};

FS_KERNEL_TABLE(rw_keccak_dot_table, "rw-keccak-dot", rw_keccak_dot_kernels, NULL);

rw_keccak_dot_fn *rw_keccak_dot(void)
{
    const fs_kernel *k = fs_kernel_default(&rw_keccak_dot_table);
    return k != NULL ? rw_keccak_dot_fn_of(k) : NULL;
}
