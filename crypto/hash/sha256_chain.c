/* sha256_chain.c - the portable twin of the fused chain kernel
 * (sha256_chain.h): the same steps, lane by lane, through the one-lane
 * compression on byte blocks, and the table of chain kernels. */
#include <string.h>
#include "cpu.h"
#include "hash/sha256.h"
#include "hash/lanes.h"
#include "hash/sha256_chain.h"

/* The last block of a 96-byte message: 8 words, 0x80, zeros, 768 bits. */
static void last_block(uint8_t blk[64], const uint32_t w[8])
{
    memset(blk, 0, 64);
    for (unsigned i = 0; i < 8; i++)
        fs_be32_store(blk + 4 * i, w[i]);
    blk[32] = 0x80;
    blk[62] = 768 >> 8;
}

static void prf(uint32_t out[8], const uint32_t mid[8], const uint32_t adrs[7], uint32_t km)
{
    uint8_t blk[64];
    uint32_t w[8];
    const uint8_t *in[1] = { blk };
    memcpy(w, adrs, 7 * sizeof(uint32_t));
    w[7] = km;
    last_block(blk, w);
    memcpy(out, mid, 8 * sizeof(uint32_t));
    fs_sha256_compress_x1(out, in, 1);
}

void fs_sha256_chain_x16_portable(uint32_t x[8 * FS_CHAIN_LANES],
                                  uint32_t adrs[7 * FS_CHAIN_LANES], const uint32_t mid[8],
                                  size_t steps)
{
    for (; steps; steps--)
        for (unsigned l = 0; l < FS_CHAIN_LANES; l++) {
            uint32_t a[7], key[8], bm[8], m[8];
            uint8_t blk[64];
            const uint8_t *in[1] = { blk };
            for (unsigned i = 0; i < 7; i++)
                a[i] = adrs[i * FS_CHAIN_LANES + l];
            prf(key, mid, a, 0);
            prf(bm, mid, a, 1);
            for (unsigned i = 0; i < 8; i++)
                m[i] = x[i * FS_CHAIN_LANES + l] ^ bm[i];
            uint32_t h[8];
            memcpy(h, fs_sha256_iv, sizeof(h));
            memset(blk, 0, 32); /* toByte(0, 32) || KEY */
            for (unsigned i = 0; i < 8; i++)
                fs_be32_store(blk + 32 + 4 * i, key[i]);
            fs_sha256_compress_x1(h, in, 1);
            last_block(blk, m);
            fs_sha256_compress_x1(h, in, 1);
            for (unsigned i = 0; i < 8; i++)
                x[i * FS_CHAIN_LANES + l] = h[i];
            adrs[6 * FS_CHAIN_LANES + l]++;
            explicit_bzero(m, sizeof(m));
            explicit_bzero(blk, sizeof(blk));
        }
}

const fs_sha256_chain_kernel fs_sha256_chain_kernels[] = {
    { "portable-x16-chain", fs_sha256_chain_x16_portable, 0, FS_KERNEL_TWIN },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x16-chain", fs_sha256_chain_x16_avx512, FS_CPU_AVX512, 0 },
#endif
    { NULL, NULL, 0, 0 },
};
