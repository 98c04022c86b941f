/* test_hash_stream.c - the incremental one-message hash (hash_stream.h)
 * against the engine's one-shot calls: H_msg (fs_hash_msg) and a plain
 * prefixed message (fs_hash_prefixed_msg, LMS's Q), every parameter
 * descriptor, every CPU path, messages cut at random points into pieces of
 * random sizes (empty pieces, single bytes, many blocks). */
#include <stdlib.h>
#include <string.h>
#include "cpu.h"
#include "fastsig_err.h"
#include "hash/hash.h"
#include "hash/hash_stream.h"
#include "hash_ref.h"
#include "testutil.h"

static const unsigned path_masks[] = { 0, FS_CPU_SHANI, FS_CPU_AVX2, FS_CPU_AVX512, ~0u };
#define NPATHS (sizeof(path_masks) / sizeof(path_masks[0]))
static const size_t lens[] = { 0, 1, 40, 63, 64, 65, 100, 127, 128, 135, 136, 168, 169, 1000,
                               4097, 70000 };
#define NLENS (sizeof(lens) / sizeof(lens[0]))

/* Feeds msg to s in random pieces (some empty, some tiny, some long). */
static void feed(fs_hash_stream *s, const uint8_t *msg, size_t len)
{
    size_t at = 0;
    while (at < len) {
        uint64_t r = fs_test_rand64();
        size_t piece = r % 4 == 0 ? 0 : r % 4 == 1 ? 1 + r / 4 % 3 : r / 4 % (len - at + 1);
        piece = piece < len - at ? piece : len - at;
        fs_hash_stream_update(s, msg + at, piece);
        at += piece;
    }
    fs_hash_stream_update(s, NULL, 0);
}

static void one_param(const fs_hash_params *p)
{
    uint8_t key[3 * FS_HASH_MAX_N], pre[54], want[64], got[64];
    fs_test_random(key, sizeof(key));
    fs_test_random(pre, sizeof(pre));
    for (size_t i = 0; i < NLENS; i++) {
        uint8_t *msg = fs_test_buffer(lens[i] + 1);
        fs_hash_stream s;
        fs_test_random(msg, lens[i]);
        for (int round = 0; round < 3; round++) {
            CU_ASSERT_EQUAL_FATAL(fs_hash_msg(p, want, key, msg, lens[i]), FASTSIG_OK);
            CU_ASSERT_EQUAL_FATAL(fs_hash_stream_msg_init(&s, p, key), FASTSIG_OK);
            feed(&s, msg, lens[i]);
            fs_hash_stream_final(&s, got);
            CU_ASSERT(memcmp(got, want, p->n) == 0);
            /* LMS's Q: the prefix is the first update (shorter than a block) */
            CU_ASSERT_EQUAL_FATAL(fs_hash_prefixed_msg(p, want, pre, sizeof(pre), msg, lens[i]),
                                  FASTSIG_OK);
            CU_ASSERT_EQUAL_FATAL(fs_hash_stream_init(&s, p), FASTSIG_OK);
            fs_hash_stream_update(&s, pre, sizeof(pre));
            feed(&s, msg, lens[i]);
            fs_hash_stream_final(&s, got);
            CU_ASSERT(memcmp(got, want, p->n) == 0);
        }
        free(msg);
    }
}

static void test_stream_equals_oneshot(void)
{
    unsigned have = fs_cpu_features();
    for (size_t i = 0; i < NPATHS; i++) {
        size_t j = 0;
        while (j < i && (path_masks[j] & have) != (path_masks[i] & have))
            j++;
        if (j < i)
            continue; /* the same path as an earlier mask */
        fs_hash_select(path_masks[i]);
        for (size_t k = 0; k < NPARAMS; k++)
            one_param(&test_params[k]);
    }
    fs_hash_select(~0u);
}

static void test_stream_bad_input(void)
{
    fs_hash_params bad = { FS_HASH_SHA256, 48, 32 };
    fs_hash_stream s;
    uint8_t key[96] = { 0 };
    CU_ASSERT_EQUAL(fs_hash_stream_init(&s, &bad), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(fs_hash_stream_init(NULL, &test_params[0]), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_stream_msg_init(&s, &test_params[0], NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(fs_hash_stream_msg_init(&s, &bad, key), FASTSIG_ERR_UNSUPPORTED);
}

static const fs_test stream_tests[] = {
    { "stream equals one-shot, random splits, every path", test_stream_equals_oneshot },
    { "stream bad input", test_stream_bad_input },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("hash-stream", stream_tests);
}
