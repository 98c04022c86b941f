/* test_hash_stream.c - the streamed message hash (hash_stream.h) against
 * the whole-message functions it stands in for: every family and digest
 * size, the keyed form (XMSS's H_msg) against fs_hash_msg and the prefixed
 * form (LMS's Q) against fs_hash_prefixed_msg, message lengths around the
 * block and past the 64 blocks an update absorbs per engine call, fed in
 * random pieces (empty ones and single bytes included), on every CPU path
 * the machine has; bad and NULL arguments refused. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "hash/hash.h"
#include "hash/hash_internal.h"
#include "hash/hash_stream.h"
#include "hash_ref.h"
#include "testutil.h"

#define MAXLEN 24000 /* past 64 blocks of every family (SHAKE128: 168 bytes) */

/* Lengths: around 0 and each block multiple up to 3, then random up to MAXLEN. */
static size_t length_at(size_t k, unsigned block)
{
    static const int around[] = { 0, 1, -1 };
    if (k < 12) {
        long v = (long)(k / 3) * block + around[k % 3];
        return v < 0 ? 0 : (size_t)v;
    }
    return (size_t)(fs_test_rand64() % (MAXLEN + 1));
}

static void feed(fs_hash_stream *s, const uint8_t *msg, size_t len)
{
    for (size_t at = 0; at < len;) {
        size_t piece = (size_t)(fs_test_rand64() % (len - at + 1));
        uint64_t r = fs_test_rand64();
        if (r % 3 == 0)
            piece %= 5; /* short pieces: the waiting block */
        else if (r % 3 == 1 && piece > 1)
            piece = 1;
        fs_hash_stream_update(s, msg + at, piece);
        at += piece;
    }
    fs_hash_stream_update(s, NULL, 0);
}

/* The family's block (rate) in bytes. */
static unsigned block_of(const fs_hash_params *p)
{
    return p->family == FS_HASH_SHA256 ? 64 : p->family == FS_HASH_SHA512 ? 128
           : p->family == FS_HASH_SHAKE128 ? 168 : 136;
}

static void keyed_one(const fs_hash_params *p)
{
    uint8_t *msg = malloc(MAXLEN), key[3 * FS_HASH_MAX_N], a[FS_HASH_MAX_N], b[FS_HASH_MAX_N];
    for (size_t k = 0; k < 20; k++) {
        size_t len = length_at(k, block_of(p));
        fs_hash_stream s;
        fs_test_random(key, sizeof(key));
        fs_test_random(msg, len);
        CU_ASSERT_FATAL(fs_hash_msg(p, a, key, msg, len) == FASTSIG_OK);
        CU_ASSERT_FATAL(fs_hash_stream_keyed(&s, p, FS_DOM_HMSG, key, 3 * p->n) == FASTSIG_OK);
        feed(&s, msg, len);
        memset(b, 0, sizeof(b));
        fs_hash_stream_final(&s, b);
        CU_ASSERT(memcmp(a, b, p->n) == 0);
    }
    free(msg);
}

static void prefixed_one(const fs_hash_params *p)
{
    uint8_t *msg = malloc(MAXLEN), pre[64], a[FS_HASH_MAX_N], b[FS_HASH_MAX_N];
    for (size_t k = 0; k < 20; k++) {
        size_t len = length_at(k, block_of(p)), plen = (size_t)(fs_test_rand64() % 64);
        fs_hash_stream s;
        fs_test_random(pre, sizeof(pre));
        fs_test_random(msg, len);
        CU_ASSERT_FATAL(fs_hash_prefixed_msg(p, a, pre, plen, msg, len) == FASTSIG_OK);
        CU_ASSERT_FATAL(fs_hash_stream_prefixed(&s, p, pre, plen) == FASTSIG_OK);
        feed(&s, msg, len);
        memset(b, 0, sizeof(b));
        fs_hash_stream_final(&s, b);
        CU_ASSERT(memcmp(a, b, p->n) == 0);
    }
    free(msg);
}

static void keyed_matches_hmsg(void)
{
    each_path_param(keyed_one);
}

static void prefixed_matches(void)
{
    each_path_param(prefixed_one);
}

static void bad_arguments(void)
{
    fs_hash_stream s;
    uint8_t pre[200] = { 0 };
    const fs_hash_params bad = { FS_HASH_SHA256, 48, 32 };
    CU_ASSERT(fs_hash_stream_prefixed(&s, &bad, pre, 22) == FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT(fs_hash_stream_prefixed(&s, &test_params[0], pre, 64) == FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT(fs_hash_stream_prefixed(&s, &test_params[0], NULL, 1) == FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT(fs_hash_stream_keyed(&s, &test_params[0], 256, pre, 96) == FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT(fs_hash_stream_keyed(&s, &test_params[0], 2, pre, 3 * FS_HASH_MAX_N + 1) ==
              FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT(fs_hash_stream_keyed(&s, &bad, 2, pre, 96) == FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT(fs_hash_stream_keyed(NULL, &test_params[0], 2, pre, 96) == FASTSIG_ERR_NULL_ARG);
    CU_ASSERT(fs_hash_stream_keyed(&s, &test_params[0], 2, NULL, 96) == FASTSIG_ERR_NULL_ARG);
    CU_ASSERT(fs_hash_stream_prefixed(NULL, &test_params[0], pre, 22) == FASTSIG_ERR_NULL_ARG);
}

int main(void)
{
    const fs_test tests[] = {
        { "keyed stream = fs_hash_msg (H_msg)", keyed_matches_hmsg },
        { "prefixed stream = fs_hash_prefixed_msg (Q)", prefixed_matches },
        { "bad arguments refused", bad_arguments },
        { NULL, NULL },
    };
    return fs_cu_run("hash_stream", tests);
}
