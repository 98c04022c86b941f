/* test_stack_wipe.c - the kernels that keep a message schedule or state
 * copies on the stack (stack_wipe.h) leave none of it there: SHA-256
 * avx512-x32 (two 16-word rings), SHA-512 avx512-x16 (the same, 64-bit) and
 * Keccak avx512-x16 (two buffers of 16 lanes' states). After a call, what
 * the scratch held last (the last block's W[48..63] or W[64..79], one
 * 64-byte slot per word and group of lanes; the Keccak states after rounds
 * 21 and 22, one 64-byte run per word and group of 8 lanes: the message or
 * the state follows from either) must be nowhere in memory but in the
 * test's own patterns. The call is made 64 KiB below the test's frame, out
 * of reach of the scan's own calls. Run on every FASTSIG_CPU path; where a
 * row is not usable it says so. */
#include <stdio.h>
#include <string.h>
#include "cpu.h"
#include "hash/keccak.h"
#include "hash/sha256.h"
#include "hash/sha512.h"
#include "dumpscan.h"
#include "testutil.h"

#define LANES 32
#define NB 2

static uint32_t rotr(uint32_t x, unsigned n)
{
    return x >> n | x << (32 - n);
}

/* W[0..63] of each lane's last block (reference schedule). */
static void schedules(const uint8_t msg[LANES][NB * 64], uint32_t w[LANES][64])
{
    for (unsigned l = 0; l < LANES; l++) {
        const uint8_t *b = msg[l] + (NB - 1) * 64;
        for (unsigned t = 0; t < 16; t++)
            w[l][t] = (uint32_t)b[4 * t] << 24 | (uint32_t)b[4 * t + 1] << 16 |
                      (uint32_t)b[4 * t + 2] << 8 | b[4 * t + 3];
        for (unsigned t = 16; t < 64; t++) {
            uint32_t s0 = rotr(w[l][t - 15], 7) ^ rotr(w[l][t - 15], 18) ^ (w[l][t - 15] >> 3);
            uint32_t s1 = rotr(w[l][t - 2], 17) ^ rotr(w[l][t - 2], 19) ^ (w[l][t - 2] >> 10);
            w[l][t] = w[l][t - 16] + s0 + w[l][t - 7] + s1;
        }
    }
}

static __attribute__((noinline)) void call_deep(void (*run)(void))
{
    volatile uint8_t depth[64 * 1024];
    depth[0] = 0;
    run();
    depth[sizeof(depth) - 1] = depth[0];
}

/* The usable row named name of rows, or NULL (said on the output). */
static const fs_kernel *usable(const fs_kernel *rows, const char *name)
{
    for (const fs_kernel *r = rows; r->name; r++)
        if (strcmp(r->name, name) == 0 && fs_kernel_usable(r, fs_cpu_features(), 0))
            return r;
    printf("[%s not on this path]", name);
    return NULL;
}

/* n patterns of 64 bytes: how many have a copy in memory now that they did
 * not have at `before` (filled when before[0] is (size_t)-2); -1 when the
 * process memory cannot be read. */
static long new_copies(const uint8_t (*pat)[64], size_t n, size_t *before)
{
    int first = before[0] == (size_t)-2;
    long left = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = dumpable_copies(pat[i], 64, NULL);
        if (c == (size_t)-1)
            return -1;
        if (first)
            before[i] = c;
        else
            left += c != before[i];
    }
    return left;
}

/* Calls run deep on the stack and asserts no pattern got a new copy. */
static void check_wiped(const char *what, const uint8_t (*pat)[64], size_t n, void (*run)(void))
{
    size_t before[128];
    before[0] = (size_t)-2;
    if (new_copies(pat, n, before) < 0) {
        printf("[/proc/self/mem not readable]");
        return;
    }
    call_deep(run);
    long left = new_copies(pat, n, before);
    if (left)
        fprintf(stderr, "\n%s: %ld of %zu slots left on the stack\n", what, left, n);
    CU_ASSERT_EQUAL(left, 0);
}

static fs_sha256_compress_fn *x32_fn;
static const uint8_t *x32_in[LANES];
static uint32_t x32_st[8 * LANES];
static void run_x32(void)
{
    x32_fn(x32_st, x32_in, NB);
}

static void test_x32_rings_wiped(void)
{
    const fs_kernel *k = usable(fs_sha256_kernels, "avx512-x32");
    if (k == NULL)
        return;
    static uint8_t msg[LANES][NB * 64];
    static uint32_t w[LANES][64];
    static uint32_t pat[2][16][16]; /* [ring][slot][lane]: W[48 + slot] */
    known_bytes(msg, sizeof(msg), 27);
    schedules(msg, w);
    for (unsigned l = 0; l < LANES; l++) {
        x32_in[l] = msg[l];
        for (unsigned s = 0; s < 16; s++)
            pat[l / 16][s][l % 16] = w[l][48 + s];
    }
    x32_fn = fs_sha256_fn(k);
    check_wiped("sha256 avx512-x32", (const uint8_t (*)[64])pat, 32, run_x32);
}

