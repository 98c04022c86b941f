/* test_stateful.c - the stateful contract (crypto/stateful.h), the same
 * checks over the ops of every kind: XMSS, XMSS^MT, WOTS+ and HSS cores made
 * from fixed seeds. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "stateful_kinds.h"

typedef struct {
    const char *name;
    const fs_stateful_ops *ops;
    size_t seed_at;          /* offset of a secret seed in the private core */
} kind_row;

/* The HSS levels: two small trees (64 indices). */
static int hss_make(void **core)
{
    lms_params lms[2];
    lmots_params ots[2];
    uint8_t seed[32 + 16];
    unsigned bad;
    const char *why;
    for (int i = 0; i < 2; i++)
        if (lms_params_by_name(&lms[i], "LMS_SHA256_M32_H5") != FASTSIG_OK
            || lmots_params_by_name(&ots[i], "LMOTS_SHA256_N32_W4") != FASTSIG_OK)
            return FASTSIG_ERR_INTERNAL;
    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)i;
    int err = fs_stateful_hss_new(2, lms, ots, &bad, &why, core);
    return err != FASTSIG_OK ? err : fs_stateful_hss_keygen(*core, seed, sizeof(seed), 2, NULL, NULL);
}

/* A new key of row r from the seed bytes 0, 1, 2, ... */
static int make(const kind_row *r, void **core)
{
    uint8_t seed[3 * 64];
    const xmss_params *p = xmss_params_by_name(r->name);
    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)i;
    if (r->ops == &fs_stateful_hss)
        return hss_make(core);
    if (p == NULL)
        return FASTSIG_ERR_INTERNAL;
    if (r->ops == &fs_stateful_wotsp)
        return fs_stateful_wotsp_new(p, core) != FASTSIG_OK
               ? FASTSIG_ERR_NOMEM : fs_stateful_wotsp_keygen(*core, seed, 3 * (size_t)p->n);
    return fs_stateful_xmss_new(p, core) != FASTSIG_OK
           ? FASTSIG_ERR_NOMEM
           : fs_stateful_xmss_keygen(*core, seed, 3 * (size_t)p->n, 2, NULL, NULL);
}

