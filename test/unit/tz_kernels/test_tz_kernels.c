/* test_tz_kernels.c - every TZ kernel path against the bit-serial reference
 * (vectors, every length 0..4096, large inputs, random update splits), each
 * asm kernel against its C twin on raw lazy states, the byte tables against
 * their definition, and the dispatch. Paths the CPU lacks are skipped (and
 * said so); the twins run everywhere, so -Dasm=disabled still tests the
 * algorithm. FASTSIG_SOAK=1 widens the random runs. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "tz_vectors.h"
#include "cpu.h"
#include "fastsig/tz.h"
#include "tz/tz_kernel.h"
#include "tz/tz_clmul.h"
#include "tz/tz_tables.h"

static int soak(void)
{
    const char *s = getenv("FASTSIG_SOAK");
    return s != NULL && *s != '\0' && strcmp(s, "0") != 0;
}

static int runnable(const fs_kernel *k)
{
    return (k->cpu & fs_cpu_detected()) == k->cpu;
}

static void reference(sl2 *st, const uint8_t *data, size_t len)
{
    sl2_mul_bytes_portable(st, data, len);
}

static void random_state(sl2 *st)
{
    /* a product of a random message: a valid canonical state */
    uint8_t m[24];
    fs_test_random(m, sizeof(m));
    sl2_identity(st);
    reference(st, m, sizeof(m));
}

/* Feeds data to fn in random pieces: small ones, empty ones, big ones. */
static void split_apply(tz_mul_bytes_fn fn, sl2 *st, const uint8_t *data, size_t len)
{
    while (len > 0) {
        size_t n;
        switch (fs_test_rand64() % 4) {
        case 0: n = fs_test_rand64() % 8; break;
        case 1: n = fs_test_rand64() % 300; break;
        case 2: n = fs_test_rand64() % (len + 1); break;
        default: n = len; break;
        }
        if (n > len)
            n = len;
        fn(st, data, n);
        data += n;
        len -= n;
    }
}

static int same(const sl2 *a, const sl2 *b)
{
    return memcmp(a, b, sizeof(sl2)) == 0;
}

/* ---- tables ----------------------------------------------------------- */

static void test_tables(void)
{
    for (unsigned v = 0; v < 256; v++) {
        sl2 m;
        uint8_t b = (uint8_t)v;
        sl2_identity(&m);
        reference(&m, &b, 1);
        uint64_t e[4];
        for (int i = 0; i < 4; i++) {
            CU_ASSERT_EQUAL(m.m[i].hi, 0);
            e[i] = m.m[i].lo;
        }
        CU_ASSERT_EQUAL(tz_tab_left[v][0], e[0] << 33 | e[1]);
        CU_ASSERT_EQUAL(tz_tab_left[v][1], e[2] << 33 | e[3]);
        CU_ASSERT_EQUAL(tz_tab_right[v][0], e[0] | e[2] << 33);
        CU_ASSERT_EQUAL(tz_tab_right[v][1], e[1] | e[3] << 33);
        uint64_t row0 = e[0] << 17 | e[1], row1 = e[2] << 17 | e[3];
        uint64_t col0 = e[0] | e[2] << 17, col1 = e[1] | e[3] << 17;
        CU_ASSERT_EQUAL(tz_tab_pair.a[v], row0 | row1 << 34);
        CU_ASSERT_EQUAL(tz_tab_pair.b[v][0], col0 | col0 << 34);
        CU_ASSERT_EQUAL(tz_tab_pair.b[v][1], col1 | col1 << 34);
    }
}

/* ---- every path vs the reference ------------------------------------- */

struct vec_arg {
    const fs_kernel *k;
    int bad, checked;
};

static void check_vector(const char *id, const uint8_t *msg, size_t len, const uint8_t want[64],
                         void *varg)
{
    struct vec_arg *a = varg;
    sl2 st, st2;
    uint8_t got[64];
    if ((a->k->flags & FS_KERNEL_TWIN) && len > 65536 && !soak())
        return; /* the software-clmul twins are slow; they get the big ones under soak */
    a->checked++;
    sl2_identity(&st);
    tz_kernel_fn(a->k)(&st, msg, len);
    sl2_to_bytes(&st, got);
    sl2_identity(&st2);
    split_apply(tz_kernel_fn(a->k), &st2, msg, len);
    if (memcmp(got, want, 64) != 0 || !same(&st, &st2)) {
        fprintf(stderr, "%s: vector %s mismatch\n", a->k->name, id);
        a->bad++;
    }
}

