/* test_sha256.c - every SHA-256 compression kernel in fs_sha256_kernels
 * against its portable twin (same lane count) and the one-lane portable
 * kernel against OpenSSL: random states, different data per lane, 0..5
 * blocks, unaligned and repeated lane pointers; all-zero and all-one states
 * and data. Kernels this CPU lacks are
 * reported and skipped. */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>
#include "cpu.h"
#include "hash/sha256.h"
#include "kernel_path.h"
#include "testutil.h"

static const fs_kernel *twin_of(const fs_kernel *k)
{
    for (const fs_kernel *t = fs_sha256_kernels; t->name; t++)
        if (t->cpu == 0 && t->lanes == k->lanes)
            return t;
    return NULL;
}

static void test_kernels_vs_twins(void)
{
    enum { MAXB = 5, N = FS_SHA256_MAX_LANES };
    uint8_t *data = malloc(N * MAXB * 64 + 64);
    for (const fs_kernel *k = fs_sha256_kernels; k->name; k++) {
        const fs_kernel *t = twin_of(k);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        if (!kernel_on_path("sha256", k->name, k->cpu))
            continue;
        for (int rep = 0; rep < 40; rep++) {
            uint32_t st[8 * N], st2[8 * N];
            const uint8_t *in[N];
            size_t nb = (size_t)rep % (MAXB + 1), off = (size_t)(rep * 7) % 64;
            fs_test_random(data, N * MAXB * 64 + 64);
            fs_test_random((uint8_t *)st, sizeof(st));
            memcpy(st2, st, sizeof(st));
            for (unsigned l = 0; l < k->lanes; l++)
                /* every 5th rep repeats lane 0's pointer in the last lanes */
                in[l] = data + off + ((rep % 5 == 4 && l > k->lanes / 2) ? 0 : l * MAXB * 64);
            fs_sha256_fn(k)(st, in, nb);
            fs_sha256_fn(t)(st2, in, nb);
            int same = memcmp(st, st2, 8 * 4 * k->lanes) == 0;
            if (!same)
                fprintf(stderr, "\n%s != %s: %zu blocks, offset %zu\n", k->name, t->name, nb, off);
            CU_ASSERT(same);
            /* the words beyond the kernel's lanes are not touched */
            CU_ASSERT(memcmp(st + 8 * k->lanes, st2 + 8 * k->lanes, 4 * 8 * (N - k->lanes)) == 0);
        }
    }
    free(data);
}

/* Edge words: states and data all 0x00, all 0xff (every add carries
 * through every bit), and the one against the other, for 1..3 blocks. */
static void test_kernels_edges(void)
{
    enum { N = FS_SHA256_MAX_LANES };
    static const uint8_t fills[][2] = { { 0x00, 0x00 }, { 0xff, 0xff }, { 0x00, 0xff },
                                        { 0xff, 0x00 } };
    uint8_t data[3 * 64];
    for (const fs_kernel *k = fs_sha256_kernels; k->name; k++) {
        const fs_kernel *t = twin_of(k);
        if (t == NULL || !kernel_on_path("sha256", k->name, k->cpu))
            continue;
        for (size_t f = 0; f < sizeof(fills) / sizeof(fills[0]); f++)
            for (size_t nb = 1; nb <= 3; nb++) {
                uint32_t st[8 * N], st2[8 * N];
                const uint8_t *in[N];
                memset(st, fills[f][0], sizeof(st));
                memset(data, fills[f][1], sizeof(data));
                memcpy(st2, st, sizeof(st));
                for (unsigned l = 0; l < N; l++)
                    in[l] = data;
                fs_sha256_fn(k)(st, in, nb);
                fs_sha256_fn(t)(st2, in, nb);
                int same = memcmp(st, st2, sizeof(st)) == 0;
                if (!same)
                    fprintf(stderr, "\n%s != %s: state 0x%02x, data 0x%02x, %zu blocks\n",
                            k->name, t->name, fills[f][0], fills[f][1], nb);
                CU_ASSERT(same);
            }
    }
}

/* The portable one-lane kernel is SHA-256: padded messages of 0..200 bytes
 * from the IV against OpenSSL's SHA256(). */
static void test_portable_vs_openssl(void)
{
    for (size_t len = 0; len <= 200; len++) {
        uint8_t msg[200], padded[4 * 64] = { 0 }, want[32], got[32];
        uint32_t st[8];
        const uint8_t *in[1] = { padded };
        size_t nb = (len + 9 + 63) / 64;
        fs_test_random(msg, len);
        memcpy(padded, msg, len);
        padded[len] = 0x80;
        for (int i = 0; i < 8; i++)
            padded[nb * 64 - 1 - i] = (uint8_t)((uint64_t)len * 8 >> (8 * i));
        memcpy(st, fs_sha256_iv, sizeof(st));
        fs_sha256_compress_x1(st, in, nb);
        for (int i = 0; i < 32; i++)
            got[i] = (uint8_t)(st[i / 4] >> (24 - 8 * (i % 4)));
        SHA256(msg, len, want);
        CU_ASSERT_EQUAL(memcmp(got, want, 32), 0);
    }
}

static const fs_test sha256_tests[] = {
    { "kernels vs portable twins", test_kernels_vs_twins },
    { "kernels vs portable twins on edge words", test_kernels_edges },
    { "portable vs OpenSSL SHA256()", test_portable_vs_openssl },
    { NULL, NULL },
};

int main(void)
{
    const fs_suite suites[] = { { "sha256 kernels", sha256_tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
