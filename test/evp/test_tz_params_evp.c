/* test_tz_params_evp.c - homomorphic TZ through EVP: the "tz-prefix"
 * settable and "tz-state" gettable digest-context parameters, streaming
 * updates of every size, and bad prefixes refused without side effects. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/core_names.h>
#include "testutil.h"
#include "fastsig/provider.h"
#include "evp_fixture.h"
#include "fastsig/tz.h"

static EVP_MD *md;

static void test_load(void)
{
    evp_load(0);
    md = EVP_MD_fetch(libctx, FASTSIG_MD_TZ, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(md);
}

static int evp_tz(const uint8_t *msg, size_t len, uint8_t out[64])
{
    unsigned int outl = 0;
    return EVP_Digest(msg, len, out, &outl, md, NULL) && outl == 64;
}

static void test_params_listed(void)
{
    const OSSL_PARAM *s = EVP_MD_settable_ctx_params(md);
    const OSSL_PARAM *g = EVP_MD_gettable_ctx_params(md);
    CU_ASSERT_PTR_NOT_NULL(OSSL_PARAM_locate_const(s, FASTSIG_DIGEST_PARAM_TZ_PREFIX));
    CU_ASSERT_PTR_NOT_NULL(OSSL_PARAM_locate_const(g, FASTSIG_DIGEST_PARAM_TZ_STATE));
}

/* H(a||b) from H(a) by set_params, and by EVP_DigestInit_ex2's params. */
static void test_continue_from_prefix(void)
{
    size_t la = 1000 + 3, lb = 70000 + 5;
    uint8_t *buf = fs_test_buffer(la + lb), ha[64], want[64], got[64], st[64];
    CU_ASSERT_FATAL(evp_tz(buf, la, ha));
    CU_ASSERT_FATAL(evp_tz(buf, la + lb, want));
    for (int way = 0; way < 2; way++) {
        EVP_MD_CTX *c = EVP_MD_CTX_new();
        OSSL_PARAM set[] = {
            OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, ha, 64),
            OSSL_PARAM_construct_end(),
        };
        unsigned int outl = 0;
        if (way == 0) {
            CU_ASSERT(EVP_DigestInit_ex(c, md, NULL));
            CU_ASSERT(EVP_MD_CTX_set_params(c, set));
        } else {
            CU_ASSERT(EVP_DigestInit_ex2(c, md, set));
        }
        /* running state right after the prefix is the prefix */
        OSSL_PARAM get[] = {
            OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_STATE, st, sizeof(st)),
            OSSL_PARAM_construct_end(),
        };
        CU_ASSERT(EVP_MD_CTX_get_params(c, get));
        CU_ASSERT_EQUAL(get[0].return_size, 64);
        CU_ASSERT_EQUAL(memcmp(st, ha, 64), 0);
        /* b in uneven pieces */
        size_t done = 0;
        while (done < lb) {
            size_t n = fs_test_rand64() % 5000;
            if (n > lb - done)
                n = lb - done;
            CU_ASSERT(EVP_DigestUpdate(c, buf + la + done, n));
            done += n;
        }
        CU_ASSERT(EVP_MD_CTX_get_params(c, get));
        CU_ASSERT_EQUAL(memcmp(st, want, 64), 0);
        CU_ASSERT(EVP_DigestFinal_ex(c, got, &outl));
        CU_ASSERT_EQUAL(outl, 64);
        CU_ASSERT_EQUAL(memcmp(got, want, 64), 0);
        EVP_MD_CTX_free(c);
    }
    free(buf);
}

/* The running state equals the digest of the input so far, at every size,
 * and a copy of the context carries it. */
static void test_running_state(void)
{
    uint8_t buf[3000], st[64], want[64];
    fs_test_random(buf, sizeof(buf));
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    CU_ASSERT_FATAL(EVP_DigestInit_ex(c, md, NULL));
    size_t done = 0;
    for (size_t n = 0; done + n <= sizeof(buf); done += n, n = (n * 7 + 1) % 400) {
        CU_ASSERT(EVP_DigestUpdate(c, buf + done, n));
        OSSL_PARAM get[] = {
            OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_STATE, st, sizeof(st)),
            OSSL_PARAM_construct_end(),
        };
        CU_ASSERT(EVP_MD_CTX_get_params(c, get));
        CU_ASSERT(evp_tz(buf, done + n, want));
        CU_ASSERT_EQUAL(memcmp(st, want, 64), 0);
    }
    EVP_MD_CTX *d = EVP_MD_CTX_new();
    CU_ASSERT(EVP_MD_CTX_copy_ex(d, c));
    uint8_t a[64], b[64];
    unsigned int la, lb;
    CU_ASSERT(EVP_DigestFinal_ex(c, a, &la));
    CU_ASSERT(EVP_DigestFinal_ex(d, b, &lb));
    CU_ASSERT_EQUAL(memcmp(a, b, 64), 0);
    EVP_MD_CTX_free(c);
    EVP_MD_CTX_free(d);
}