/* SHA-512: W[64..79] of each lane's last block. */
static uint64_t rotr64(uint64_t x, unsigned n)
{
    return x >> n | x << (64 - n);
}

static fs_sha512_compress_fn *x16_fn;
static const uint8_t *x16_in[16];
static uint64_t x16_st[8 * 16];
static void run_sha512_x16(void)
{
    x16_fn(x16_st, x16_in, NB);
}

static void test_sha512_x16_rings_wiped(void)
{
    const fs_kernel *k = usable(fs_sha512_kernels, "avx512-x16");
    if (k == NULL)
        return;
    static uint8_t msg[16][NB * 128];
    static uint64_t pat[2][16][8]; /* [ring][slot][lane]: W[64 + slot] */
    known_bytes(msg, sizeof(msg), 29);
    for (unsigned l = 0; l < 16; l++) {
        uint64_t w[80];
        const uint8_t *b = msg[l] + (NB - 1) * 128;
        for (unsigned t = 0; t < 16; t++) {
            w[t] = 0;
            for (unsigned j = 0; j < 8; j++)
                w[t] = w[t] << 8 | b[8 * t + j];
        }
        for (unsigned t = 16; t < 80; t++) {
            uint64_t s0 = rotr64(w[t - 15], 1) ^ rotr64(w[t - 15], 8) ^ (w[t - 15] >> 7);
            uint64_t s1 = rotr64(w[t - 2], 19) ^ rotr64(w[t - 2], 61) ^ (w[t - 2] >> 6);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        x16_in[l] = msg[l];
        for (unsigned s = 0; s < 16; s++)
            pat[l / 8][s][l % 8] = w[64 + s];
    }
    x16_fn = fs_sha512_fn(k);
    check_wiped("sha512 avx512-x16", (const uint8_t (*)[64])pat, 32, run_sha512_x16);
}

/* Keccak-f[1600], round by round (FIPS 202's step mappings), one state. */
static void keccak_round(uint64_t a[25], unsigned r)
{
    static const unsigned rho[25] = { 0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                      25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14 };
    uint64_t c[5], b[25];
    for (unsigned x = 0; x < 5; x++)
        c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (unsigned i = 0; i < 25; i++) {
        unsigned x = i % 5, y = i / 5;
        uint64_t v = a[i] ^ c[(x + 4) % 5] ^ (c[(x + 1) % 5] << 1 | c[(x + 1) % 5] >> 63);
        v = rho[i] ? v << rho[i] | v >> (64 - rho[i]) : v;
        b[y + 5 * ((2 * x + 3 * y) % 5)] = v; /* pi: (x, y) -> (y, 2x + 3y) */
    }
    for (unsigned i = 0; i < 25; i++)
        a[i] = b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * (i / 5)] & b[(i % 5 + 2) % 5 + 5 * (i / 5)]);
    a[0] ^= fs_keccak_rc[r];
}

static fs_keccak_perm_fn *k16_fn;
static uint64_t k16_st[25 * 16] __attribute__((aligned(64)));
static void run_keccak_x16(void)
{
    k16_fn(k16_st);
}

static void test_keccak_x16_buffers_wiped(void)
{
    const fs_kernel *k = usable(fs_keccak_kernels, "avx512-x16");
    if (k == NULL)
        return;
    /* [after round 21 or 22][word][group]: the 8 lanes' words, 64 bytes */
    static uint64_t pat[2][25][2][8];
    known_bytes(k16_st, sizeof(k16_st), 31);
    for (unsigned l = 0; l < 16; l++) {
        uint64_t a[25];
        for (unsigned i = 0; i < 25; i++)
            a[i] = k16_st[i * 16 + l];
        for (unsigned r = 0; r <= 22; r++) {
            keccak_round(a, r);
            if (r >= 21)
                for (unsigned i = 0; i < 25; i++)
                    pat[r - 21][i][l / 8][l % 8] = a[i];
        }
    }
    { /* the reference is the twin's: 24 rounds of it give the permutation */
        uint64_t a[25], want[25];
        for (unsigned i = 0; i < 25; i++)
            a[i] = want[i] = k16_st[i * 16];
        for (unsigned r = 0; r < 24; r++)
            keccak_round(a, r);
        fs_keccakf1600(want);
        CU_ASSERT(memcmp(a, want, sizeof(a)) == 0);
    }
    k16_fn = fs_keccak_perm(k);
    check_wiped("keccak avx512-x16", (const uint8_t (*)[64])pat, 100, run_keccak_x16);
}

static const fs_test wipe_tests[] = {
    { "sha256 avx512-x32 leaves no schedule on the stack", test_x32_rings_wiped },
    { "sha512 avx512-x16 leaves no schedule on the stack", test_sha512_x16_rings_wiped },
    { "keccak avx512-x16 leaves no state on the stack", test_keccak_x16_buffers_wiped },
    { NULL, NULL },
};

int main(void)
{
    const fs_suite suites[] = { { "kernel stack wipe", wipe_tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
