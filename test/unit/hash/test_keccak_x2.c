/* test_keccak_x2.c - the two-lane Keccak-f[1600] kernels (used by the RW
 * full-domain hash for one or two messages): the AVX-512 one against its
 * portable twin on edge and random states, lanes kept apart, and SHAKE
 * through them against OpenSSL. */
#include <string.h>
#include <openssl/evp.h>
#include "kernel_path.h"
#include "testutil.h"
#include "cpu.h"
#include "hash/keccak.h"

#define WORDS (25 * 2)

static int usable(const fs_kernel *k)
{
    return kernel_on_path("keccak", k->name, k->cpu);
}

/* k on st (at an address 8 bytes off alignment) against the one-state
 * permutation lane by lane. */
static int agrees(const fs_kernel *k, const uint64_t st[WORDS])
{
    uint64_t got[WORDS + 1], one[25];
    memcpy(got + 1, st, sizeof(uint64_t) * WORDS);
    fs_keccak_perm(k)(got + 1);
    for (unsigned l = 0; l < 2; l++) {
        for (int i = 0; i < 25; i++)
            one[i] = st[2 * i + l];
        fs_keccakf1600(one);
        for (int i = 0; i < 25; i++)
            if (got[1 + 2 * i + l] != one[i])
                return 0;
    }
    return 1;
}

static void test_perm(void)
{
    uint64_t st[WORDS];
    unsigned seen = 0;
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++) {
        if (k->lanes != 2)
            continue;
        CU_ASSERT(k->flags & FS_KERNEL_PAIR);
        seen++;
        if (!usable(k))
            continue;
        memset(st, 0, sizeof(st));
        CU_ASSERT(agrees(k, st));
        memset(st, 0xff, sizeof(st));
        CU_ASSERT(agrees(k, st));
        for (int i = 0; i < WORDS; i++)     /* one lane zero, the other all ones */
            st[i] = i % 2 ? ~0ULL : 0;
        CU_ASSERT(agrees(k, st));
        for (int b = 0; b < 64 * WORDS; b += 37) { /* single bits, both lanes */
            memset(st, 0, sizeof(st));
            st[b / 64] = 1ULL << (b % 64);
            if (!agrees(k, st)) {
                fprintf(stderr, "kernel %s differs on bit %d\n", k->name, b);
                CU_FAIL("single-bit state");
                break;
            }
        }
        for (int r = 0; r < 300; r++) {
            fs_test_random((uint8_t *)st, sizeof(st));
            if (r % 3 == 0)                 /* equal lanes stay equal */
                for (int i = 0; i < 25; i++)
                    st[2 * i + 1] = st[2 * i];
            if (!agrees(k, st)) {
                fprintf(stderr, "kernel %s differs on random state %d\n", k->name, r);
                CU_FAIL("random state");
                break;
            }
        }
        /* a chain of 64 calls stays on the twin's chain */
        uint64_t a[WORDS], b[WORDS];
        fs_test_random((uint8_t *)a, sizeof(a));
        memcpy(b, a, sizeof(a));
        for (int r = 0; r < 64; r++) {
            fs_keccak_perm(k)(a);
            fs_keccakf1600_x2_portable(b);
        }
        CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0);
    }
    CU_ASSERT(seen >= 1); /* the portable twin at least */
}

/* By the static costs the picker offers the two-lane asm kernel for one or
 * two lanes exactly when the CPU mask allows it, and for three a kernel of
 * the lane engine's kind; fs_keccak_kernel_for (the process's costs) gives
 * a kernel the mask allows, never a twin. */
static void test_dispatch(void)
{
    int want = 0;
    unsigned have = fs_cpu_features();
    for (const fs_kernel *t = fs_keccak_kernels; t->name; t++)
        want |= (t->flags & FS_KERNEL_PAIR) && !(t->flags & FS_KERNEL_TWIN) &&
                fs_cpu_allows(t->cpu);
    const fs_kernel *s1 = fs_kernel_pick(fs_keccak_kernels, NULL, have, 0, 1);
    const fs_kernel *s2 = fs_kernel_pick(fs_keccak_kernels, NULL, have, 0, 2);
    const fs_kernel *s3 = fs_kernel_pick(fs_keccak_kernels, NULL, have, 0, 3);
    CU_ASSERT(s1 == s2);
    CU_ASSERT_EQUAL((s2->flags & FS_KERNEL_PAIR) != 0, want);
    if (want)
        CU_ASSERT(s2->cpu != 0 && s2->lanes == 2);
    CU_ASSERT(!(s3->flags & (FS_KERNEL_TWIN | FS_KERNEL_PAIR)) && fs_cpu_allows(s3->cpu));
    for (unsigned lanes = 1; lanes <= FS_KECCAK_MAX_LANES; lanes++) {
        const fs_kernel *k = fs_keccak_kernel_for(lanes);
        CU_ASSERT(fs_kernel_usable(k, have, 0));
    }
}

/* SHAKE128/256 of one and two messages of many lengths against OpenSSL. */
static void test_sponge(void)
{
    static const size_t lens[] = { 0, 1, 8, 113, 135, 136, 137, 167, 168, 169, 300, 500 };
    static uint8_t inbuf[2][503], out[2][300];
    uint8_t want[300];
    int bad = 0;
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++) {
        if (k->lanes != 2 || !usable(k))
            continue;
        for (int rr = 0; rr < 2; rr++) {
            unsigned rate = rr ? FS_SHAKE256_RATE : FS_SHAKE128_RATE;
            for (unsigned used = 1; used <= 2; used++)
                for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
                    const uint8_t *in[2] = { inbuf[0] + 1, inbuf[1] + 2 };
                    uint8_t *o[2] = { out[0], out[1] };
                    size_t olen = 1 + (lens[i] * 7) % 300;
                    fs_test_random(&inbuf[0][0], sizeof(inbuf));
                    fs_shake_lanes(k, rate, o, olen, in, lens[i], used);
                    for (unsigned l = 0; l < used; l++) {
                        EVP_MD_CTX *c = EVP_MD_CTX_new();
                        CU_ASSERT_FATAL(c != NULL);
                        CU_ASSERT_FATAL(EVP_DigestInit_ex(c, rr ? EVP_shake256() : EVP_shake128(),
                                                          NULL) &&
                                        EVP_DigestUpdate(c, in[l], lens[i]) &&
                                        EVP_DigestFinalXOF(c, want, olen));
                        EVP_MD_CTX_free(c);
                        if (memcmp(want, out[l], olen) != 0 && bad++ < 5)
                            fprintf(stderr, "%s rate %u used %u lane %u len %zu\n", k->name,
                                    rate, used, l, lens[i]);
                    }
                }
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
    static const fs_test tests[] = {
        { "x2 kernels vs the one-state permutation", test_perm },
        { "x2 dispatch follows the CPU mask", test_dispatch },
        { "SHAKE through x2 kernels vs OpenSSL", test_sponge },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "keccak-x2", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