/* Wrong length and bit 127 are refused, and the running state survives. */
static void test_bad_prefix(void)
{
    uint8_t msg[10] = "0123456789", good[64], bad[65], st[64];
    CU_ASSERT_FATAL(evp_tz(msg, sizeof(msg), good));
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    CU_ASSERT_FATAL(EVP_DigestInit_ex(c, md, NULL));
    CU_ASSERT(EVP_DigestUpdate(c, msg, sizeof(msg)));
    static const size_t lens[] = { 0, 63, 65 };
    memset(bad, 0x11, sizeof(bad));
    for (size_t i = 0; i < 3; i++) {
        OSSL_PARAM set[] = {
            OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, bad, lens[i]),
            OSSL_PARAM_construct_end(),
        };
        CU_ASSERT_FALSE(EVP_MD_CTX_set_params(c, set));
    }
    for (int e = 0; e < 4; e++) {
        memcpy(bad, good, 64);
        bad[16 * e] |= 0x80; /* bit 127 of element e */
        OSSL_PARAM set[] = {
            OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, bad, 64),
            OSSL_PARAM_construct_end(),
        };
        CU_ASSERT_FALSE(EVP_MD_CTX_set_params(c, set));
        CU_ASSERT(ERR_peek_last_error() != 0);
        ERR_clear_error();
    }
    /* a UTF-8 string where an octet string belongs */
    OSSL_PARAM wrongtype[] = {
        OSSL_PARAM_construct_utf8_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, "abc", 0),
        OSSL_PARAM_construct_end(),
    };
    CU_ASSERT_FALSE(EVP_MD_CTX_set_params(c, wrongtype));
    ERR_clear_error();
    OSSL_PARAM get[] = {
        OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_STATE, st, sizeof(st)),
        OSSL_PARAM_construct_end(),
    };
    CU_ASSERT(EVP_MD_CTX_get_params(c, get));
    CU_ASSERT_EQUAL(memcmp(st, good, 64), 0);
    /* a too-small buffer for the state is refused */
    OSSL_PARAM small[] = {
        OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_STATE, st, 63),
        OSSL_PARAM_construct_end(),
    };
    CU_ASSERT_FALSE(EVP_MD_CTX_get_params(c, small));
    ERR_clear_error();
    EVP_MD_CTX_free(c);
}

/* Prefixes outside SL2 (determinant not 1) are refused, and a valid
 * prefix still continues the digest afterwards. */
static void test_prefix_not_sl2(void)
{
    uint8_t ha[64], want[64], got[64], bad[3][64] = { { 0 } };
    unsigned int len = 0;
    CU_ASSERT_FATAL(evp_tz((const uint8_t *)"a", 1, ha));
    CU_ASSERT_FATAL(evp_tz((const uint8_t *)"ab", 2, want));
    bad[1][15] = 1; /* [[1,0],[0,0]]: singular, bit 127 clear */
    bad[2][15] = 2; /* [[x,0],[0,1]]: determinant x */
    bad[2][63] = 1;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    CU_ASSERT_FATAL(EVP_DigestInit_ex(c, md, NULL));
    for (int i = 0; i < 3; i++) {
        OSSL_PARAM set[] = {
            OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, bad[i], 64),
            OSSL_PARAM_construct_end(),
        };
        CU_ASSERT_FALSE(EVP_MD_CTX_set_params(c, set));
        CU_ASSERT(ERR_peek_last_error() != 0);
        ERR_clear_error();
    }
    OSSL_PARAM set[] = {
        OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, ha, 64),
        OSSL_PARAM_construct_end(),
    };
    CU_ASSERT(EVP_MD_CTX_set_params(c, set));
    CU_ASSERT(EVP_DigestUpdate(c, "b", 1));
    CU_ASSERT(EVP_DigestFinal_ex(c, got, &len));
    CU_ASSERT_EQUAL(len, 64);
    CU_ASSERT_EQUAL(memcmp(got, want, 64), 0);
    EVP_MD_CTX_free(c);
}

/* Streaming through EVP in every piece size equals the one-shot digest
 * (the provider uses the dispatched kernel for every update). */
static void test_streaming_sizes(void)
{
    size_t len = 300000 + 11;
    uint8_t *buf = fs_test_buffer(len), want[64], got[64];
    tz_hash(buf, len, want);
    static const size_t pieces[] = { 1, 3, 4, 15, 16, 17, 255, 256, 257, 4099, 65536, 0 };
    for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
        EVP_MD_CTX *c = EVP_MD_CTX_new();
        unsigned int outl;
        CU_ASSERT_FATAL(EVP_DigestInit_ex(c, md, NULL));
        for (size_t done = 0; done < len;) {
            size_t n = pieces[i] ? pieces[i] : 1 + fs_test_rand64() % 100000;
            if (n > len - done)
                n = len - done;
            EVP_DigestUpdate(c, buf + done, n);
            done += n;
        }
        CU_ASSERT(EVP_DigestFinal_ex(c, got, &outl));
        CU_ASSERT_EQUAL(memcmp(got, want, 64), 0);
        EVP_MD_CTX_free(c);
    }
    free(buf);
}

static void test_unload(void)
{
    EVP_MD_free(md);
    evp_unload();
}

static const fs_test tests[] = {
    { "load the provider, fetch TZ", test_load },
    { "tz-prefix settable, tz-state gettable", test_params_listed },
    { "H(a||b) continued from H(a)", test_continue_from_prefix },
    { "running state after every update", test_running_state },
    { "bad prefixes refused, state kept", test_bad_prefix },
    { "prefixes outside SL2 refused", test_prefix_not_sl2 },
    { "streaming updates of every size", test_streaming_sizes },
    { "unload", test_unload },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("tz_params_evp", tests);
}
