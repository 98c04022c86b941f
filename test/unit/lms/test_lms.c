/* test_lms.c - the LMS/HSS core: parameter table, published vectors
 * (RFC 8554 Appendix F, the SHA-256/192 and SHAKE sets), keys from a seed,
 * the laned chains against the one-at-a-time walk, round trips for every
 * set, HSS levels, and malformed input refused. FASTSIG_SOAK=1 adds the
 * tall trees (h = 15, 20, 25) at full height. */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "testutil.h"
#include "xmss_vec.h"
#include "fastsig_err.h"
#include "cpu.h"
#include "hash/hash.h"
#include "lms/lms_params.h"
#include "lms/lms_chain.h"
#include "lms/lmots.h"
#include "lms/lms_tree.h"
#include "lms/hss.h"

static int soak(void)
{
    const char *s = getenv("FASTSIG_SOAK");
    return s != NULL && strcmp(s, "1") == 0;
}

/* ---- parameter table ---------------------------------------------------- */

static void test_table(void)
{
    static const struct { const char *name; uint32_t type; unsigned n, w, p, ls; } ots[] = {
        { "LMOTS_SHA256_N32_W1", 1, 32, 1, 265, 7 }, { "LMOTS_SHA256_N32_W2", 2, 32, 2, 133, 6 },
        { "LMOTS_SHA256_N32_W4", 3, 32, 4, 67, 4 },  { "LMOTS_SHA256_N32_W8", 4, 32, 8, 34, 0 },
        { "LMOTS_SHA256_N24_W1", 5, 24, 1, 200, 8 }, { "LMOTS_SHA256_N24_W2", 6, 24, 2, 101, 6 },
        { "LMOTS_SHA256_N24_W4", 7, 24, 4, 51, 4 },  { "LMOTS_SHA256_N24_W8", 8, 24, 8, 26, 0 },
        { "LMOTS_SHAKE_N32_W1", 9, 32, 1, 265, 7 },  { "LMOTS_SHAKE_N32_W8", 12, 32, 8, 34, 0 },
        { "LMOTS_SHAKE_N24_W1", 13, 24, 1, 200, 8 }, { "LMOTS_SHAKE_N24_W8", 16, 24, 8, 26, 0 },
    };
    static const struct { const char *name; uint32_t type; unsigned m, h; } lms[] = {
        { "LMS_SHA256_M32_H5", 5, 32, 5 },   { "LMS_SHA256_M32_H25", 9, 32, 25 },
        { "LMS_SHA256_M24_H5", 10, 24, 5 },  { "LMS_SHA256_M24_H25", 14, 24, 25 },
        { "LMS_SHAKE_M32_H5", 15, 32, 5 },   { "LMS_SHAKE_M32_H25", 19, 32, 25 },
        { "LMS_SHAKE_M24_H5", 20, 24, 5 },   { "LMS_SHAKE_M24_H25", 24, 24, 25 },
    };
    lmots_params o, o2;
    lms_params l, l2;
    CU_ASSERT_EQUAL(lmots_params_count(), 16);
    CU_ASSERT_EQUAL(lms_params_count(), 20);
    for (size_t i = 0; i < sizeof(ots) / sizeof(ots[0]); i++) {
        CU_ASSERT_EQUAL_FATAL(lmots_params_get(&o, ots[i].type), FASTSIG_OK);
        CU_ASSERT_STRING_EQUAL(o.name, ots[i].name);
        CU_ASSERT(o.n == ots[i].n && o.w == ots[i].w && o.p == ots[i].p && o.ls == ots[i].ls);
        CU_ASSERT_EQUAL(lmots_params_by_name(&o2, ots[i].name), FASTSIG_OK);
        CU_ASSERT_EQUAL(o2.type, ots[i].type);
    }
    for (size_t i = 0; i < sizeof(lms) / sizeof(lms[0]); i++) {
        CU_ASSERT_EQUAL_FATAL(lms_params_get(&l, lms[i].type), FASTSIG_OK);
        CU_ASSERT_STRING_EQUAL(l.name, lms[i].name);
        CU_ASSERT(l.m == lms[i].m && l.h == lms[i].h);
        CU_ASSERT_EQUAL(lms_params_by_name(&l2, lms[i].name), FASTSIG_OK);
        CU_ASSERT_EQUAL(l2.type, lms[i].type);
    }
    for (size_t i = 0; i < lmots_params_count(); i++) {
        CU_ASSERT_EQUAL(lmots_params_at(&o, i), FASTSIG_OK);
        CU_ASSERT(o.p <= LMS_MAX_P && o.n <= LMS_MAX_N);
    }
    CU_ASSERT_EQUAL(lmots_params_get(&o, 0), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(lmots_params_get(&o, 17), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(lms_params_get(&l, 4), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(lms_params_get(&l, 25), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(lms_params_by_name(&l, "LMS_SHA256_M32_H30"), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(lmots_params_at(&o, 16), FASTSIG_ERR_UNSUPPORTED);
    lms_params_get(&l, 5);
    lmots_params_get(&o, 7); /* SHA-256/192 with an m = 32 tree */
    CU_ASSERT(!lms_pair_ok(&l, &o));
    lmots_params_get(&o, 4);
    CU_ASSERT(lms_pair_ok(&l, &o));
}

/* ---- the laned chains against the one-at-a-time walk --------------------- */

static void chains_match(const lmots_params *o)
{
    enum { COUNT = 300 };
    uint8_t I[16], in[COUNT * 32], a[COUNT * 32], b[COUNT * 32];
    lms_chain_job jobs[COUNT];
    fs_test_random(I, sizeof(I));
    fs_test_random(in, sizeof(in));
    unsigned top = 1u << o->w;
    for (size_t c = 0; c < COUNT; c++) {
        lms_chain_job j = { (uint32_t)fs_test_rand64(), (uint16_t)fs_test_rand64(),
                            (uint8_t)fs_test_rand64(), (uint16_t)(fs_test_rand64() % (top + 1)) };
        jobs[c] = j;
    }
    CU_ASSERT_EQUAL(lms_chains(o, I, jobs, COUNT, in, o->n, a, 1), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_chains_ref(o, I, jobs, COUNT, in, o->n, b), FASTSIG_OK);
    CU_ASSERT(memcmp(a, b, COUNT * o->n) == 0);
    /* one shared start, the keygen shape */
    CU_ASSERT_EQUAL(lms_chains(o, I, jobs, COUNT, in, 0, a, 0), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_chains_ref(o, I, jobs, COUNT, in, 0, b), FASTSIG_OK);
    CU_ASSERT(memcmp(a, b, COUNT * o->n) == 0);
    /* portable kernels only: the same bytes */
    fs_hash_select(0);
    CU_ASSERT_EQUAL(lms_chains(o, I, jobs, COUNT, in, o->n, b, 1), FASTSIG_OK);
    fs_hash_select(~0u);
    CU_ASSERT_EQUAL(lms_chains(o, I, jobs, COUNT, in, o->n, a, 1), FASTSIG_OK);
    CU_ASSERT(memcmp(a, b, COUNT * o->n) == 0);
}

/* Edge shapes on the selected kernels and on the portable ones: counts
 * around the 16 lanes of the fused walk, 0 and 256 steps, the secret
 * derivation's start j = 0xff, j wrapping past 0xff, lengths that leave
 * a tail. */
static void chains_edges(const lmots_params *o)
{
    static const size_t counts[] = { 1, 4, 5, 15, 16, 17, 33, 67 };
    enum { MAXC = 67 };
    uint8_t I[16], in[MAXC * 32], a[MAXC * 32], b[MAXC * 32], c[MAXC * 32];
    lms_chain_job jobs[MAXC];
    fs_test_random(I, sizeof(I));
    fs_test_random(in, sizeof(in));
    for (size_t t = 0; t < sizeof(counts) / sizeof(counts[0]); t++) {
        size_t count = counts[t];
        for (size_t k = 0; k < count; k++) {
            static const uint16_t len[] = { 0, 256, 1, 255, 17, 3 };
            static const uint8_t j0[] = { 0xff, 0xfe, 0, 0x80, 0xf0 };
            lms_chain_job j = { (uint32_t)(k * 0x01010101u), (uint16_t)(k * 257), j0[k % 5],
                                len[(k + t) % 6] };
            jobs[k] = j;
        }
        CU_ASSERT_EQUAL(lms_chains_ref(o, I, jobs, count, in, o->n, a), FASTSIG_OK);
        CU_ASSERT_EQUAL(lms_chains(o, I, jobs, count, in, o->n, b, 1), FASTSIG_OK);
        CU_ASSERT(memcmp(a, b, count * o->n) == 0);
        fs_hash_select(0);
        CU_ASSERT_EQUAL(lms_chains(o, I, jobs, count, in, o->n, c, 1), FASTSIG_OK);
        fs_hash_select(~0u);
        CU_ASSERT(memcmp(a, c, count * o->n) == 0);
    }
}

static void test_chains_laned(void)
{
    lmots_params o;
    for (size_t i = 0; i < lmots_params_count(); i++) {
        lmots_params_at(&o, i);
        chains_match(&o);
        chains_edges(&o);
    }
    lms_chain_job bad = { 0, 0, 0, 257 };
    uint8_t x[32] = { 0 }, y[32];
    CU_ASSERT_EQUAL(lms_chains(&o, x, &bad, 1, x, 0, y, 0), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(lms_chains_ref(&o, x, &bad, 1, x, 0, y), FASTSIG_ERR_BAD_PARAM);
    lmots_params_by_name(&o, "LMOTS_SHA256_N32_W8"); /* the fused walk's sets too */
    CU_ASSERT_EQUAL(lms_chains(&o, x, &bad, 1, x, 0, y, 0), FASTSIG_ERR_BAD_PARAM);
}

/* The streamed message hash against one engine call on the copied message. */
static void test_msg_hash(void)
{
    static const fs_hash_family fams[] = { FS_HASH_SHA256, FS_HASH_SHAKE256 };
    uint8_t pre[54], msg[600], whole[654], a[32], b[32];
    fs_test_random(pre, sizeof(pre));
    fs_test_random(msg, sizeof(msg));
    memcpy(whole, pre, sizeof(pre));
    memcpy(whole + sizeof(pre), msg, sizeof(msg));
    for (size_t f = 0; f < 2; f++)
        for (size_t len = 0; len <= sizeof(msg); len += (len < 300 ? 1 : 37)) {
            fs_hash_params hp = lms_hash_params(fams[f], 32);
            CU_ASSERT_EQUAL(lms_hash_msg(fams[f], 32, a, pre, sizeof(pre), msg, len), FASTSIG_OK);
            CU_ASSERT_EQUAL(fs_hash_many(&hp, b, whole, sizeof(pre) + len, 1), FASTSIG_OK);
            CU_ASSERT(memcmp(a, b, 32) == 0);
        }
}

/* ---- published vectors ---------------------------------------------------- */

static const char *const vec_files[] = {
    "rfc8554-tc1.txt",
    "rfc8554-tc2.txt",
    "LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8.txt",
    "LMS_SHAKE_M24_H5-LMOTS_SHAKE_N24_W8.txt",
    "LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8.txt",
};
#define NVEC (sizeof(vec_files) / sizeof(vec_files[0]))

typedef struct {
    uint8_t *pub, *msg, *sig, *seed, *I;
    size_t publen, msglen, siglen, seedlen, Ilen;
} lms_vec;

/* xmss_vec reads vectors/xmss/<file>; the lms files share its format. */
static int vec_load(const char *file, lms_vec *v)
{
    char rel[200];
    snprintf(rel, sizeof(rel), "../lms/%s", file);
    xmss_vec *h = xmss_vec_load(rel);
    memset(v, 0, sizeof(*v));
    if (h == NULL)
        return 0;
    v->pub = xmss_vec_bytes(h, "pub", &v->publen);
    v->msg = xmss_vec_bytes(h, "msg", &v->msglen);
    v->sig = xmss_vec_bytes(h, "sig", &v->siglen);
    v->seed = xmss_vec_bytes(h, "seed", &v->seedlen);
    v->I = xmss_vec_bytes(h, "I", &v->Ilen);
    xmss_vec_free(h);
    CU_ASSERT_PTR_NOT_NULL(v->pub);
    CU_ASSERT_PTR_NOT_NULL(v->msg);
    CU_ASSERT_PTR_NOT_NULL(v->sig);
    return v->pub && v->msg && v->sig;
}

static void vec_free(lms_vec *v)
{
    free(v->pub);
    free(v->msg);
    free(v->sig);
    free(v->seed);
    free(v->I);
}

/* Every refusal of a signature that is not the right one: wrong message,
 * one flipped bit at spread positions, truncated, extended. */
static void refuses_tampering(const uint8_t *pub, size_t publen, const uint8_t *msg,
                              size_t msglen, const uint8_t *sig, size_t siglen)
{
    uint8_t *s = malloc(siglen + 64), *m = malloc(msglen + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    memcpy(m, msg, msglen);
    m[0] ^= 1;
    CU_ASSERT_EQUAL(hss_verify(pub, publen, m, msglen, sig, siglen), FASTSIG_ERR_VERIFY);
    CU_ASSERT_NOT_EQUAL(hss_verify(pub, publen, msg, msglen ? msglen - 1 : 0, sig, siglen),
                        FASTSIG_OK);
    for (size_t at = 0; at < siglen; at += 1 + siglen / 97) {
        memcpy(s, sig, siglen);
        s[at] ^= 0x10;
        CU_ASSERT_NOT_EQUAL(hss_verify(pub, publen, msg, msglen, s, siglen), FASTSIG_OK);
    }
    memcpy(s, sig, siglen);
    for (size_t cut = 1; cut < 64 && cut <= siglen; cut += 7)
        CU_ASSERT_EQUAL(hss_verify(pub, publen, msg, msglen, s, siglen - cut),
                        FASTSIG_ERR_BAD_SIGNATURE);
    CU_ASSERT_EQUAL(hss_verify(pub, publen, msg, msglen, s, 0), FASTSIG_ERR_BAD_SIGNATURE);
    memset(s + siglen, 0, 64);
    CU_ASSERT_EQUAL(hss_verify(pub, publen, msg, msglen, s, siglen + 1), FASTSIG_ERR_BAD_SIGNATURE);
    CU_ASSERT_EQUAL(hss_verify(pub, publen, msg, msglen, s, siglen + 64),
                    FASTSIG_ERR_BAD_SIGNATURE);
    CU_ASSERT_EQUAL(hss_verify(pub, publen - 1, msg, msglen, s, siglen), FASTSIG_ERR_BAD_KEY);
    free(s);
    free(m);
}

static void test_vectors_verify(void)
{
    for (size_t i = 0; i < NVEC; i++) {
        lms_vec v;
        if (!vec_load(vec_files[i], &v)) {
            vec_free(&v);
            continue;
        }
        int rc = hss_verify(v.pub, v.publen, v.msg, v.msglen, v.sig, v.siglen);
        if (rc != FASTSIG_OK)
            fprintf(stderr, "%s: verify returned %d\n", vec_files[i], rc);
        CU_ASSERT_EQUAL(rc, FASTSIG_OK);
        refuses_tampering(v.pub, v.publen, v.msg, v.msglen, v.sig, v.siglen);
        /* the level count of the key and of the signature must agree */
        uint8_t *pub = malloc(v.publen);
        memcpy(pub, v.pub, v.publen);
        for (uint8_t L = 1; L <= 3; L++) {
            pub[3] = L;
            CU_ASSERT_EQUAL(hss_verify(pub, v.publen, v.msg, v.msglen, v.sig, v.siglen),
                            L == v.pub[3] ? FASTSIG_OK : FASTSIG_ERR_BAD_SIGNATURE);
        }
        free(pub);
        /* an L = 1 vector is also a plain LMS key and signature */
        if (v.pub[3] == 1)
            CU_ASSERT_EQUAL(lms_verify(v.pub + 4, v.publen - 4, v.msg, v.msglen, v.sig + 4,
                                       v.siglen - 4),
                            FASTSIG_OK);
        vec_free(&v);
    }
}

/* The published top trees from their SEED and I: our key generation gives
 * the same public key (RFC 8554 test case 2's top tree, H10 W4; the three
 * H5 W8 sets). */
static void test_vectors_keygen(void)
{
    size_t reproduced = 0;
    for (size_t i = 0; i < NVEC; i++) {
        lms_vec v;
        if (!vec_load(vec_files[i], &v) || v.seed == NULL) {
            vec_free(&v);
            continue;
        }
        lms_params lp;
        lmots_params op;
        CU_ASSERT_EQUAL_FATAL(lms_params_get(&lp, fs_load_be32(v.pub + 4)), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(lmots_params_get(&op, fs_load_be32(v.pub + 8)), FASTSIG_OK);
        CU_ASSERT_EQUAL(v.seedlen, lp.m);
        CU_ASSERT_EQUAL(v.Ilen, 16);
        hss_key *k = NULL;
        CU_ASSERT_EQUAL_FATAL(hss_key_gen(&k, 1, &lp, &op, v.seed, v.I, NULL, NULL), FASTSIG_OK);
        uint8_t pub[64];
        hss_pub(k, pub);
        CU_ASSERT_EQUAL(hss_pub_bytes(k), v.publen);
        CU_ASSERT(memcmp(pub + 4, v.pub + 4, v.publen - 4) == 0);
        hss_key_free(k);
        /* the top tree's signature, randomizer included: at its q, of the
         * message (L = 1) or of the next level's public key (L = 2) */
        lms_tree *t = NULL;
        size_t sl = lms_sig_bytes(&lp, &op), pl = v.pub[3] == 1 ? 0 : lms_pub_bytes(&lp);
        CU_ASSERT_EQUAL_FATAL(lms_tree_gen(&t, &lp, &op, v.I, v.seed, NULL, NULL), FASTSIG_OK);
        CU_ASSERT_FATAL(v.siglen >= 4 + sl + pl);
        uint8_t *sig = malloc(sl);
        const uint8_t *m = pl ? v.sig + 4 + sl : v.msg;
        size_t mlen = pl ? pl : v.msglen; /* every level has the same m */
        CU_ASSERT_EQUAL(lms_tree_sign(t, fs_load_be32(v.sig + 4), m, mlen, sig), FASTSIG_OK);
        if (memcmp(sig, v.sig + 4, sl) != 0)
            fprintf(stderr, "%s: top signature differs\n", vec_files[i]);
        else
            reproduced++;
        free(sig);
        lms_tree_free(t);
        vec_free(&v);
    }
    CU_ASSERT_EQUAL(reproduced, 4);
}

/* ---- round trips ------------------------------------------------------------ */

/* Signs at 0, 1, the middle and the last index (and one more), verifies,
 * checks tampering is refused. */
static void round_trip_hss(unsigned L, const lms_params *lp, const lmots_params *op)
{
    uint8_t seed[32], I[16], pub[64], msg[100];
    fs_test_random(seed, sizeof(seed));
    fs_test_random(I, sizeof(I));
    fs_test_random(msg, sizeof(msg));
    hss_key *k = NULL;
    CU_ASSERT_EQUAL_FATAL(hss_key_gen(&k, L, lp, op, seed, I, NULL, NULL), FASTSIG_OK);
    hss_pub(k, pub);
    size_t siglen = hss_sig_bytes(k);
    uint8_t *sig = malloc(siglen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
    unsigned H = hss_total_height(k);
    uint64_t last = H >= 64 ? UINT64_MAX : ((uint64_t)1 << H) - 1;
    uint64_t idx[] = { 0, 1, last / 2 + 1, last - 1, last };
    for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
        msg[0] = (uint8_t)i;
        CU_ASSERT_EQUAL_FATAL(hss_sign(k, idx[i], msg, sizeof(msg), sig), FASTSIG_OK);
        int rc = hss_verify(pub, hss_pub_bytes(k), msg, sizeof(msg), sig, siglen);
        if (rc != FASTSIG_OK)
            fprintf(stderr, "L=%u %s/%s idx %llu: %d\n", L, lp[0].name, op[0].name,
                    (unsigned long long)idx[i], rc);
        CU_ASSERT_EQUAL(rc, FASTSIG_OK);
        if (i == 2)
            refuses_tampering(pub, hss_pub_bytes(k), msg, sizeof(msg), sig, siglen);
    }
    if (H < 64)
        CU_ASSERT_EQUAL(hss_sign(k, last + 1, msg, sizeof(msg), sig), FASTSIG_ERR_BAD_PARAM);
    free(sig);
    hss_key_free(k);
}

/* Every LM-OTS set at h = 5; every family at h = 10 (W4); h = 15 and 20
 * under FASTSIG_SOAK=1. h = 25 (2^25 leaves, about 36G compressions at W4)
 * has no round trip: its code paths are those of h = 20 (bottom subtrees
 * under a 15-level top). */
static void test_round_trip_lms(void)
{
    lmots_params op;
    lms_params lp;
    for (size_t i = 0; i < lms_params_count(); i++) {
        lms_params_at(&lp, i);
        if ((lp.h > 10 && !soak()) || lp.h > 20)
            continue;
        for (size_t j = 0; j < lmots_params_count(); j++) {
            lmots_params_at(&op, j);
            if (!lms_pair_ok(&lp, &op) || (lp.h > 5 && op.w != 4))
                continue;
            round_trip_hss(1, &lp, &op);
        }
    }
}

/* The bottom-subtree cache (used from h = 16 on) on small trees: the same
 * signatures as a tree that keeps every level. */
static void test_bottom_cache(void)
{
    lms_params lp;
    lmots_params op;
    lms_params_by_name(&lp, "LMS_SHA256_M32_H10");
    lmots_params_by_name(&op, "LMOTS_SHA256_N32_W2");
    uint8_t seed[32], I[16], msg[10] = "abc", pa[56], pb[56];
    fs_test_random(seed, sizeof(seed));
    fs_test_random(I, sizeof(I));
    size_t sl = lms_sig_bytes(&lp, &op);
    uint8_t *sa = malloc(sl), *sb = malloc(sl);
    for (unsigned top = 0; top <= 10; top += 3) {
        lms_tree *a = NULL, *b = NULL;
        CU_ASSERT_EQUAL_FATAL(lms_tree_gen(&a, &lp, &op, I, seed, NULL, NULL), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(lms_tree_gen_top(&b, &lp, &op, I, seed, top, 1 + top / 3 % 3, NULL, NULL),
                              FASTSIG_OK);
        lms_tree_pub(a, pa);
        lms_tree_pub(b, pb);
        CU_ASSERT(memcmp(pa, pb, sizeof(pa)) == 0);
        static const uint32_t qs[] = { 0, 1023, 5, 6, 900, 17, 1022 };
        for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
            CU_ASSERT_EQUAL(lms_tree_sign(a, qs[i], msg, sizeof(msg), sa), FASTSIG_OK);
            CU_ASSERT_EQUAL(lms_tree_sign(b, qs[i], msg, sizeof(msg), sb), FASTSIG_OK);
            CU_ASSERT(memcmp(sa, sb, sl) == 0);
            CU_ASSERT_EQUAL(lms_verify(pb, sizeof(pb), msg, sizeof(msg), sb, sl), FASTSIG_OK);
        }
        CU_ASSERT_EQUAL(lms_tree_sign(b, 1024, msg, sizeof(msg), sb), FASTSIG_ERR_BAD_PARAM);
        lms_tree_free(a);
        lms_tree_free(b);
    }
    free(sa);
    free(sb);
}

struct progress {
    uint64_t calls, last, total, stop_at;
};

static int count_progress(void *arg, uint64_t done, uint64_t total)
{
    struct progress *p = arg;
    CU_ASSERT(done > p->last && done <= total);
    p->calls++;
    p->last = done;
    p->total = total;
    return p->stop_at != 0 && done >= p->stop_at;
}

/* Key generation on 1, 2 and 3 threads: the same public key; progress
 * reported up to the last leaf; a stop request honoured. */
static void test_progress_threads(void)
{
    lms_params lp;
    lmots_params op;
    lms_params_by_name(&lp, "LMS_SHA256_M32_H10");
    lmots_params_by_name(&op, "LMOTS_SHA256_N32_W1");
    uint8_t seed[32] = { 5 }, I[16] = { 6 }, pub1[56], pub[56];
    static const unsigned tops[] = { 3, 15 }; /* bottom subtrees of 128 leaves; none */
    for (size_t ti = 0; ti < 2; ti++)
        for (unsigned threads = 1; threads <= 3; threads++) {
            struct progress p = { 0, 0, 0, 0 };
            lms_tree *t = NULL;
            CU_ASSERT_EQUAL_FATAL(lms_tree_gen_top(&t, &lp, &op, I, seed, tops[ti], threads,
                                                   count_progress, &p),
                                  FASTSIG_OK);
            lms_tree_pub(t, threads == 1 ? pub1 : pub);
            if (threads > 1)
                CU_ASSERT(memcmp(pub, pub1, sizeof(pub)) == 0);
            /* only the caller's share reports (the others may be done first) */
            CU_ASSERT(p.calls >= (threads == 1 ? 4u : 1u));
            CU_ASSERT_EQUAL(p.last, 1024);
            CU_ASSERT_EQUAL(p.total, 1024);
            lms_tree_free(t);
            struct progress q = { 0, 0, 0, 300 };
            t = (lms_tree *)1;
            CU_ASSERT_EQUAL(lms_tree_gen_top(&t, &lp, &op, I, seed, tops[ti], threads,
                                             count_progress, &q),
                            FASTSIG_ERR_INTERNAL);
            CU_ASSERT_PTR_NULL(t);
            if (threads == 1)
                CU_ASSERT(q.last < 1024);
        }
}

static void test_round_trip_hss(void)
{
    lms_params lp[8];
    lmots_params op[8];
    /* L = 2, H10/H10 W4 (the benchmark shape, at reduced first level) */
    lms_params_by_name(&lp[0], "LMS_SHA256_M32_H5");
    lms_params_by_name(&lp[1], "LMS_SHA256_M32_H10");
    lmots_params_by_name(&op[0], "LMOTS_SHA256_N32_W8");
    lmots_params_by_name(&op[1], "LMOTS_SHA256_N32_W4");
    round_trip_hss(2, lp, op);
    /* L = 3 and L = 8 with h = 5 levels, every family */
    static const char *const fam[][2] = {
        { "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W4" },
        { "LMS_SHA256_M24_H5", "LMOTS_SHA256_N24_W4" },
        { "LMS_SHAKE_M32_H5", "LMOTS_SHAKE_N32_W4" },
        { "LMS_SHAKE_M24_H5", "LMOTS_SHAKE_N24_W2" },
    };
    for (size_t f = 0; f < 4; f++) {
        for (unsigned i = 0; i < 8; i++) {
            lms_params_by_name(&lp[i], fam[f][0]);
            lmots_params_by_name(&op[i], fam[f][1]);
        }
        round_trip_hss(3, lp, op);
        if (f == 0 || soak())
            round_trip_hss(8, lp, op);
    }
}

/* A leaf index past the tree, and a signature whose LM-OTS type is not
 * the key's (sized for its own type, so a reader trusting the key's type
 * would run past its end): refused as malformed. */
static void test_lms_refuses(void)
{
    lms_params lp;
    lmots_params op, op8;
    lms_params_by_name(&lp, "LMS_SHA256_M32_H5");
    lmots_params_by_name(&op, "LMOTS_SHA256_N32_W4");
    lmots_params_by_name(&op8, "LMOTS_SHA256_N32_W8");
    uint8_t seed[32] = { 3 }, I[16] = { 4 }, pub[56], msg[3] = "abc";
    lms_tree *t = NULL;
    CU_ASSERT_EQUAL_FATAL(lms_tree_gen(&t, &lp, &op, I, seed, NULL, NULL), FASTSIG_OK);
    lms_tree_pub(t, pub);
    size_t sl = lms_sig_bytes(&lp, &op), sl8 = lms_sig_bytes(&lp, &op8);
    uint8_t *sig = malloc(sl), *sig8 = malloc(sl8);
    CU_ASSERT_EQUAL_FATAL(lms_tree_sign(t, 7, msg, sizeof(msg), sig), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_verify(pub, sizeof(pub), msg, sizeof(msg), sig, sl), FASTSIG_OK);
    fs_store_be32(sig, 7 + 32);
    CU_ASSERT_EQUAL(lms_verify(pub, sizeof(pub), msg, sizeof(msg), sig, sl),
                    FASTSIG_ERR_BAD_SIGNATURE);
    fs_test_random(sig8, sl8);
    fs_store_be32(sig8, 0);
    fs_store_be32(sig8 + 4, op8.type);
    fs_store_be32(sig8 + 4 + lmots_sig_bytes(&op8), lp.type);
    CU_ASSERT_EQUAL(lms_verify(pub, sizeof(pub), msg, sizeof(msg), sig8, sl8),
                    FASTSIG_ERR_BAD_SIGNATURE);
    free(sig);
    free(sig8);
    lms_tree_free(t);
}

/* Signing in order (lower trees prepared a share per signature) gives the
 * same bytes as signing the same indices out of order (each new tree built
 * when first needed), across many lower-tree boundaries. */
static void sequence_matches(unsigned L, const char *lms, const char *ots, uint64_t from,
                             uint64_t to)
{
    lms_params lp[3];
    lmots_params op[3];
    for (unsigned i = 0; i < L; i++) {
        lms_params_by_name(&lp[i], lms);
        lmots_params_by_name(&op[i], ots);
    }
    uint8_t seed[32], I[16], pub[64], msg[8] = "in order";
    fs_test_random(seed, sizeof(seed));
    fs_test_random(I, sizeof(I));
    hss_key *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL_FATAL(hss_key_gen(&a, L, lp, op, seed, I, NULL, NULL), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(hss_key_gen(&b, L, lp, op, seed, I, NULL, NULL), FASTSIG_OK);
    hss_pub(a, pub);
    size_t sl = hss_sig_bytes(a), n = (size_t)(to - from);
    uint8_t *sigs = malloc(n * sl), *sb = malloc(sl);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sigs);
    for (uint64_t g = from; g < to; g++)
        CU_ASSERT_EQUAL_FATAL(hss_sign(a, g, msg, sizeof(msg), sigs + (g - from) * sl),
                              FASTSIG_OK);
    size_t bad = 0;
    for (size_t c = 0; c < n; c++) {
        size_t at = (size_t)(fs_test_rand64() % n);
        if (c % 7 == 0)
            at = n - 1 - c; /* also backwards */
        CU_ASSERT_EQUAL(hss_sign(b, from + at, msg, sizeof(msg), sb), FASTSIG_OK);
        bad += memcmp(sb, sigs + at * sl, sl) != 0;
        if (c % 16 == 0)
            CU_ASSERT_EQUAL(hss_verify(pub, hss_pub_bytes(a), msg, sizeof(msg), sigs + at * sl, sl),
                            FASTSIG_OK);
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(sigs);
    free(sb);
    hss_key_free(a);
    hss_key_free(b);
}

static void test_hss_prepared_trees(void)
{
    sequence_matches(2, "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W2", 0, 1024);
    sequence_matches(3, "LMS_SHAKE_M24_H5", "LMOTS_SHAKE_N24_W4", 1000, 2100);
}

static void test_hss_refuses(void)
{
    lms_params lp[9];
    lmots_params op[9];
    uint8_t seed[32] = { 1 }, I[16] = { 2 };
    hss_key *k = (hss_key *)1;
    for (unsigned i = 0; i < 9; i++) {
        lms_params_by_name(&lp[i], "LMS_SHA256_M32_H5");
        lmots_params_by_name(&op[i], "LMOTS_SHA256_N32_W8");
    }
    CU_ASSERT_EQUAL(hss_key_gen(&k, 0, lp, op, seed, I, NULL, NULL), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_PTR_NULL(k);
    CU_ASSERT_EQUAL(hss_key_gen(&k, 9, lp, op, seed, I, NULL, NULL), FASTSIG_ERR_UNSUPPORTED);
    lms_params_by_name(&lp[1], "LMS_SHAKE_M32_H5"); /* another family below */
    lmots_params_by_name(&op[1], "LMOTS_SHAKE_N32_W8");
    CU_ASSERT_EQUAL(hss_key_gen(&k, 2, lp, op, seed, I, NULL, NULL), FASTSIG_ERR_UNSUPPORTED);
    lmots_params_by_name(&op[0], "LMOTS_SHA256_N24_W8"); /* tree and OTS differ */
    CU_ASSERT_EQUAL(hss_key_gen(&k, 1, lp, op, seed, I, NULL, NULL), FASTSIG_ERR_UNSUPPORTED);
    /* garbage of every length: refused, never a crash */
    uint8_t junk[400], pub[60];
    fs_test_random(junk, sizeof(junk));
    fs_test_random(pub, sizeof(pub));
    for (size_t len = 0; len < sizeof(junk); len++)
        CU_ASSERT_NOT_EQUAL(hss_verify(pub, sizeof(pub), junk, 3, junk, len), FASTSIG_OK);
    junk[0] = junk[1] = junk[2] = 0;
    junk[3] = 1;
    pub[0] = pub[1] = pub[2] = 0;
    pub[3] = 2;
    for (size_t len = 0; len < sizeof(junk); len++)
        CU_ASSERT_NOT_EQUAL(hss_verify(pub, sizeof(pub), junk, 3, junk, len), FASTSIG_OK);
}

static const fs_test tests[] = {
    { "parameter table", test_table },
    { "laned chains == one-at-a-time walk", test_chains_laned },
    { "streamed message hash", test_msg_hash },
    { "published signatures verify", test_vectors_verify },
    { "published public keys from their seeds", test_vectors_keygen },
    { "LMS round trips (every set)", test_round_trip_lms },
    { "bottom-subtree cache", test_bottom_cache },
    { "keygen on threads, progress and stop", test_progress_threads },
    { "HSS round trips (L = 2, 3, 8)", test_round_trip_hss },
    { "HSS lower trees prepared in order == built on demand", test_hss_prepared_trees },
    { "LMS refuses an index past the tree, a foreign OTS type", test_lms_refuses },
    { "HSS refuses bad sets and garbage", test_hss_refuses },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("lms", tests);
}
