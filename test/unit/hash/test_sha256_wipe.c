/* test_sha256_wipe.c - the SHA-256 kernel that keeps its message schedules
 * on the stack (avx512-x32: two 16-word rings) leaves no copy of them there.
 * After a call, the last block's W[48..63] as the rings held them (W[t] of
 * lanes 0..15 or 16..31, one 64-byte slot; the message follows from them)
 * must be nowhere in memory but in the test's own patterns. The call is made
 * 64 KiB below the test's frame, out of reach of the scan's own calls. Run
 * on every FASTSIG_CPU path; where the row is not usable it says so. */
#include <stdio.h>
#include <string.h>
#include "cpu.h"
#include "hash/sha256.h"
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

static __attribute__((noinline)) void call_deep(fs_sha256_compress_fn *fn, uint32_t *st,
                                                const uint8_t *const in[LANES])
{
    volatile uint8_t depth[64 * 1024];
    depth[0] = 0;
    fn(st, in, NB);
    depth[sizeof(depth) - 1] = depth[0];
}

static void test_x32_rings_wiped(void)
{
    const fs_kernel *k = NULL;
    for (const fs_kernel *r = fs_sha256_kernels; r->name; r++)
        if (strcmp(r->name, "avx512-x32") == 0 && fs_kernel_usable(r, fs_cpu_features(), 0))
            k = r;
    if (k == NULL) {
        printf("[avx512-x32 not on this path]");
        return;
    }
    static uint8_t msg[LANES][NB * 64];
    static uint32_t w[LANES][64], st[8 * LANES];
    static uint32_t pat[2][16][16]; /* [ring][slot][lane]: W[48 + slot] */
    const uint8_t *in[LANES];
    known_bytes(msg, sizeof(msg), 27);
    schedules(msg, w);
    for (unsigned l = 0; l < LANES; l++) {
        in[l] = msg[l];
        for (unsigned s = 0; s < 16; s++)
            pat[l / 16][s][l % 16] = w[l][48 + s];
    }
    size_t before[2][16];
    for (unsigned r = 0; r < 2; r++)
        for (unsigned s = 0; s < 16; s++) {
            before[r][s] = dumpable_copies(pat[r][s], 64, NULL);
            if (before[r][s] == (size_t)-1) {
                printf("[/proc/self/mem not readable]");
                return;
            }
        }
    call_deep(fs_sha256_fn(k), st, in);
    unsigned left = 0;
    for (unsigned r = 0; r < 2; r++)
        for (unsigned s = 0; s < 16; s++)
            left += dumpable_copies(pat[r][s], 64, NULL) != before[r][s];
    if (left)
        fprintf(stderr, "\n%u of 32 ring slots left on the stack\n", left);
    CU_ASSERT_EQUAL(left, 0);
}

static const fs_test wipe_tests[] = {
    { "avx512-x32 leaves no schedule on the stack", test_x32_rings_wiped },
    { NULL, NULL },
};

int main(void)
{
    const fs_suite suites[] = { { "sha256 kernel stack wipe", wipe_tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
