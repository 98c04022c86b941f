/* test_tz.c - Tillich-Zemor core: vectors, field laws, streaming, homomorphic
 * operations and bad encodings. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "tz_vectors.h"
#include "fastsig/fastsig_err.h"
#include "fastsig/tz.h"
#include "fastsig/gf127.h"
#include "tz/tz_kernel.h"

/* ---- vectors ---------------------------------------------------------- */

static void check_digest(const char *id, const uint8_t *msg, size_t len,
                         const uint8_t want[64], void *arg)
{
    uint8_t got[64];
    tz_hash(msg, len, got);
    if (memcmp(got, want, 64) != 0) {
        fprintf(stderr, "TZ digest mismatch for %s\n", id);
        CU_FAIL("TZ digest mismatch");
    }
    (*(int *)arg)++;
}

static void test_vectors_digest(void)
{
    int checked = 0;
    int lines = tzv_for_each_digest(check_digest, &checked);
    CU_ASSERT_EQUAL(lines, checked);
    CU_ASSERT(lines >= 290); /* 10 from tzhash's tests + 286 generated */
}

/* "name=HEX" field -> 64 bytes */
static int field64(const char *line, const char *name, uint8_t out[64])
{
    char key[64];
    snprintf(key, sizeof(key), "%s=", name);
    const char *p = strstr(line, key);
    if (p == NULL)
        return -1;
    char hex[129];
    memcpy(hex, p + strlen(key), 128);
    hex[128] = 0;
    return fs_unhex(hex, out, 64);
}

static void test_vectors_concat_parts(void)
{
    uint8_t parts[10 * 64], want[64], got[64];
    char id[64];
    char *line = tzv_line("tzhash-concat-hash");
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    CU_ASSERT_EQUAL_FATAL(fs_unhex(strchr(line, '\t') + 1, want, 64), 0);
    free(line);
    for (int i = 0; i < 10; i++) {
        snprintf(id, sizeof(id), "tzhash-concat-part-%d", i);
        line = tzv_line(id);
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        CU_ASSERT_EQUAL_FATAL(fs_unhex(strchr(line, '\t') + 1, parts + 64 * i, 64), 0);
        free(line);
    }
    CU_ASSERT_EQUAL(tz_concat(parts, 10, got), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(got, want, 64), 0);
    CU_ASSERT_EQUAL(tz_validate(want, parts, 10), FASTSIG_OK);
    /* order matters */
    uint8_t swapped[10 * 64];
    memcpy(swapped, parts, sizeof(swapped));
    memcpy(swapped, parts + 64, 64);
    memcpy(swapped + 64, parts, 64);
    CU_ASSERT_EQUAL(tz_validate(want, swapped, 10), FASTSIG_ERR_VERIFY);
}

