/* test_chains.c - every fused WOTS+ chain kernel of the table
 * (sha256_chain.h, fs_wots_chain_kernels) that this CPU path allows, the
 * portable twin included, against the twin, and the fused chain walk
 * (chains.h) on each of them against the lane walk: random chain values,
 * ADRS, starts and lengths (zero-length chains, tails, counts past the sort
 * limit, lengths past the sort buckets, in == out, hash addresses up to
 * UINT32_MAX), and all-zero and all-one words. The asm rows (both round
 * layouts) are skipped when this CPU path lacks AVX-512. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "cpu.h"
#include "hash/chains.h"
#include "hash/sha256_chain.h"
#include "kernel_path.h"
#include "testutil.h"

enum { L = FS_CHAIN_LANES };

/* Random words, then edge ones: every word (chain values, ADRS, midstate)
 * 0x00000000, then 0xffffffff (an add's carries through every bit); each
 * below 4 steps and at 4 or more (the Zen 5 row's paired kernel hands
 * shorter calls to its one-block kernel). */
static void kernel_vs_twin(const fs_kernel *row)
{
    fs_chain_fn *k = fs_chain_fn_of(row);
    static const size_t steps[] = { 0, 1, 2, 3, 15, 2, 2, 4, 5, 4, 4 };
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        uint32_t x[8 * L], a[7 * L], mid[8], x2[8 * L], a2[7 * L];
        fs_test_random((uint8_t *)x, sizeof(x));
        fs_test_random((uint8_t *)a, sizeof(a));
        fs_test_random((uint8_t *)mid, sizeof(mid));
        if (i == 3 || i == 8) /* hash addresses that wrap during the call */
            for (unsigned l = 0; l < L; l++)
                a[6 * L + l] = UINT32_MAX - l % 3;
        if (i == 5 || i == 6 || i >= 9) { /* the edge words */
            int fill = i == 5 || i == 9 ? 0x00 : 0xff;
            memset(x, fill, sizeof(x));
            memset(a, fill, sizeof(a));
            memset(mid, fill, sizeof(mid));
        }
        memcpy(x2, x, sizeof(x));
        memcpy(a2, a, sizeof(a));
        k(x, a, mid, steps[i], 32);
        fs_sha256_chain_x16_portable(x2, a2, mid, steps[i], 32);
        int same = memcmp(x, x2, sizeof(x)) == 0 && memcmp(a, a2, sizeof(a)) == 0;
        if (!same)
            fprintf(stderr, "\n%s != twin: case %zu, %zu steps\n", row->name, i, steps[i]);
        CU_ASSERT(same);
    }
}

/* One random batch walked both ways (in == out when `alias`). */
static void walk_once(fs_chain_fn *k, size_t count, uint32_t maxlen, int alias)
{
    const fs_hash_params p = { FS_HASH_SHA256, 32, 32 };
    uint8_t seed[32];
    fs_hash_seeds s;
    fs_test_random(seed, sizeof(seed));
    CU_ASSERT_FATAL(fs_hash_seeds_init(&s, &p, seed, NULL) == 0);
    uint8_t *in = malloc(count * 32), *adrs = malloc(count * 32), *o1 = malloc(count * 32),
            *o2 = malloc(count * 32);
    uint32_t *start = malloc(count * 4), *len = malloc(count * 4);
    fs_test_random(in, count * 32);
    fs_test_random(adrs, count * 32);
    for (size_t c = 0; c < count; c++) {
        len[c] = (uint32_t)(fs_test_rand64() % (maxlen + 1));
        start[c] = c % 5 == 4 ? UINT32_MAX - len[c] : (uint32_t)(fs_test_rand64() % 1000);
    }
    fs_chains_lanes(&s, o1, in, adrs, start, len, count);
    if (alias) {
        memcpy(o2, in, count * 32);
        fs_chains_fused(k, &s, o2, o2, adrs, start, len, count);
    } else {
        fs_chains_fused(k, &s, o2, in, adrs, start, len, count);
    }
    CU_ASSERT(memcmp(o1, o2, count * 32) == 0);
    fs_hash_seeds_clear(&s);
    free(in);
    free(adrs);
    free(o1);
    free(o2);
    free(start);
    free(len);
}

static void walk_all(fs_chain_fn *k)
{
    static const struct { size_t count; uint32_t maxlen; } cases[] = {
        { 1, 15 }, { 5, 15 }, { 7, 3 }, { 16, 15 }, { 17, 15 }, { 67, 15 }, { 67, 3 },
        { 200, 15 }, { 40, 300 }, { 2100, 2 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        walk_once(k, cases[i].count, cases[i].maxlen, 0);
        walk_once(k, cases[i].count, cases[i].maxlen, 1);
    }
}

static void test_kernels(void)
{
    int ran = 0;
    for (const fs_kernel *k = fs_wots_chain_kernels; k->name; k++)
        if (kernel_on_path("wots-chain", k->name, k->cpu)) {
            kernel_vs_twin(k);
            ran++;
        }
    CU_ASSERT(ran >= 1); /* the twin runs on every path */
}

static void test_walks(void)
{
    for (const fs_kernel *k = fs_wots_chain_kernels; k->name; k++)
        if (kernel_on_path("wots-chain", k->name, k->cpu))
            walk_all(fs_chain_fn_of(k));
}

int main(void)
{
    const fs_test tests[] = {
        { "kernels vs portable twin", test_kernels },
        { "fused walk (on each kernel) vs lane walk", test_walks },
        { NULL, NULL },
    };
    const fs_suite suites[] = { { "fused WOTS+ chains", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