static void test_vectors(void)
{
    for (const fs_kernel *k = tz_kernel_list(); k->name != NULL; k++) {
        if (!runnable(k)) {
            fprintf(stderr, "[skip %s: CPU lacks it] ", k->name);
            continue;
        }
        struct vec_arg a = { k, 0, 0 };
        int lines = tzv_for_each_digest(check_vector, &a);
        CU_ASSERT(lines >= 290);
        CU_ASSERT(a.checked >= 250);
        CU_ASSERT_EQUAL(a.bad, 0);
    }
}

/* Lengths 0..max on random data from a random state, whole and split. */
static void lengths_vs_reference(const fs_kernel *k, size_t max, size_t step)
{
    uint8_t *buf = malloc(max + 1);
    int bad = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    fs_test_random(buf, max + 1);
    for (size_t len = 0; len <= max; len += (len < 300 ? 1 : step)) {
        sl2 want, got, got2;
        size_t off = len % 7; /* unaligned starts too */
        const uint8_t *p = buf + (max + 1 - len > off ? off : 0);
        random_state(&want);
        got = got2 = want;
        reference(&want, p, len);
        tz_kernel_fn(k)(&got, p, len);
        split_apply(tz_kernel_fn(k), &got2, p, len);
        if (!same(&want, &got) || !same(&want, &got2)) {
            if (bad++ < 5)
                fprintf(stderr, "%s: length %zu mismatch\n", k->name, len);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(buf);
}

static void test_lengths(void)
{
    for (const fs_kernel *k = tz_kernel_list(); k->name != NULL; k++) {
        if (!runnable(k))
            continue;
        /* the twins run the clmul algorithm in software: slow, so every
         * length up to 1100 and a sample above (all of them under soak) */
        size_t step = ((k->flags & FS_KERNEL_TWIN) && !soak()) ? 37 : 1;
        lengths_vs_reference(k, 4096, step);
    }
}

static void test_large(void)
{
    static const size_t sizes[] = { 65536, 65536 + 15, 1048576 + 13, 3 * 1048576 + 1 };
    size_t max = sizes[3];
    uint8_t *buf = malloc(max);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    fs_test_random(buf, max);
    for (size_t s = 0; s < 4; s++) {
        sl2 want;
        sl2_identity(&want);
        reference(&want, buf, sizes[s]);
        for (const fs_kernel *k = tz_kernel_list(); k->name != NULL; k++) {
            if (!runnable(k) || ((k->flags & FS_KERNEL_TWIN) && sizes[s] > 65536 + 15 && !soak()))
                continue;
            sl2 got, got2;
            sl2_identity(&got);
            sl2_identity(&got2);
            tz_kernel_fn(k)(&got, buf, sizes[s]);
            split_apply(tz_kernel_fn(k), &got2, buf, sizes[s]);
            if (!same(&want, &got) || !same(&want, &got2))
                fprintf(stderr, "%s: %zu bytes mismatch\n", k->name, sizes[s]);
            CU_ASSERT(same(&want, &got));
            CU_ASSERT(same(&want, &got2));
        }
    }
    free(buf);
}

/* Streams through tz_update (the dispatched kernel) in random pieces. */
static void test_tz_update_splits(void)
{
    size_t len = 200000 + 7;
    uint8_t *buf = fs_test_buffer(len), want[64], got[64];
    sl2 ref;
    sl2_identity(&ref);
    reference(&ref, buf, len);
    sl2_to_bytes(&ref, want);
    for (int round = 0; round < 20; round++) {
        tz_ctx c;
        size_t done = 0;
        tz_init(&c);
        while (done < len) {
            size_t n = (round & 1) ? fs_test_rand64() % 1000 : fs_test_rand64() % (len - done + 1);
            if (n > len - done)
                n = len - done;
            tz_update(&c, buf + done, n);
            done += n;
        }
        tz_final(&c, got);
        CU_ASSERT_EQUAL(memcmp(got, want, 64), 0);
    }
    free(buf);
}

/* ---- asm vs C twin on raw (lazy) states ------------------------------- */

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
static void random_lazy(gf127 *e, size_t n)
{
    /* any 128-bit value is a valid lazy representative */
    for (size_t i = 0; i < n; i++) {
        e[i].lo = fs_test_rand64();
        e[i].hi = fs_test_rand64();
    }
}

static void test_vpclmul_vs_twin(void)
{
    if ((fs_cpu_detected() & (FS_CPU_AVX512 | FS_CPU_VPCLMUL)) != (FS_CPU_AVX512 | FS_CPU_VPCLMUL)) {
        fprintf(stderr, "[skip: no AVX-512 + VPCLMULQDQ] ");
        return;
    }
    uint8_t *buf = malloc(4 * 2100 + 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    int iters = soak() ? 5000 : 300;
    for (int it = 0; it < iters; it++) {
        size_t rounds = 1 + fs_test_rand64() % (it < 100 ? 8 : 256);
        size_t stride = 8 * rounds + fs_test_rand64() % 13; /* gaps between streams */
        size_t off = fs_test_rand64() % 16;
        gf127 a[16], b[16];
        fs_test_random(buf, 4 * 2100 + 64);
        if (it % 3 == 0)
            memset(buf, it % 2 ? 0xff : 0x00, 4 * 2100 + 64); /* extreme bytes */
        random_lazy(a, 16);
        memcpy(b, a, sizeof(a));
        tz_vpclmul_segments(a, buf + off, rounds, stride);
        tz_twin_segments(b, buf + off, rounds, stride);
        CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0);
    }
    free(buf);
}

/* fn against the twin on random states and inputs: lengths unit * (0 ..
 * maxn), offsets 0 .. maxoff-1 (at most 39 blocks + 63 bytes); reduced: the
 * result must also be fully reduced. */
static void soak_vs_twin(tz_mul_bytes_fn fn, size_t maxn, size_t unit, size_t maxoff,
                         int iters, int reduced)
{
    uint8_t buf[32 * 40 + 64];
    for (int it = 0; it < iters; it++) {
        size_t len = unit * (fs_test_rand64() % (maxn + 1)), off = fs_test_rand64() % maxoff;
        sl2 a, b;
        fs_test_random(buf, sizeof(buf));
        random_lazy(a.m, 4);
        b = a;
        fn(&a, buf + off, len);
        tz_twin_mul_bytes(&b, buf + off, len);
        CU_ASSERT(same(&a, &b));
        for (int e = 0; reduced && e < 4; e++)
            CU_ASSERT(gf127_is_reduced(a.m[e]));
    }
}

static void test_pclmul_vs_twin(void)
{
    if (!(fs_cpu_detected() & FS_CPU_PCLMUL)) {
        fprintf(stderr, "[skip: no PCLMULQDQ] ");
        return;
    }
    soak_vs_twin(tz_pclmul_mul_bytes, 519, 1, 64, soak() ? 20000 : 2000, 1);
}

static void vpclmul_blocks(sl2 *state, const uint8_t *data, size_t len)
{
    tz_vpclmul_mul_blocks(state, data, len / 32);
}

static void test_vpclmul_blocks_vs_twin(void)
{
    if ((fs_cpu_detected() & (FS_CPU_AVX512 | FS_CPU_VPCLMUL)) != (FS_CPU_AVX512 | FS_CPU_VPCLMUL))
        return;
    soak_vs_twin(vpclmul_blocks, 39, 32, 16, soak() ? 20000 : 1000, 0);
}

static void test_pclmul_sl2_mul_vs_twin(void)
{
    if (!(fs_cpu_detected() & FS_CPU_PCLMUL))
        return;
    int iters = soak() ? 200000 : 20000;
    for (int it = 0; it < iters; it++) {
        sl2 a, b, want, got, alias;
        random_lazy(a.m, 4);
        random_lazy(b.m, 4);
        if (it % 4 == 0) { /* all-ones and sparse extremes */
            for (int e = 0; e < 4; e++) {
                a.m[e].lo = a.m[e].hi = ~0ULL;
                b.m[e].lo = it % 8 ? 1 : ~0ULL;
                b.m[e].hi = it % 8 ? 1ULL << 63 : ~0ULL;
            }
        }
        tz_pclmul_sl2_mul(&got, &a, &b);
        alias = a;
        tz_pclmul_sl2_mul(&alias, &alias, &b);
        for (int e = 0; e < 4; e++) { /* the twin takes canonical inputs */
            a.m[e] = tz_reduce_lazy(a.m[e]);
            b.m[e] = tz_reduce_lazy(b.m[e]);
        }
        sl2_mul(&want, &a, &b);
        CU_ASSERT(same(&want, &got));
        CU_ASSERT(same(&want, &alias));
    }
}
#endif

static void test_twin_segments(void)
{
    /* the lane split on the twins equals four separate one-stream runs */
    uint8_t buf[4 * 64];
    fs_test_random(buf, sizeof(buf));
    gf127 st[16];
    sl2 lanes[4];
    for (int l = 0; l < 4; l++)
        random_state(&lanes[l]);
    for (int e = 0; e < 4; e++)
        for (int l = 0; l < 4; l++)
            st[4 * e + l] = lanes[l].m[e];
    tz_twin_segments(st, buf, 8, 64);
    for (int l = 0; l < 4; l++) {
        reference(&lanes[l], buf + 64 * l, 64);
        for (int e = 0; e < 4; e++) {
            gf127 r = tz_reduce_lazy(st[4 * e + l]);
            CU_ASSERT_EQUAL(memcmp(&r, &lanes[l].m[e], sizeof(r)), 0);
        }
    }
}

/* ---- dispatch --------------------------------------------------------- */

static void test_dispatch(void)
{
    /* the static costs pick by feature mask; the process's (measured) costs
     * pick a row the usable set allows, never a twin */
    const fs_kernel *rows = tz_kernel_list();
    CU_ASSERT_STRING_EQUAL(tz_kernel_for(0)->name, "portable");
    CU_ASSERT_STRING_EQUAL(tz_kernel_name(), tz_kernel_for(fs_cpu_features())->name);
    CU_ASSERT(fs_kernel_usable(tz_kernel_for(fs_cpu_features()), fs_cpu_features(), 0));
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    CU_ASSERT_STRING_EQUAL(fs_kernel_pick(rows, NULL, FS_CPU_PCLMUL, 0, 1)->name, "pclmul");
    CU_ASSERT_STRING_EQUAL(fs_kernel_pick(rows, NULL, FS_CPU_AVX512 | FS_CPU_VPCLMUL, 0, 1)->name,
                           "avx512");
    CU_ASSERT_STRING_EQUAL(fs_kernel_pick(rows, NULL, FS_CPU_AVX512 | FS_CPU_PCLMUL, 0, 1)->name,
                           "pclmul");
    CU_ASSERT_STRING_EQUAL(fs_kernel_pick(rows, NULL, ~0u, 0, 1)->name, "avx512");
#else
    CU_ASSERT_STRING_EQUAL(fs_kernel_pick(rows, NULL, ~0u, 0, 1)->name, "portable");
#endif
    for (const fs_kernel *k = rows; k->name != NULL; k++)
        CU_ASSERT(!(k->flags & FS_KERNEL_TWIN) || tz_kernel_for(~0u) != k);
    fprintf(stderr, "[dispatched: %s] ", tz_kernel_name());
    /* the dispatched kernel gives the reference answer */
    uint8_t buf[5000];
    fs_test_random(buf, sizeof(buf));
    sl2 want, got;
    sl2_identity(&want);
    sl2_identity(&got);
    reference(&want, buf, sizeof(buf));
    tz_mul_bytes(&got, buf, sizeof(buf));
    CU_ASSERT(same(&want, &got));
}

static const fs_test tests[] = {
    { "byte tables match their definition", test_tables },
    { "every path: known-answer vectors, whole and split", test_vectors },
    { "every path: lengths 0..4096 from random states", test_lengths },
    { "every path: 64 KiB .. 3 MiB + odd, random splits", test_large },
    { "tz_update streams in random pieces", test_tz_update_splits },
    { "twin lanes equal one-stream runs", test_twin_segments },
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "tz_vpclmul_segments == C twin (raw lazy states)", test_vpclmul_vs_twin },
    { "tz_vpclmul_mul_blocks == C twin", test_vpclmul_blocks_vs_twin },
    { "tz_pclmul_mul_bytes == C twin", test_pclmul_vs_twin },
    { "tz_pclmul_sl2_mul == sl2_mul", test_pclmul_sl2_mul_vs_twin },
#endif
    { "dispatch and FASTSIG_CPU paths", test_dispatch },
    { NULL, NULL },
};

static const fs_suite suites[] = {
    { "tz_kernels", tests },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_main(suites);
}
