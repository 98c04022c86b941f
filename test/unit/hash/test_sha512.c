/* test_sha512.c - SHA-512 compression kernels against their portable twins,
 * and the padding helpers against OpenSSL's SHA-512. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "kernel_path.h"
#include "testutil.h"
#include "cpu.h"
#include "hash/sha512.h"

static int usable(const fs_kernel *k)
{
    return kernel_on_path("sha512", k->name, k->cpu);
}

static void openssl_sha512(uint8_t out[64], const uint8_t *in, size_t len)
{
    unsigned olen = 0;
    CU_ASSERT_FATAL(EVP_Digest(in, len, out, &olen, EVP_sha512(), NULL));
    CU_ASSERT_EQUAL(olen, 64);
}

enum { MAXBLOCKS = 4 };

/* Kernel k vs the portable twin on state st and blocks at in[] (one block
 * run per lane); 1 on agreement. */
static int compress_agrees(const fs_kernel *k, const uint64_t *st,
                           const uint8_t *const in[], size_t nblocks)
{
    uint64_t want[8 * FS_SHA512_MAX_LANES], got[8 * FS_SHA512_MAX_LANES + 1];
    size_t bytes = 8 * 8 * (size_t)k->lanes;
    memcpy(want, st, bytes);
    fs_sha512_compress_xn_portable(want, k->lanes, in, nblocks);
    uint64_t *g = got + 1; /* 8 bytes off the array's alignment */
    memcpy(g, st, bytes);
    fs_sha512_fn(k)(g, in, nblocks);
    return memcmp(g, want, bytes) == 0;
}

static void test_compress_kernels(void)
{
    static uint8_t blocks[FS_SHA512_MAX_LANES][MAXBLOCKS * FS_SHA512_BLOCK + 8];
    uint64_t st[8 * FS_SHA512_MAX_LANES];
    const uint8_t *in[FS_SHA512_MAX_LANES];
    for (const fs_kernel *k = fs_sha512_kernels; k->name; k++) {
        if (!usable(k))
            continue;
        size_t sbytes = 8 * 8 * (size_t)k->lanes;
        for (unsigned l = 0; l < k->lanes; l++)
            in[l] = blocks[l] + (l * 3) % 8; /* odd addresses, lanes differ */
        for (int fill = 0; fill < 2; fill++) { /* all-zero, all-ones */
            memset(st, fill ? 0xff : 0, sbytes);
            memset(blocks, fill ? 0xff : 0, sizeof(blocks));
            CU_ASSERT(compress_agrees(k, st, in, 1));
            CU_ASSERT(compress_agrees(k, st, in, MAXBLOCKS));
        }
        for (int r = 0; r < 100; r++) {
            fs_test_random((uint8_t *)st, sbytes);
            fs_test_random(&blocks[0][0], sizeof(blocks));
            size_t nb = (size_t)r % (MAXBLOCKS + 1); /* 0 too */
            if (!compress_agrees(k, st, in, nb)) {
                fprintf(stderr, "sha512 kernel %s differs, %zu blocks, run %d\n", k->name, nb, r);
                CU_FAIL("kernel differs from its twin");
                break;
            }
        }
    }
}

/* Every usable kernel and lane count, messages of many lengths at odd
 * addresses, different per lane, against OpenSSL lane by lane. */
static void test_lanes_vs_openssl(void)
{
    enum { MAXIN = 600 };
    static uint8_t inbuf[FS_SHA512_MAX_LANES][MAXIN + 3];
    uint8_t outbuf[FS_SHA512_MAX_LANES][64], want[64];
    const uint8_t *in[FS_SHA512_MAX_LANES];
    uint8_t *out[FS_SHA512_MAX_LANES];
    static const size_t lens[] = { 0,   1,   32,  64,  96,  110, 111, 112, 113, 127, 128,
                                   129, 200, 239, 240, 255, 256, 257, 383, 384, 511, 600 };
    int bad = 0;
    for (const fs_kernel *k = fs_sha512_kernels; k->name; k++) {
        if (!usable(k))
            continue;
        for (unsigned used = 1; used <= k->lanes; used++)
            for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
                size_t olen = (i + used) % 3 == 0 ? 32 : 64;
                for (unsigned l = 0; l < used; l++) {
                    fs_test_random(inbuf[l], sizeof(inbuf[l]));
                    in[l] = inbuf[l] + 1 + l % 3;
                    out[l] = outbuf[l];
                }
                fs_sha512_lanes(k, out, olen, in, lens[i], used);
                for (unsigned l = 0; l < used; l++) {
                    openssl_sha512(want, in[l], lens[i]);
                    if (memcmp(want, out[l], olen) != 0 && bad++ < 5)
                        fprintf(stderr, "SHA-512 kernel %s used %u lane %u len %zu\n", k->name,
                                used, l, lens[i]);
                }
            }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* Single-message helper on edge inputs, and a midstate: a whole prefix
 * block compressed first, then final with prefix = 128. */
static void test_single_and_midstate(void)
{
    uint8_t msg[1200], want[64], got[64];
    for (int fill = 0; fill < 2; fill++) {
        memset(msg, fill ? 0xff : 0, sizeof(msg));
        for (size_t len = 0; len <= sizeof(msg); len += 37) {
            openssl_sha512(want, msg, len);
            fs_sha512(got, msg, len);
            CU_ASSERT_EQUAL(memcmp(want, got, 64), 0);
        }
    }
    fs_test_random(msg, sizeof(msg));
    for (const fs_kernel *k = fs_sha512_kernels; k->name; k++) {
        if (!usable(k))
            continue;
        uint64_t st[8 * FS_SHA512_MAX_LANES];
        const uint8_t *in[FS_SHA512_MAX_LANES];
        uint8_t *out[FS_SHA512_MAX_LANES];
        for (unsigned l = 0; l < k->lanes; l++)
            in[l] = msg, out[l] = got;
        fs_sha512_init(k, st);
        fs_sha512_fn(k)(st, in, 1);
        in[0] = msg + FS_SHA512_BLOCK;
        fs_sha512_final(k, st, FS_SHA512_BLOCK, in, 1, 96, out, 64);
        openssl_sha512(want, msg, FS_SHA512_BLOCK + 96);
        CU_ASSERT_EQUAL(memcmp(want, got, 64), 0);
    }
}

int main(void)
{
    static const fs_test tests[] = {
        { "kernels vs portable twins", test_compress_kernels },
        { "lanes vs OpenSSL", test_lanes_vs_openssl },
        { "single message and midstate", test_single_and_midstate },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "sha512", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