static const kind_row rows[] = {
    { "XMSS-SHA2_10_256", &fs_stateful_xmss, 4 + 4 },
    { "XMSSMT-SHA2_20/4_256", &fs_stateful_xmssmt, 4 + 3 },
    { "WOTSP-SHA2_256", &fs_stateful_wotsp, 4 },
    { "HSS", &fs_stateful_hss, 4 + 16 + 16 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static const uint8_t msg[] = "the stateful contract";

/* The private core of c (malloc'd) into *out. */
static size_t export(const fs_stateful_ops *ops, void *c, uint8_t **out)
{
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(ops->export_sk(c, 0, NULL, &len), FASTSIG_OK);
    *out = fs_test_buffer(len);
    CU_ASSERT_EQUAL_FATAL(ops->export_sk(c, 0, *out, &len), FASTSIG_OK);
    return len;
}

/* Signs at idx (verify-after-sign in the core) and checks the signature. */
static int sign_at(const fs_stateful_ops *ops, void *c, uint64_t idx)
{
    size_t len = ops->sig_bytes(c);
    uint8_t *sig = fs_test_buffer(len);
    int err = ops->sign(c, idx, 1, msg, sizeof(msg), sig, len);
    if (err == FASTSIG_OK) {
        CU_ASSERT_EQUAL(ops->verify(c, msg, sizeof(msg), sig, len), FASTSIG_OK);
        sig[len / 2] ^= 1;
        CU_ASSERT_NOT_EQUAL(ops->verify(c, msg, sizeof(msg), sig, len), FASTSIG_OK);
    }
    free(sig);
    return err;
}

static void test_codec(void)
{
    for (size_t i = 0; i < NROWS; i++) {
        const fs_stateful_ops *ops = rows[i].ops;
        void *c = NULL, *d = NULL;
        uint8_t *sk, *sk2;
        size_t len, len2, corelen = 0, pklen, pklen2;
        CU_ASSERT_EQUAL_FATAL(make(&rows[i], &c), FASTSIG_OK);
        CU_ASSERT(ops->has_sk(c));
        len = export(ops, c, &sk);
        CU_ASSERT_EQUAL_FATAL(ops->from_sk(sk, len, &corelen, &d), FASTSIG_OK);
        CU_ASSERT_EQUAL(corelen, len);
        len2 = export(ops, d, &sk2);
        CU_ASSERT(len2 == len && memcmp(sk, sk2, len) == 0);
        const uint8_t *pk = ops->pk(c, &pklen), *pk2 = ops->pk(d, &pklen2);
        CU_ASSERT(pklen == pklen2 && memcmp(pk, pk2, pklen) == 0);
        CU_ASSERT_EQUAL(ops->check(d), FASTSIG_OK);
        /* a public core: no private half, verifies */
        void *pub = NULL;
        CU_ASSERT_EQUAL_FATAL(ops->from_pk(pk, pklen, &pub), FASTSIG_OK);
        CU_ASSERT(!ops->has_sk(pub));
        CU_ASSERT_EQUAL(ops->export_sk(pub, 0, NULL, &len2), FASTSIG_ERR_BAD_KEY);
        CU_ASSERT_EQUAL(ops->n(pub), ops->n(c));
        CU_ASSERT(strcmp(ops->name(c), ops->name(d)) == 0);
        ops->free(pub);
        /* a damaged seed: the seeds no longer give the public key */
        sk[rows[i].seed_at] ^= 1;
        ops->free(d);
        d = NULL;
        CU_ASSERT_EQUAL_FATAL(ops->from_sk(sk, len, &corelen, &d), FASTSIG_OK);
        CU_ASSERT_EQUAL(ops->check(d), FASTSIG_ERR_KEY_MISMATCH);
        CU_ASSERT_NOT_EQUAL(sign_at(ops, d, 0), FASTSIG_OK);
        ops->free(d);
        ops->free(c);
        free(sk);
        free(sk2);
    }
}

static void test_sign_range(void)
{
    for (size_t i = 0; i < NROWS; i++) {
        const fs_stateful_ops *ops = rows[i].ops;
        uint64_t first, end;
        void *c = NULL;
        CU_ASSERT_EQUAL_FATAL(make(&rows[i], &c), FASTSIG_OK);
        ops->range(c, &first, &end);
        CU_ASSERT(first == 0 && end == ops->max(c));
        CU_ASSERT_EQUAL(ops->check(c), FASTSIG_OK);
        CU_ASSERT_EQUAL(sign_at(ops, c, 0), FASTSIG_OK);
        if (ops->set_range == NULL) { /* one-time: its one index only */
            CU_ASSERT_EQUAL(ops->max(c), 1);
            CU_ASSERT_EQUAL(sign_at(ops, c, 1), FASTSIG_ERR_OTS_USED);
            ops->free(c);
            continue;
        }
        CU_ASSERT_EQUAL(sign_at(ops, c, 5), FASTSIG_OK);
        CU_ASSERT_EQUAL(ops->set_range(c, 2, 6), FASTSIG_OK);
        ops->range(c, &first, &end);
        CU_ASSERT(first == 2 && end == 6);
        CU_ASSERT_EQUAL(ops->set_range(c, 1, 6), FASTSIG_ERR_BAD_PARAM); /* only narrows */
        CU_ASSERT_EQUAL(ops->set_range(c, 2, 7), FASTSIG_ERR_BAD_PARAM);
        CU_ASSERT_EQUAL(ops->set_range(c, 4, 4), FASTSIG_ERR_BAD_PARAM);
        ops->range(c, &first, &end);
        CU_ASSERT(first == 2 && end == 6);
        CU_ASSERT_EQUAL(sign_at(ops, c, 1), FASTSIG_ERR_KEY_EXHAUSTED);
        CU_ASSERT_EQUAL(sign_at(ops, c, 6), FASTSIG_ERR_KEY_EXHAUSTED);
        CU_ASSERT_EQUAL(sign_at(ops, c, 3), FASTSIG_OK);
        CU_ASSERT_EQUAL(ops->set_range(c, 3, 5), FASTSIG_OK);
        CU_ASSERT_EQUAL(sign_at(ops, c, 2), FASTSIG_ERR_KEY_EXHAUSTED);
        ops->free(c);
    }
}

static void test_cache(void)
{
    for (size_t i = 0; i < NROWS; i++) {
        const fs_stateful_ops *ops = rows[i].ops;
        uint8_t *sk, *buf = NULL;
        size_t len, blen = 0, corelen;
        void *c = NULL, *d = NULL, *e = NULL;
        if (ops->cache_export == NULL) { /* WOTS+ keeps none */
            CU_ASSERT(ops->cache_import == NULL && ops->cache_dirty == NULL);
            continue;
        }
        CU_ASSERT_EQUAL_FATAL(make(&rows[i], &c), FASTSIG_OK);
        CU_ASSERT(ops->cache_dirty(c)); /* a fresh key: to be written */
        CU_ASSERT_EQUAL_FATAL(ops->cache_export(c, &buf, &blen), FASTSIG_OK);
        CU_ASSERT(!ops->cache_dirty(c));
        len = export(ops, c, &sk);
        /* into a new core of the key: clean, and it signs */
        CU_ASSERT_EQUAL_FATAL(ops->from_sk(sk, len, &corelen, &d), FASTSIG_OK);
        CU_ASSERT(!ops->cache_dirty(d));
        CU_ASSERT_EQUAL(ops->cache_import(d, buf, blen), FASTSIG_OK);
        CU_ASSERT(!ops->cache_dirty(d));
        CU_ASSERT_EQUAL(ops->check(d), FASTSIG_OK);
        CU_ASSERT_EQUAL(sign_at(ops, d, 1), FASTSIG_OK);
        /* a new range: the cache goes to the shard's file */
        CU_ASSERT_EQUAL(ops->set_range(d, 1, 32), FASTSIG_OK);
        CU_ASSERT(ops->cache_dirty(d));
        free(buf);
        buf = NULL;
        CU_ASSERT_EQUAL(ops->cache_export(d, &buf, &blen), FASTSIG_OK);
        CU_ASSERT(!ops->cache_dirty(d));
        /* damaged bytes are refused, the core left as it was */
        buf[blen / 2] ^= 1;
        CU_ASSERT_EQUAL_FATAL(ops->from_sk(sk, len, &corelen, &e), FASTSIG_OK);
        CU_ASSERT_EQUAL(ops->cache_import(e, buf, blen), FASTSIG_ERR_BAD_PARAM);
        CU_ASSERT(!ops->cache_dirty(e));
        CU_ASSERT_EQUAL(ops->check(e), FASTSIG_OK);
        CU_ASSERT_EQUAL(sign_at(ops, e, 7), FASTSIG_OK);
        CU_ASSERT(ops->cache_dirty(e)); /* it built its trees */
        ops->free(c);
        ops->free(d);
        ops->free(e);
        free(sk);
        free(buf);
    }
}

/* ---- a message that streams (the msg_* ops) ---- */

/* Feeds len bytes of m to the stream in pieces cut at random points. */
static void feed(fs_stateful_msg *s, const uint8_t *m, size_t len)
{
    for (size_t at = 0, piece; at < len; at += piece) {
        piece = (size_t)(fs_test_rand64() % (len - at + 1));
        fs_stateful_msg_update(s, m + at, piece);
    }
}

/* At idx: the streamed signature equals sign's over the whole message (two
 * cores of one key: each index signs once per core), the streamed verify
 * accepts it and refuses a changed message or signature. */
static void stream_at(const fs_stateful_ops *ops, void *a, void *b, uint64_t idx, size_t len)
{
    size_t sl = ops->sig_bytes(a);
    uint8_t *m = fs_test_buffer(len + 1), *one = fs_test_buffer(sl), *str = fs_test_buffer(sl);
    fs_stateful_msg s, t;
    fs_test_random(m, len);
    CU_ASSERT_EQUAL_FATAL(ops->sign(a, idx, 0, m, len, one, sl), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(ops->msg_sign_init(b, idx, &s), FASTSIG_OK);
    feed(&s, m, len);
    CU_ASSERT_EQUAL_FATAL(ops->msg_sign_final(b, &s, 1, str, sl), FASTSIG_OK);
    CU_ASSERT(memcmp(one, str, sl) == 0);
    CU_ASSERT_EQUAL_FATAL(ops->msg_verify_init(a, one, sl, &t), FASTSIG_OK);
    s = t; /* a copy verifies as the original (a duplicated context) */
    feed(&t, m, len);
    CU_ASSERT_EQUAL(ops->msg_verify_final(a, &t, one, sl), FASTSIG_OK);
    m[len] ^= 1; /* one byte more */
    feed(&s, m, len + 1);
    CU_ASSERT_EQUAL(ops->msg_verify_final(a, &s, one, sl), FASTSIG_ERR_VERIFY);
    str[sl - 1] ^= 1;
    CU_ASSERT_EQUAL_FATAL(ops->msg_verify_init(a, str, sl, &t), FASTSIG_OK);
    feed(&t, m, len);
    CU_ASSERT_EQUAL(ops->msg_verify_final(a, &t, str, sl), FASTSIG_ERR_VERIFY);
    CU_ASSERT_NOT_EQUAL(ops->msg_verify_init(a, one, sl - 1, &t), FASTSIG_OK);
    free(m);
    free(one);
    free(str);
}

static void test_stream(void)
{
    static const uint64_t idx[] = { 0, 1, 31, 32, 33, 63, 17 }; /* HSS: tree switches */
    static const size_t lens[] = { 0, 1, 63, 64, 65, 1000, 100000 };
    for (size_t r = 0; r < NROWS; r++) {
        const fs_stateful_ops *ops = rows[r].ops;
        void *a = NULL, *b = NULL;
        if (ops->msg_sign_init == NULL)
            continue; /* a kind that signs held messages only */
        CU_ASSERT_EQUAL_FATAL(make(&rows[r], &a), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(make(&rows[r], &b), FASTSIG_OK);
        for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]) && idx[i] < ops->max(a); i++)
            stream_at(ops, a, b, idx[i], lens[i % (sizeof(lens) / sizeof(lens[0]))]);
        ops->free(a);
        ops->free(b);
    }
}

int main(void)
{
    static const fs_test tests[] = {
        { "from_sk / export_sk round trip; check refuses a damaged seed", test_codec },
        { "sign at an index and verify; set_range narrows only", test_sign_range },
        { "cache export / import round trip and the dirty flag", test_cache },
        { "a streamed message: the bytes of sign, verified as it streams", test_stream },
        { NULL, NULL },
    };
    return fs_cu_run("stateful contract", tests);
}
