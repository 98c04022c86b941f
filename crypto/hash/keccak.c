/* keccak.c - portable Keccak-f[1600] (one state, and the interleaved twins of
 * the asm kernels) and the table of built-in permutation kernels. */
#include <string.h>
#include "cpu.h"
#include "hash/keccak.h"

const uint64_t fs_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho and pi together: B[j] = rol(A[pi_src[j]], pi_rot[j]). */
static const unsigned char pi_src[25] = {
    0, 6, 12, 18, 24, 3, 9, 10, 16, 22, 1, 7, 13, 19, 20, 4, 5, 11, 17, 23, 2, 8, 14, 15, 21,
};
static const unsigned char pi_rot[25] = {
    0, 44, 43, 21, 14, 28, 20, 3, 45, 61, 1, 6, 25, 8, 18, 27, 36, 10, 15, 56, 62, 55, 39, 41, 2,
};

static inline uint64_t rol64(uint64_t v, unsigned n)
{
    return n == 0 ? v : (v << n) | (v >> (64 - n));
}

void fs_keccakf1600(uint64_t a[25])
{
    uint64_t b[25], c[5], d[5];
    for (int round = 0; round < 24; round++) {
#pragma GCC unroll 5
        for (int x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
        for (int x = 0; x < 5; x++)
            d[x] = c[(x + 4) % 5] ^ rol64(c[(x + 1) % 5], 1);
#pragma GCC unroll 25
        for (int j = 0; j < 25; j++)
            b[j] = rol64(a[pi_src[j]] ^ d[pi_src[j] % 5], pi_rot[j]);
#pragma GCC unroll 25
        for (int j = 0; j < 25; j++) {
            int x = j % 5, row = j - x;
            a[j] = b[j] ^ (~b[row + (x + 1) % 5] & b[row + (x + 2) % 5]);
        }
        a[0] ^= fs_keccak_rc[round];
    }
}

void fs_keccakf1600_xn_portable(uint64_t *st, unsigned n)
{
    uint64_t one[25];
    for (unsigned l = 0; l < n; l++) {
        for (int i = 0; i < 25; i++)
            one[i] = st[i * n + l];
        fs_keccakf1600(one);
        for (int i = 0; i < 25; i++)
            st[i * n + l] = one[i];
    }
}

void fs_keccakf1600_x4_portable(uint64_t st[25 * 4])
{
    fs_keccakf1600_xn_portable(st, 4);
}

void fs_keccakf1600_x8_portable(uint64_t st[25 * 8])
{
    fs_keccakf1600_xn_portable(st, 8);
}

void fs_keccakf1600_x2_portable(uint64_t st[25 * 2])
{
    fs_keccakf1600_xn_portable(st, 2);
}

void fs_keccakf1600_x16_portable(uint64_t st[25 * 16])
{
    fs_keccakf1600_xn_portable(st, 16);
}

const fs_kernel fs_keccak_kernels[] = {
    { "portable-x1", FS_KERNEL_FN(fs_keccakf1600), NULL, 1, 0, 0, 150 },
    { "portable-x2", FS_KERNEL_FN(fs_keccakf1600_x2_portable), NULL, 2, 0, FS_KERNEL_TWIN | FS_KERNEL_PAIR, 150 },
    { "portable-x4", FS_KERNEL_FN(fs_keccakf1600_x4_portable), NULL, 4, 0, FS_KERNEL_TWIN, 150 },
    { "portable-x8", FS_KERNEL_FN(fs_keccakf1600_x8_portable), NULL, 8, 0, FS_KERNEL_TWIN, 150 },
    { "portable-x16", FS_KERNEL_FN(fs_keccakf1600_x16_portable), NULL, 16, 0, FS_KERNEL_TWIN, 150 },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x2", FS_KERNEL_FN(fs_keccakf1600_x2_avx512), NULL, 2, FS_CPU_AVX512, FS_KERNEL_PAIR, 33 },
    { "avx2-x4", FS_KERNEL_FN(fs_keccakf1600_x4_avx2), FS_KERNEL_FN(fs_keccak_absorb_x4_avx2), 4, FS_CPU_AVX2, 0, 33 },
    { "avx2-x8", FS_KERNEL_FN(fs_keccakf1600_x8_avx2), NULL, 8, FS_CPU_AVX2, 0, 31 },
    { "avx512-x8", FS_KERNEL_FN(fs_keccakf1600_x8_avx512), FS_KERNEL_FN(fs_keccak_absorb_x8_avx512), 8, FS_CPU_AVX512, 0, 11 },
    { "avx512-x16", FS_KERNEL_FN(fs_keccakf1600_x16_avx512), FS_KERNEL_FN(fs_keccak_absorb_x16_avx512), 16, FS_CPU_AVX512, 0, 9 },
#endif
    FS_KERNEL_END,
};

/* The calibration's trial: four permutations of every lane. */
static void keccak_trial(const fs_kernel *k)
{
    _Alignas(64) uint64_t st[25 * FS_KECCAK_MAX_LANES] = { 0 };
    for (int i = 0; i < 4; i++)
        fs_keccak_perm(k)(st);
    __asm__ volatile("" : : "r"(st) : "memory"); /* the result counts */
}

FS_KERNEL_TABLE(fs_keccak_table, "keccak", fs_keccak_kernels, keccak_trial);

const fs_kernel *fs_keccak_kernel_for(unsigned lanes)
{
    /* Worked out once per lane count; threads that race store the same
     * pointer (the costs are published once). */
    static const fs_kernel *choice[FS_KECCAK_MAX_LANES + 1];
    unsigned i = lanes == 0 ? 1 : lanes > FS_KECCAK_MAX_LANES ? FS_KECCAK_MAX_LANES : lanes;
    const fs_kernel *k = __atomic_load_n(&choice[i], __ATOMIC_ACQUIRE);
    if (k == NULL) {
        k = fs_kernel_choose(&fs_keccak_table, fs_cpu_features(), 0, i);
        __atomic_store_n(&choice[i], k, __ATOMIC_RELEASE);
    }
    return k;
}
