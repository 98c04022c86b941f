/* test_rw_keccak_dot.c - the two-lane Keccak-f[1600] permutation with dot
 * products (rw_keccak_dot.h): the asm kernel against its portable twin, and
 * the dispatch following the CPU mask. */
#include <string.h>
#include "testutil.h"
#include "cpu.h"
#include "hash/keccak.h"
#include "rw/rw_keccak_dot.h"

#define WORDS (25 * 2)

/* The stitched dot-product kernel against its twin: the same state and the
 * same 192-bit sums, on random words, all-ones words (the largest carries)
 * and zero vectors, with the job's inputs left as they were; and the words
 * read big-endian (one vector of known words). */
static void test_dot(void)
{
    rw_keccak_dot_fn *asm_dot = rw_keccak_dot();
    CU_ASSERT_EQUAL(asm_dot != NULL, fs_cpu_allows(FS_CPU_AVX512));
    if (asm_dot == NULL) {
        printf("\n  note: no asm dot kernel on this CPU path\n");
        return;
    }
    static uint64_t x[2][RW_KECCAK_DOT_LEN], w[RW_KECCAK_DOT_LEN][2], w2[RW_KECCAK_DOT_LEN][2];
    static uint64_t x2[2][RW_KECCAK_DOT_LEN];
    for (int r = 0; r < 64; r++) {
        uint64_t a[WORDS], b[WORDS];
        fs_test_random((uint8_t *)a, sizeof(a));
        memcpy(b, a, sizeof(a));
        fs_test_random((uint8_t *)x, sizeof(x));
        fs_test_random((uint8_t *)w, sizeof(w));
        fs_test_random((uint8_t *)w2, sizeof(w2));
        if (r == 1)
            memset(x, 0xff, sizeof(x)), memset(w, 0xff, sizeof(w)), memset(w2, 0xff, sizeof(w2));
        if (r == 2)
            memset(x[1], 0, sizeof(x[1]));
        memcpy(x2, x, sizeof(x));
        rw_keccak_dot_job ja = { { (const uint8_t *)x[0], (const uint8_t *)x[1] },
                                 { (const uint64_t(*)[2])w, (const uint64_t(*)[2])w2 }, { { 0 } } };
        rw_keccak_dot_job jb = ja;
        memset(ja.acc, 0x5a, sizeof(ja.acc));   /* set, not added to */
        asm_dot(a, &ja);
        rw_keccakf1600_x2_dot_portable(b, &jb);
        CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0);
        CU_ASSERT_EQUAL(memcmp(ja.acc, jb.acc, sizeof(ja.acc)), 0);
        CU_ASSERT_EQUAL(memcmp(x, x2, sizeof(x)), 0);
        if (r == 1)   /* 36 (2^64-1)^2: top word 35 */
            CU_ASSERT_EQUAL(jb.acc[3][2], 35);
    }
    /* big-endian words: X_0[i] = i + 1, X_1 = 0, weights 1 and 2^32 */
    for (int i = 0; i < RW_KECCAK_DOT_LEN; i++) {
        for (int b = 0; b < 8; b++)
            ((uint8_t *)x[0])[8 * i + b] = b == 7 ? (uint8_t)(i + 1) : 0;
        w[i][0] = w2[i][0] = 1;
        w[i][1] = w2[i][1] = 1ULL << 32;
    }
    memset(x[1], 0, sizeof(x[1]));
    {
        uint64_t a[WORDS] = { 0 };
        rw_keccak_dot_job jw = { { (const uint8_t *)x[0], (const uint8_t *)x[1] },
                                 { (const uint64_t(*)[2])w, (const uint64_t(*)[2])w2 }, { { 0 } } };
        asm_dot(a, &jw);
        uint64_t sum = RW_KECCAK_DOT_LEN * (RW_KECCAK_DOT_LEN + 1) / 2;
        CU_ASSERT(jw.acc[0][0] == sum && jw.acc[0][1] == 0 && jw.acc[0][2] == 0);
        CU_ASSERT(jw.acc[1][0] == sum << 32 && jw.acc[1][1] == 0);
        CU_ASSERT(jw.acc[2][0] == 0 && jw.acc[3][0] == 0);
    }
    /* the permutation alone matches the plain two-lane kernel */
    uint64_t a[WORDS], b[WORDS];
    fs_test_random((uint8_t *)a, sizeof(a));
    memcpy(b, a, sizeof(a));
    rw_keccak_dot_job j = { { (const uint8_t *)x[0], (const uint8_t *)x[1] },
                            { (const uint64_t(*)[2])w, (const uint64_t(*)[2])w2 }, { { 0 } } };
    asm_dot(a, &j);
    fs_keccakf1600_x2_portable(b);
    CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0);
}

/* The dispatch offers the first allowed kernel that is no twin, or none. */
static void test_dispatch(void)
{
    rw_keccak_dot_fn *want = NULL;
    for (const fs_kernel *k = rw_keccak_dot_kernels; k->name && !want; k++)
        if (!(k->flags & FS_KERNEL_TWIN) && fs_cpu_allows(k->cpu))
            want = rw_keccak_dot_fn_of(k);
    CU_ASSERT(rw_keccak_dot() == want);
    CU_ASSERT(rw_keccak_dot_kernels[0].flags & FS_KERNEL_TWIN);
}

int main(void)
{
    static const fs_test tests[] = {
        { "x2 kernel with dot products vs its twin", test_dot },
        { "dot kernel dispatch follows the CPU mask", test_dispatch },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "rw-keccak-dot", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