static void test_vectors_concat_file(void)
{
    /* concat \t pat131:1048576 cut at [...] \t parts=h0,h1,... \t concat=.. \t sum=.. */
    char *line = tzv_line("concat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    const char *cut = strstr(line, "cut at [");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
    size_t cuts[16], ncut = 0;
    for (const char *p = cut + 8; *p && *p != ']' && ncut < 16;) {
        char *end;
        cuts[ncut++] = strtoul(p, &end, 10);
        p = end;
        while (*p == ' ')
            p++;
    }
    size_t len;
    uint8_t *msg = tzv_expand("pat131:1048576", &len);
    CU_ASSERT_FATAL(ncut >= 2);
    size_t nparts = ncut - 1;
    uint8_t *parts = malloc(64 * nparts), want_parts[64], want[64], sum[64], got[64];
    const char *p = strstr(line, "parts=") + 6;
    for (size_t i = 0; i < nparts; i++) {
        tz_hash(msg + cuts[i], cuts[i + 1] - cuts[i], parts + 64 * i);
        char hex[129];
        memcpy(hex, p + 129 * i, 128);
        hex[128] = 0;
        CU_ASSERT_EQUAL(fs_unhex(hex, want_parts, 64), 0);
        CU_ASSERT_EQUAL(memcmp(parts + 64 * i, want_parts, 64), 0);
    }
    CU_ASSERT_EQUAL(field64(line, "concat", want), 0);
    CU_ASSERT_EQUAL(field64(line, "sum", sum), 0);
    CU_ASSERT_EQUAL(tz_concat(parts, nparts, got), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(got, want, 64), 0);
    CU_ASSERT_EQUAL(memcmp(got, sum, 64), 0);
    CU_ASSERT_EQUAL(tz_validate(sum, parts, nparts), FASTSIG_OK);
    free(parts);
    free(msg);
    free(line);
    line = tzv_line("validate");
    CU_ASSERT_PTR_NOT_NULL(line);
    CU_ASSERT_PTR_NOT_NULL(line ? strstr(line, "true") : NULL);
    free(line);
}

static void test_vectors_subtract(void)
{
    uint8_t first[64], second[64], result[64], got[64];
    for (int i = 0; i < 2; i++) {
        char id[64];
        snprintf(id, sizeof(id), "tzhash-subtract-%d", i);
        char *line = tzv_line(id);
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        CU_ASSERT_EQUAL_FATAL(field64(line, "first", first), 0);
        CU_ASSERT_EQUAL_FATAL(field64(line, "second", second), 0);
        CU_ASSERT_EQUAL_FATAL(field64(line, "result", result), 0);
        free(line);
        uint8_t both[128];
        memcpy(both, first, 64);
        memcpy(both + 64, second, 64);
        CU_ASSERT_EQUAL(tz_concat(both, 2, got), FASTSIG_OK);
        CU_ASSERT_EQUAL(memcmp(got, result, 64), 0);
        CU_ASSERT_EQUAL(tz_subtract_right(result, second, got), FASTSIG_OK);
        CU_ASSERT_EQUAL(memcmp(got, first, 64), 0);
        CU_ASSERT_EQUAL(tz_subtract_left(result, first, got), FASTSIG_OK);
        CU_ASSERT_EQUAL(memcmp(got, second, 64), 0);
    }
    /* Section 2: a = Sum("hello "), b = Sum("world"), c = Sum("hello world") */
    char *line = tzv_line("subtract");
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    uint8_t a[64], b[64], c[64], r[64], l[64];
    CU_ASSERT_EQUAL_FATAL(field64(line, "Sum(\"hello \")", a), 0);
    CU_ASSERT_EQUAL_FATAL(field64(line, "Sum(\"world\")", b), 0);
    CU_ASSERT_EQUAL_FATAL(field64(line, "Sum(\"hello world\")", c), 0);
    CU_ASSERT_EQUAL_FATAL(field64(line, "SubtractR(c,b)", r), 0);
    CU_ASSERT_EQUAL_FATAL(field64(line, "SubtractL(c,a)", l), 0);
    free(line);
    tz_hash("hello ", 6, got);
    CU_ASSERT_EQUAL(memcmp(got, a, 64), 0);
    CU_ASSERT_EQUAL(tz_subtract_right(c, b, got), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(got, r, 64), 0);
    CU_ASSERT_EQUAL(tz_subtract_left(c, a, got), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(got, l, 64), 0);
}

static void test_vectors_marshal(void)
{
    char *line = tzv_line("state-marshal");
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    uint8_t want_m[64], want_s[64], got[64];
    CU_ASSERT_EQUAL_FATAL(field64(line, "MarshalBinary", want_m), 0);
    CU_ASSERT_EQUAL_FATAL(field64(line, "Sum", want_s), 0);
    free(line);
    tz_ctx ctx, back;
    tz_init(&ctx);
    tz_update(&ctx, "abc", 3);
    tz_ctx_marshal(&ctx, got);
    CU_ASSERT_EQUAL(memcmp(got, want_m, 64), 0);
    CU_ASSERT_EQUAL(tz_ctx_unmarshal(&back, want_m), FASTSIG_OK);
    tz_final(&back, got);
    CU_ASSERT_EQUAL(memcmp(got, want_s, 64), 0);
}

/* ---- field arithmetic ------------------------------------------------- */

static gf127 rand_elem(void)
{
    gf127 a = { fs_test_rand64(), fs_test_rand64() & GF127_TOP_MASK };
    return a;
}

static int eq(gf127 a, gf127 b)
{
    return a.lo == b.lo && a.hi == b.hi;
}

static void test_field_laws(void)
{
    gf127 one = { 1, 0 }, zero = { 0, 0 }, x = { 2, 0 };
    for (int i = 0; i < 2000; i++) {
        gf127 a = rand_elem(), b = rand_elem(), c = rand_elem();
        gf127 ab = gf127_mul(a, b);
        CU_ASSERT(gf127_is_reduced(ab));
        CU_ASSERT(eq(ab, gf127_mul(b, a)));
        CU_ASSERT(eq(gf127_mul(ab, c), gf127_mul(a, gf127_mul(b, c))));
        CU_ASSERT(eq(gf127_mul(a, gf127_add(b, c)), gf127_add(ab, gf127_mul(a, c))));
        CU_ASSERT(eq(gf127_mul(a, one), a));
        CU_ASSERT(eq(gf127_mul(a, zero), zero));
        CU_ASSERT(eq(gf127_mul(a, x), gf127_mul_x(a)));
        if (i < 200 && !eq(a, zero))
            CU_ASSERT(eq(gf127_mul(a, gf127_inv(a)), one));
    }
    /* x^127 = x^63 + 1 */
    gf127 p = one;
    for (int i = 0; i < 127; i++)
        p = gf127_mul_x(p);
    gf127 want = { (1ULL << 63) | 1, 0 };
    CU_ASSERT(eq(p, want));
    /* top element times x folds correctly */
    gf127 top = { 0, 1ULL << 62 };
    CU_ASSERT(eq(gf127_mul_x(top), want));
    uint8_t be[16];
    gf127 a = rand_elem();
    gf127_to_be(a, be);
    CU_ASSERT(eq(gf127_from_be(be), a));
}

/* ---- streaming -------------------------------------------------------- */

static void test_stream_splits(void)
{
    uint8_t msg[300], whole[64], got[64];
    fs_test_random(msg, sizeof(msg));
    tz_hash(msg, 257, whole);
    for (size_t cut = 0; cut <= 256; cut++) {
        tz_ctx ctx;
        tz_init(&ctx);
        tz_update(&ctx, msg, cut);
        tz_update(&ctx, msg + cut, 257 - cut);
        tz_final(&ctx, got);
        CU_ASSERT_EQUAL(memcmp(got, whole, 64), 0);
    }
    /* random multi-way splits, and byte at a time */
    for (int trial = 0; trial < 50; trial++) {
        tz_ctx ctx;
        tz_init(&ctx);
        for (size_t off = 0; off < 257;) {
            size_t n = fs_test_rand64() % 40;
            if (n > 257 - off)
                n = 257 - off;
            tz_update(&ctx, msg + off, n);
            off += n;
        }
        tz_final(&ctx, got);
        CU_ASSERT_EQUAL(memcmp(got, whole, 64), 0);
    }
}

static void test_continue_from_digest(void)
{
    uint8_t a[100], b[77], ab[177], ha[64], hab[64], got[64], both[128];
    fs_test_random(a, sizeof(a));
    fs_test_random(b, sizeof(b));
    memcpy(ab, a, sizeof(a));
    memcpy(ab + sizeof(a), b, sizeof(b));
    tz_hash(a, sizeof(a), ha);
    tz_hash(ab, sizeof(ab), hab);
    tz_ctx ctx;
    CU_ASSERT_EQUAL(tz_ctx_set_digest(&ctx, ha), FASTSIG_OK);
    tz_update(&ctx, b, sizeof(b));
    tz_final(&ctx, got);
    CU_ASSERT_EQUAL(memcmp(got, hab, 64), 0);
    /* H(a||b) = H(a) * H(b) */
    memcpy(both, ha, 64);
    tz_hash(b, sizeof(b), both + 64);
    CU_ASSERT_EQUAL(tz_concat(both, 2, got), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(got, hab, 64), 0);
    /* concat of nothing is the empty digest */
    uint8_t empty[64];
    tz_hash("", 0, empty);
    CU_ASSERT_EQUAL(tz_concat(NULL, 0, got), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(got, empty, 64), 0);
}

/* ---- bad input -------------------------------------------------------- */

static void test_bad_encodings(void)
{
    uint8_t good[64], bad[64], out[64], two[128];
    tz_hash("hello", 5, good);
    for (int elem = 0; elem < 4; elem++) {
        memcpy(bad, good, 64);
        bad[16 * elem] |= 0x80; /* bit 127 of element elem */
        CU_ASSERT_EQUAL(tz_digest_check(bad), FASTSIG_ERR_TZ_BIT127);
        memcpy(two, good, 64);
        memcpy(two + 64, bad, 64);
        CU_ASSERT_EQUAL(tz_concat(two, 2, out), FASTSIG_ERR_TZ_BIT127);
        CU_ASSERT_EQUAL(tz_subtract_right(bad, good, out), FASTSIG_ERR_TZ_BIT127);
        CU_ASSERT_EQUAL(tz_subtract_left(good, bad, out), FASTSIG_ERR_TZ_BIT127);
        CU_ASSERT_EQUAL(tz_validate(bad, good, 1), FASTSIG_ERR_TZ_BIT127);
        CU_ASSERT_EQUAL(tz_validate(good, bad, 1), FASTSIG_ERR_TZ_BIT127);
        tz_ctx ctx;
        CU_ASSERT_EQUAL(tz_ctx_set_digest(&ctx, bad), FASTSIG_ERR_TZ_BIT127);
        CU_ASSERT_EQUAL(tz_ctx_unmarshal(&ctx, bad), FASTSIG_ERR_TZ_BIT127);
    }
    CU_ASSERT_EQUAL(tz_digest_check(good), FASTSIG_OK);
    /* singular matrix: all zero */
    memset(bad, 0, 64);
    CU_ASSERT_EQUAL(tz_subtract_right(good, bad, out), FASTSIG_ERR_TZ_SINGULAR);
    CU_ASSERT_EQUAL(tz_subtract_left(good, bad, out), FASTSIG_ERR_TZ_SINGULAR);
    /* mismatch and nulls */
    tz_hash("hellp", 5, bad);
    CU_ASSERT_EQUAL(tz_validate(good, bad, 1), FASTSIG_ERR_VERIFY);
    CU_ASSERT_EQUAL(tz_validate(NULL, good, 1), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(tz_concat(NULL, 1, out), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(tz_concat(good, 1, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(tz_subtract_left(NULL, good, out), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(tz_ctx_set_digest(NULL, good), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_STRING_EQUAL(fastsig_strerror(FASTSIG_ERR_TZ_BIT127), "TZ element has bit 127 set");
}

/* A prefix must be a hash state, an element of SL2 (determinant 1): a
 * singular one would make every later digest of the context degenerate. */
static void test_prefix_not_sl2(void)
{
    uint8_t good[64], bad[64], got[64], want[64];
    tz_hash("ab", 2, want);
    tz_hash("a", 1, good);
    tz_ctx ctx;
    CU_ASSERT_EQUAL_FATAL(tz_ctx_set_digest(&ctx, good), FASTSIG_OK);
    memset(bad, 0, 64); /* all zero */
    CU_ASSERT_EQUAL(tz_ctx_set_digest(&ctx, bad), FASTSIG_ERR_TZ_SINGULAR);
    bad[15] = 1; /* [[1,0],[0,0]]: singular, bit 127 clear */
    CU_ASSERT_EQUAL(tz_ctx_set_digest(&ctx, bad), FASTSIG_ERR_TZ_SINGULAR);
    bad[63] = 1;
    bad[15] = 2; /* [[x,0],[0,1]]: invertible, determinant x */
    CU_ASSERT_EQUAL(tz_ctx_set_digest(&ctx, bad), FASTSIG_ERR_TZ_SINGULAR);
    /* refused prefixes left the valid one in place */
    tz_update(&ctx, "b", 1);
    tz_final(&ctx, got);
    CU_ASSERT_EQUAL(memcmp(got, want, 64), 0);
}

static void test_ct_equal(void)
{
    uint8_t a[64], b[64];
    fs_test_random(a, 64);
    memcpy(b, a, 64);
    CU_ASSERT_EQUAL(tz_ct_equal(a, b, 64), 1);
    for (int i = 0; i < 64; i++) {
        b[i] ^= 1;
        CU_ASSERT_EQUAL(tz_ct_equal(a, b, 64), 0);
        b[i] ^= 1;
    }
}

static const fs_test vector_tests[] = {
    { "digest lines", test_vectors_digest },
    { "concat of tzhash parts", test_vectors_concat_parts },
    { "concat of 1 MiB cut in parts", test_vectors_concat_file },
    { "subtract left and right", test_vectors_subtract },
    { "MarshalBinary", test_vectors_marshal },
    { NULL, NULL }
};
static const fs_test core_tests[] = {
    { "GF(2^127) laws on random elements", test_field_laws },
    { "split at every offset 0..256 equals one-shot", test_stream_splits },
    { "continue from a digest; H(a||b) = H(a)H(b)", test_continue_from_digest },
    { "bad encodings, singular, mismatch, nulls", test_bad_encodings },
    { "prefix outside SL2 refused", test_prefix_not_sl2 },
    { "constant-time compare", test_ct_equal },
    { NULL, NULL }
};

int main(void)
{
    fprintf(stderr, "TZ kernel: %s\n", tz_kernel_name());
    const fs_suite suites[] = {
        { "tz-vectors", vector_tests },
        { "tz-core", core_tests },
        { NULL, NULL },
    };
    return fs_cu_main(suites);
}
