/* sha256.c - portable SHA-256 compression (one lane, and the transposed twins
 * of the asm kernels), its constants and the table of built-in kernels. */
#include "bytes.h"
#include "cpu.h"
#include "hash/sha256.h"

const uint32_t fs_sha256_iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

const uint32_t fs_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror32(uint32_t v, unsigned n)
{
    return (v >> n) | (v << (32 - n));
}

#define SHA2_WORD uint32_t
#define SHA2_ROUNDS 64
#define SHA2_K fs_sha256_k
#define SHA2_BLOCK FS_SHA256_BLOCK
#define SHA2_LOAD fs_load_be32
#define SHA2_BSIG0(x) (ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22))
#define SHA2_BSIG1(x) (ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25))
#define SHA2_SSIG0(x) (ror32(x, 7) ^ ror32(x, 18) ^ ((x) >> 3))
#define SHA2_SSIG1(x) (ror32(x, 17) ^ ror32(x, 19) ^ ((x) >> 10))
#include "hash/sha2_block.h"

void fs_sha256_compress_x1(uint32_t st[8], const uint8_t *const in[1], size_t nblocks)
{
    for (size_t b = 0; b < nblocks; b++)
        compress_block(st, in[0] + FS_SHA256_BLOCK * b);
}

void fs_sha256_compress_xn_portable(uint32_t *st, unsigned n, const uint8_t *const in[],
                                    size_t nblocks)
{
    compress_lanes(st, n, in, nblocks);
}

void fs_sha256_compress_x2_portable(uint32_t st[8 * 2], const uint8_t *const in[2], size_t nblocks)
{
    fs_sha256_compress_xn_portable(st, 2, in, nblocks);
}

void fs_sha256_compress_x4_portable(uint32_t st[8 * 4], const uint8_t *const in[4], size_t nblocks)
{
    fs_sha256_compress_xn_portable(st, 4, in, nblocks);
}

void fs_sha256_compress_x8_portable(uint32_t st[8 * 8], const uint8_t *const in[8], size_t nblocks)
{
    fs_sha256_compress_xn_portable(st, 8, in, nblocks);
}

void fs_sha256_compress_x16_portable(uint32_t st[8 * 16], const uint8_t *const in[16],
                                     size_t nblocks)
{
    fs_sha256_compress_xn_portable(st, 16, in, nblocks);
}

void fs_sha256_compress_x32_portable(uint32_t st[8 * 32], const uint8_t *const in[32],
                                     size_t nblocks)
{
    fs_sha256_compress_xn_portable(st, 32, in, nblocks);
}

const fs_kernel fs_sha256_kernels[] = {
    { "portable-x1", FS_KERNEL_FN(fs_sha256_compress_x1), NULL, 1, 0, 0, 180 },
    { "portable-x2", FS_KERNEL_FN(fs_sha256_compress_x2_portable), NULL, 2, 0, FS_KERNEL_TWIN, 180 },
    { "portable-x4", FS_KERNEL_FN(fs_sha256_compress_x4_portable), NULL, 4, 0, FS_KERNEL_TWIN, 180 },
    { "portable-x8", FS_KERNEL_FN(fs_sha256_compress_x8_portable), NULL, 8, 0, FS_KERNEL_TWIN, 180 },
    { "portable-x16", FS_KERNEL_FN(fs_sha256_compress_x16_portable), NULL, 16, 0, FS_KERNEL_TWIN, 180 },
    { "portable-x32", FS_KERNEL_FN(fs_sha256_compress_x32_portable), NULL, 32, 0, FS_KERNEL_TWIN, 180 },
#if defined(FASTSIG_HAVE_ASM)
    { "shani-x1", FS_KERNEL_FN(fs_sha256_compress_x1_shani), NULL, 1, FS_CPU_SHANI, 0, 32 },
    { "shani-x2", FS_KERNEL_FN(fs_sha256_compress_x2_shani), NULL, 2, FS_CPU_SHANI, 0, 18 },
    { "shani-x4", FS_KERNEL_FN(fs_sha256_compress_x4_shani), NULL, 4, FS_CPU_SHANI, 0, 17 },
    { "avx2-x8", FS_KERNEL_FN(fs_sha256_compress_x8_avx2), NULL, 8, FS_CPU_AVX2, 0, 29 },
    { "avx512-x16", FS_KERNEL_FN(fs_sha256_compress_x16_avx512), NULL, 16, FS_CPU_AVX512, 0, 11 },
    /* the port-lean round layout: ties with the row above go to that one */
    { "avx512-x16-lean", FS_KERNEL_FN(fs_sha256_compress_x16_avx512_lean), NULL, 16, FS_CPU_AVX512,
      0, 11 },
    /* two 16-lane states interleaved: one hides the other's latency */
    { "avx512-x32", FS_KERNEL_FN(fs_sha256_compress_x32_avx512), NULL, 32, FS_CPU_AVX512, 0, 10 },
#endif
    FS_KERNEL_END,
};

/* The calibration's trial: four blocks in every lane. */
static void sha256_trial(const fs_kernel *k)
{
    static const uint8_t data[4 * FS_SHA256_BLOCK];
    _Alignas(64) uint32_t st[8 * FS_SHA256_MAX_LANES] = { 0 };
    const uint8_t *in[FS_SHA256_MAX_LANES];
    for (unsigned l = 0; l < FS_SHA256_MAX_LANES; l++)
        in[l] = data;
    fs_sha256_fn(k)(st, in, 4);
    __asm__ volatile("" : : "r"(st) : "memory"); /* the result counts */
}

FS_KERNEL_TABLE(fs_sha256_table, "sha256", fs_sha256_kernels, sha256_trial);
