/* test_keccak.c - Keccak-f[1600] kernels against their portable twins, and
 * the SHAKE sponge helpers against OpenSSL's SHAKE128/SHAKE256. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "kernel_path.h"
#include "testutil.h"
#include "cpu.h"
#include "hash/keccak.h"

static int usable(const fs_kernel *k)
{
    return kernel_on_path("keccak", k->name, k->cpu);
}

static void openssl_shake(unsigned rate, uint8_t *out, size_t outlen, const uint8_t *in,
                          size_t inlen)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    CU_ASSERT_FATAL(ctx != NULL);
    CU_ASSERT_FATAL(EVP_DigestInit_ex(ctx, rate == FS_SHAKE128_RATE ? EVP_shake128()
                                                                   : EVP_shake256(), NULL));
    CU_ASSERT_FATAL(EVP_DigestUpdate(ctx, in, inlen));
    CU_ASSERT_FATAL(EVP_DigestFinalXOF(ctx, out, outlen));
    EVP_MD_CTX_free(ctx);
}

/* Runs kernel k on st and on the portable twin of the same stride; both
 * must agree. Returns 1 on agreement. */
static int perm_agrees(const fs_kernel *k, const uint64_t *st)
{
    uint64_t want[25 * FS_KECCAK_MAX_LANES], got[25 * FS_KECCAK_MAX_LANES + 1];
    size_t words = 25 * (size_t)k->lanes;
    memcpy(want, st, words * 8);
    fs_keccakf1600_xn_portable(want, k->lanes);
    uint64_t *g = got + 1; /* 8 bytes off the array's alignment */
    memcpy(g, st, words * 8);
    fs_keccak_perm(k)(g);
    return memcmp(g, want, words * 8) == 0;
}

static void test_perm_kernels(void)
{
    uint64_t st[25 * FS_KECCAK_MAX_LANES];
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++) {
        if (!usable(k))
            continue;
        size_t bytes = 25 * 8 * (size_t)k->lanes;
        memset(st, 0, bytes);
        CU_ASSERT(perm_agrees(k, st));
        memset(st, 0xff, bytes);
        CU_ASSERT(perm_agrees(k, st));
        for (int r = 0; r < 200; r++) {
            fs_test_random((uint8_t *)st, bytes);
            if (!perm_agrees(k, st)) {
                fprintf(stderr, "keccak kernel %s differs on random state %d\n", k->name, r);
                CU_FAIL("kernel differs from its twin");
                break;
            }
        }
    }
}

/* The portable kernel with k's lane count (its twin). */
static const fs_kernel *twin_of(const fs_kernel *k)
{
    for (const fs_kernel *t = fs_keccak_kernels; t->name; t++)
        if (t->cpu == 0 && t->lanes == k->lanes)
            return t;
    return NULL;
}

/* Absorb kernels (xor whole blocks, permute, repeat) vs the C absorb loop
 * around the portable twin: rates 136, 168 and 0, 0..3 blocks, lanes at
 * different odd addresses, random and all-zero/all-ones data. */
