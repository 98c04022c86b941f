/* sha512.c - portable SHA-512 compression (one lane, and the transposed twins
 * of the asm kernels), its constants and the table of built-in kernels. */
#include "bytes.h"
#include "cpu.h"
#include "hash/sha512.h"

const uint64_t fs_sha512_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

const uint64_t fs_sha512_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static inline uint64_t ror64(uint64_t v, unsigned n)
{
    return (v >> n) | (v << (64 - n));
}

#define SHA2_WORD uint64_t
#define SHA2_ROUNDS 80
#define SHA2_K fs_sha512_k
#define SHA2_BLOCK FS_SHA512_BLOCK
#define SHA2_LOAD fs_load_be64
#define SHA2_BSIG0(x) (ror64(x, 28) ^ ror64(x, 34) ^ ror64(x, 39))
#define SHA2_BSIG1(x) (ror64(x, 14) ^ ror64(x, 18) ^ ror64(x, 41))
#define SHA2_SSIG0(x) (ror64(x, 1) ^ ror64(x, 8) ^ ((x) >> 7))
#define SHA2_SSIG1(x) (ror64(x, 19) ^ ror64(x, 61) ^ ((x) >> 6))
#include "hash/sha2_block.h"

void fs_sha512_compress_x1(uint64_t st[8], const uint8_t *const in[1], size_t nblocks)
{
    for (size_t b = 0; b < nblocks; b++)
        compress_block(st, in[0] + FS_SHA512_BLOCK * b);
}

void fs_sha512_compress_xn_portable(uint64_t *st, unsigned n, const uint8_t *const in[],
                                    size_t nblocks)
{
    compress_lanes(st, n, in, nblocks);
}

void fs_sha512_compress_x4_portable(uint64_t st[8 * 4], const uint8_t *const in[4], size_t nblocks)
{
    fs_sha512_compress_xn_portable(st, 4, in, nblocks);
}

void fs_sha512_compress_x8_portable(uint64_t st[8 * 8], const uint8_t *const in[8], size_t nblocks)
{
    fs_sha512_compress_xn_portable(st, 8, in, nblocks);
}

void fs_sha512_compress_x16_portable(uint64_t st[8 * 16], const uint8_t *const in[16],
                                     size_t nblocks)
{
    fs_sha512_compress_xn_portable(st, 16, in, nblocks);
}

const fs_kernel fs_sha512_kernels[] = {
    { "portable-x1", FS_KERNEL_FN(fs_sha512_compress_x1), NULL, 1, 0, 0, 150 },
    { "portable-x4", FS_KERNEL_FN(fs_sha512_compress_x4_portable), NULL, 4, 0, FS_KERNEL_TWIN, 150 },
    { "portable-x8", FS_KERNEL_FN(fs_sha512_compress_x8_portable), NULL, 8, 0, FS_KERNEL_TWIN, 150 },
    { "portable-x16", FS_KERNEL_FN(fs_sha512_compress_x16_portable), NULL, 16, 0, FS_KERNEL_TWIN,
      150 },
#if defined(FASTSIG_HAVE_ASM)
    { "avx2-x4", FS_KERNEL_FN(fs_sha512_compress_x4_avx2), NULL, 4, FS_CPU_AVX2, 0, 33 },
    { "avx512-x8", FS_KERNEL_FN(fs_sha512_compress_x8_avx512), NULL, 8, FS_CPU_AVX512, 0, 11 },
    /* two 8-lane states interleaved: one hides the other's latency */
    { "avx512-x16", FS_KERNEL_FN(fs_sha512_compress_x16_avx512), NULL, 16, FS_CPU_AVX512, 0, 10 },
#endif
    FS_KERNEL_END,
};

/* The calibration's trial: two blocks in every lane. */
static void sha512_trial(const fs_kernel *k)
{
    static const uint8_t data[2 * FS_SHA512_BLOCK];
    _Alignas(64) uint64_t st[8 * FS_SHA512_MAX_LANES] = { 0 };
    const uint8_t *in[FS_SHA512_MAX_LANES];
    for (unsigned l = 0; l < FS_SHA512_MAX_LANES; l++)
        in[l] = data;
    fs_sha512_fn(k)(st, in, 2);
    __asm__ volatile("" : : "r"(st) : "memory"); /* the result counts */
}

FS_KERNEL_TABLE(fs_sha512_table, "sha512", fs_sha512_kernels, sha512_trial);
