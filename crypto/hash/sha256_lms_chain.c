/* sha256_lms_chain.c - the portable twin of the fused LM-OTS chain kernel
 * (sha256_lms_chain.h): the same steps, lane by lane, on the byte message
 * of RFC 8554 through the one-lane compression, and the table of kernels. */
#include <string.h>
#include "cpu.h"
#include "hash/sha256.h"
#include "hash/lanes.h"
#include "hash/sha256_lms_chain.h"

enum { L = FS_LMS_CHAIN_LANES, HDR = 23 };

void fs_lms_chain_x16_portable(uint32_t x[8 * L], uint32_t qij[2 * L], const uint32_t I[4],
                               size_t steps, unsigned n)
{
    if (steps == 0)
        return;
    for (unsigned l = 0; l < L; l++) {
        uint8_t blk[64];
        const uint8_t *in[1] = { blk };
        uint32_t h[8];
        memset(blk, 0, sizeof(blk));
        for (unsigned k = 0; k < 4; k++)
            fs_be32_store(blk + 4 * k, I[k]);
        fs_be32_store(blk + 16, qij[l]);
        blk[20] = (uint8_t)(qij[L + l] >> 24);
        blk[21] = (uint8_t)(qij[L + l] >> 16);
        uint8_t j = (uint8_t)(qij[L + l] >> 8);
        for (unsigned k = 0; k < n / 4; k++)
            fs_be32_store(blk + HDR + 4 * k, x[k * L + l]);
        blk[HDR + n] = 0x80;
        blk[62] = (uint8_t)(((HDR + n) * 8) >> 8);
        blk[63] = (uint8_t)((HDR + n) * 8);
        for (size_t s = 0; s < steps; s++, j++) {
            blk[22] = j;
            memcpy(h, fs_sha256_iv, sizeof(h));
            fs_sha256_compress_x1(h, in, 1);
            for (unsigned k = 0; k < n / 4; k++)
                fs_be32_store(blk + HDR + 4 * k, h[k]);
        }
        for (unsigned k = 0; k < n / 4; k++)
            x[k * L + l] = fs_be32_load(blk + HDR + 4 * k);
        qij[L + l] = (qij[L + l] & 0xffff00ffu) | (uint32_t)j << 8;
        explicit_bzero(blk, sizeof(blk));
        explicit_bzero(h, sizeof(h));
    }
}

const fs_lms_chain_kernel fs_lms_chain_kernels[] = {
    { "portable-x16-lms-chain", fs_lms_chain_x16_portable, 0, FS_KERNEL_TWIN },
#if defined(FASTSIG_HAVE_ASM)
    { "avx512-x16-lms-chain", fs_lms_chain_x16_avx512, FS_CPU_AVX512, 0 },
#endif
    { NULL, NULL, 0, 0 },
};