static void test_absorb_kernels(void)
{
    enum { MAXB = 3 };
    static uint8_t blocks[FS_KECCAK_MAX_LANES][MAXB * FS_SHAKE128_RATE + 8];
    uint64_t st[25 * FS_KECCAK_MAX_LANES], want[25 * FS_KECCAK_MAX_LANES];
    const uint8_t *in[FS_KECCAK_MAX_LANES];
    static const unsigned rates[] = { FS_SHAKE128_RATE, FS_SHAKE256_RATE, 0 };
    int runs = 0;
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++) {
        if (k->aux == NULL || !usable(k))
            continue;
        const fs_kernel *tw = twin_of(k);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tw);
        size_t sbytes = 25 * 8 * (size_t)k->lanes;
        for (unsigned l = 0; l < k->lanes; l++)
            in[l] = blocks[l] + (l * 5 + 1) % 8;
        for (int r = 0; r < 60; r++) {
            unsigned rate = rates[r % 3];
            size_t nb = (size_t)(r / 3) % (MAXB + 1);
            if (r < 6) { /* edge data first */
                memset(st, r & 1 ? 0xff : 0, sbytes);
                memset(blocks, r & 1 ? 0xff : 0, sizeof(blocks));
            } else {
                fs_test_random((uint8_t *)st, sbytes);
                fs_test_random(&blocks[0][0], sizeof(blocks));
            }
            memcpy(want, st, sbytes);
            if (rate == 0)
                for (size_t b = 0; b < nb; b++)
                    fs_keccak_perm(tw)(want);
            else
                fs_keccak_absorb_blocks(tw, want, rate, in, k->lanes, nb * rate);
            fs_keccak_absorb(k)(st, in, nb, rate);
            if (memcmp(st, want, sbytes) != 0) {
                fprintf(stderr, "absorb kernel %s differs: rate %u, %zu blocks\n", k->name, rate,
                        nb);
                CU_FAIL("absorb kernel differs from its twin");
                break;
            }
            runs++;
        }
    }
    if (runs == 0)
        printf("\n  note: no absorb kernel usable here\n");
}

/* Keccak-f[1600] on the all-zero state: the first output words of the
 * Keccak team's known answer. */
static void test_perm_known_answer(void)
{
    uint64_t st[25] = { 0 };
    fs_keccakf1600(st);
    CU_ASSERT_EQUAL(st[0], 0xF1258F7940E1DDE7ULL);
    CU_ASSERT_EQUAL(st[1], 0x84D5CCF933C0478AULL);
    CU_ASSERT_EQUAL(st[24], 0xEAF1FF7B5CECA249ULL);
}

static const size_t in_lens[] = { 0,   1,   7,   8,   31,  32,  33,  64,  95,  96,  97,  135,
                                  136, 137, 167, 168, 169, 200, 271, 272, 335, 336, 337, 1000 };
static const size_t out_lens[] = { 1, 24, 32, 64, 135, 136, 168, 169, 300 };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Every usable kernel, every lane count, different data per lane, inputs at
 * odd addresses, against OpenSSL lane by lane. */
static void check_sponge(unsigned rate)
{
    enum { MAXIN = 1000, MAXOUT = 300 };
    static uint8_t inbuf[FS_KECCAK_MAX_LANES][MAXIN + 3], outbuf[FS_KECCAK_MAX_LANES][MAXOUT];
    uint8_t want[MAXOUT];
    const uint8_t *in[FS_KECCAK_MAX_LANES];
    uint8_t *out[FS_KECCAK_MAX_LANES];
    int bad = 0;
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++) {
        if (!usable(k))
            continue;
        for (unsigned used = 1; used <= k->lanes; used++) {
            for (size_t i = 0; i < NELEM(in_lens); i++) {
                size_t olen = out_lens[(i + used) % NELEM(out_lens)];
                for (unsigned l = 0; l < used; l++) {
                    fs_test_random(inbuf[l], sizeof(inbuf[l]));
                    in[l] = inbuf[l] + 1 + l % 3;
                    out[l] = outbuf[l];
                }
                fs_shake_lanes(k, rate, out, olen, in, in_lens[i], used);
                for (unsigned l = 0; l < used; l++) {
                    openssl_shake(rate, want, olen, in[l], in_lens[i]);
                    if (memcmp(want, out[l], olen) != 0 && bad++ < 5)
                        fprintf(stderr, "SHAKE rate %u kernel %s used %u lane %u len %zu out %zu\n",
                                rate, k->name, used, l, in_lens[i], olen);
                }
            }
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_shake128_lanes(void)
{
    check_sponge(FS_SHAKE128_RATE);
}

static void test_shake256_lanes(void)
{
    check_sponge(FS_SHAKE256_RATE);
}

/* The one-message helpers on all-zero and all-ones inputs of many lengths,
 * and a midstate: absorb_blocks then absorb_final equals the one call. */
static void test_shake_single_and_midstate(void)
{
    uint8_t msg[700], want[64], got[64];
    for (int fill = 0; fill < 2; fill++) {
        memset(msg, fill ? 0xff : 0, sizeof(msg));
        for (size_t len = 0; len <= sizeof(msg); len += 23) {
            openssl_shake(FS_SHAKE128_RATE, want, 64, msg, len);
            fs_shake128(got, 64, msg, len);
            CU_ASSERT_EQUAL(memcmp(want, got, 64), 0);
            openssl_shake(FS_SHAKE256_RATE, want, 64, msg, len);
            fs_shake256(got, 64, msg, len);
            CU_ASSERT_EQUAL(memcmp(want, got, 64), 0);
        }
    }
    fs_test_random(msg, sizeof(msg));
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++) {
        if (!usable(k))
            continue;
        uint64_t st[25 * FS_KECCAK_MAX_LANES] = { 0 };
        const uint8_t *in[FS_KECCAK_MAX_LANES];
        uint8_t *out[FS_KECCAK_MAX_LANES];
        for (unsigned l = 0; l < k->lanes; l++)
            in[l] = msg + l, out[l] = got;
        fs_keccak_absorb_blocks(k, st, FS_SHAKE256_RATE, in, 1, 2 * FS_SHAKE256_RATE);
        in[0] += 2 * FS_SHAKE256_RATE;
        fs_keccak_absorb_final(k, st, FS_SHAKE256_RATE, in, 1, 100, FS_SHAKE_DS);
        fs_keccak_squeeze(k, st, FS_SHAKE256_RATE, out, 1, 64);
        openssl_shake(FS_SHAKE256_RATE, want, 64, msg, 2 * FS_SHAKE256_RATE + 100);
        CU_ASSERT_EQUAL(memcmp(want, got, 64), 0);
    }
}

/* fs_shake_ctx: a message absorbed in pieces and the output squeezed in
 * pieces (pieces of 0 .. 2 blocks, unaligned) match one-shot OpenSSL. */
static void test_shake_incremental(void)
{
    static uint8_t msg[3 * FS_SHAKE128_RATE * 2 + 7], want[700], got[700];
    for (int rr = 0; rr < 2; rr++) {
        unsigned rate = rr ? FS_SHAKE256_RATE : FS_SHAKE128_RATE;
        for (int it = 0; it < 200; it++) {
            size_t len = fs_test_rand64() % sizeof(msg), olen = 1 + fs_test_rand64() % sizeof(got);
            fs_test_random(msg, len);
            openssl_shake(rate, want, olen, msg, len);
            fs_shake_ctx x;
            fs_shake_init(&x, rate);
            for (size_t off = 0, piece; off < len; off += piece) {
                piece = fs_test_rand64() % (2 * rate + 1);
                piece = piece > len - off ? len - off : piece;
                fs_shake_absorb(&x, msg + off, piece);
            }
            for (size_t off = 0, piece; off < olen; off += piece) {
                piece = 1 + fs_test_rand64() % (2 * rate);
                piece = piece > olen - off ? olen - off : piece;
                fs_shake_squeeze(&x, got + off, piece);
            }
            fs_shake_wipe(&x);
            CU_ASSERT_EQUAL(memcmp(want, got, olen), 0);
        }
    }
}

int main(void)
{
    static const fs_test tests[] = {
        { "permutation known answer", test_perm_known_answer },
        { "kernels vs portable twins", test_perm_kernels },
        { "absorb kernels vs C absorb", test_absorb_kernels },
        { "SHAKE128 lanes vs OpenSSL", test_shake128_lanes },
        { "SHAKE256 lanes vs OpenSSL", test_shake256_lanes },
        { "single message and midstate", test_shake_single_and_midstate },
        { "incremental SHAKE in pieces vs OpenSSL", test_shake_incremental },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "keccak", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
