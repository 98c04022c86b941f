/* test_hss_cache.c - the HSS node cache bytes (hss_cache.h) and the tree
 * node access under them (lms_tree_nodes / load / check): a reloaded key
 * signs the same bytes as a fresh one without rebuilding its trees, a cache
 * from an older index is still right, and every truncated, extended,
 * edited, foreign or damaged-tag cache is refused (edits also with a
 * recomputed tag, so the range and tree checks behind the tag are held).
 * FASTSIG_SOAK=1 adds a key with a tall (h = 20) bottom tree. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "lms/lms_tree.h"
#include "lms/hss.h"
#include "lms/hss_cache.h"

static int soak(void)
{
    const char *v = getenv("FASTSIG_SOAK");
    return v != NULL && strcmp(v, "1") == 0;
}

typedef struct {
    unsigned L;
    lms_params lp[3];
    lmots_params op[3];
    uint8_t seed[32], I[16], pub[60];
} shape;

static void shape_init(shape *s, unsigned L, const char *const *lms, const char *const *ots)
{
    s->L = L;
    for (unsigned i = 0; i < L; i++) {
        CU_ASSERT_EQUAL_FATAL(lms_params_by_name(&s->lp[i], lms[i]), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(lmots_params_by_name(&s->op[i], ots[i]), FASTSIG_OK);
    }
    fs_test_random(s->seed, sizeof(s->seed));
    fs_test_random(s->I, sizeof(s->I));
}

static hss_key *fresh(shape *s)
{
    hss_key *k = NULL;
    CU_ASSERT_EQUAL_FATAL(hss_key_gen(&k, s->L, s->lp, s->op, s->seed, s->I, NULL, NULL),
                          FASTSIG_OK);
    hss_pub(k, s->pub);
    return k;
}

static int import(const shape *s, const uint8_t *c, size_t len, hss_key **k)
{
    return hss_cache_import(k, s->L, s->lp, s->op, s->seed, s->I, s->pub, 1, c, len);
}

/* Edited bytes sealed with the key's tag (hss_cache_seal). */
static void retag(const shape *s, uint8_t *c, size_t len)
{
    CU_ASSERT_EQUAL_FATAL(hss_cache_seal(&s->lp[0], s->seed, s->I, c, len), FASTSIG_OK);
}

/* Signatures at g .. g+count-1 from a and b are byte for byte the same. */
static void same_sigs(hss_key *a, hss_key *b, uint64_t g, unsigned count)
{
    size_t sl = hss_sig_bytes(a);
    uint8_t *sa = malloc(sl), *sb = malloc(sl), msg[5] = "cache";
    CU_ASSERT_PTR_NOT_NULL_FATAL(sa);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
    size_t bad = 0;
    for (uint64_t x = g; x < g + count; x++) {
        CU_ASSERT_EQUAL_FATAL(hss_sign(a, x, msg, sizeof(msg), sa), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(hss_sign(b, x, msg, sizeof(msg), sb), FASTSIG_OK);
        bad += memcmp(sa, sb, sl) != 0;
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(sa);
    free(sb);
}

static const char *const sha_lms[] = { "LMS_SHA256_M32_H5", "LMS_SHA256_M32_H10" };
static const char *const sha_ots[] = { "LMOTS_SHA256_N32_W8", "LMOTS_SHA256_N32_W2" };
static const char *const shk_lms[] = { "LMS_SHAKE_M24_H5", "LMS_SHAKE_M24_H5",
                                       "LMS_SHAKE_M24_H5" };
static const char *const shk_ots[] = { "LMOTS_SHAKE_N24_W4", "LMOTS_SHAKE_N24_W4",
                                       "LMOTS_SHAKE_N24_W4" };

/* Export after signing into the key, import: the same signatures as the
 * key and as a fresh key from the seed, with a few leaves of work instead
 * of the trees (the leaf counter of lms_tree.c), and the same stamp. */
static void round_trip(unsigned L, const char *const *lms, const char *const *ots, uint64_t g)
{
    shape s;
    shape_init(&s, L, lms, ots);
    hss_key *a = fresh(&s), *b = NULL, *c = fresh(&s);
    uint8_t msg[1] = { 0 }, *buf = NULL;
    uint8_t *sig = malloc(hss_sig_bytes(a));
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(hss_sign(a, g, msg, 1, sig), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(hss_cache_export(a, &buf, &len), FASTSIG_OK);
    uint64_t before = lms_leaves_computed();
    CU_ASSERT_EQUAL_FATAL(import(&s, buf, len, &b), FASTSIG_OK);
    CU_ASSERT_EQUAL(hss_cache_stamp(b), hss_cache_stamp(a));
    CU_ASSERT_EQUAL(hss_sign(b, g + 1, msg, 1, sig), FASTSIG_OK);
    uint64_t work = lms_leaves_computed() - before, bound = 2;
    /* a check of each tree and next tree, the bottom subtree signed in: a
     * leaf each, or a bottom subtree of 2^(h - 15) leaves in a tall tree */
    for (unsigned i = 0; i < L; i++)
        bound += 3u << (s.lp[i].h > 15 ? s.lp[i].h - 15 : 0);
    CU_ASSERT(work <= bound);
    if (work > bound)
        fprintf(stderr, "\nreloaded key computed %llu leaves\n", (unsigned long long)work);
    CU_ASSERT_EQUAL(hss_verify(s.pub, hss_pub_bytes(a), msg, 1, sig, hss_sig_bytes(a)),
                    FASTSIG_OK);
    /* the rest of this tree and across the next lower-tree boundaries */
    same_sigs(a, b, g + 2, 70);
    same_sigs(b, c, g + 72, 40);
    free(buf);
    free(sig);
    hss_key_free(a);
    hss_key_free(b);
    hss_key_free(c);
}

static void test_round_trip(void)
{
    round_trip(2, sha_lms, sha_ots, 0);
    round_trip(2, sha_lms, sha_ots, 1000);      /* next tree half built */
    round_trip(3, shk_lms, shk_ots, 32 * 32 - 3); /* m = 24, near a middle-level switch */
    if (soak()) { /* a tall bottom tree: its nodes above the cut, bottom subtrees recomputed */
        static const char *const tall_lms[] = { "LMS_SHA256_M24_H5", "LMS_SHA256_M24_H20" };
        static const char *const tall_ots[] = { "LMOTS_SHA256_N24_W1", "LMOTS_SHA256_N24_W1" };
        round_trip(2, tall_lms, tall_ots, 5000);
    }
}

/* A cache written at an older index (the state moved on in another
 * process): signing later indices with it gives the fresh key's bytes. */
static void test_older_index(void)
{
    shape s;
    shape_init(&s, 2, sha_lms, sha_ots);
    hss_key *a = fresh(&s), *b = NULL, *c = NULL;
    uint8_t msg[1] = { 0 }, *buf = NULL, *sig = malloc(hss_sig_bytes(a));
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(hss_sign(a, 500, msg, 1, sig), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(hss_cache_export(a, &buf, &len), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(import(&s, buf, len, &b), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(import(&s, buf, len, &c), FASTSIG_OK);
    same_sigs(a, b, 1030, 20); /* the next bottom tree, prepared from an old point */
    hss_key_free(a);
    a = fresh(&s);
    same_sigs(a, c, 5000, 10); /* five bottom trees on: built from the top tree */
    free(buf);
    free(sig);
    hss_key_free(a);
    hss_key_free(b);
    hss_key_free(c);
}

/* Every cut and every extension, and every byte flipped: refused (the tag
 * and the length). The same edits re-tagged are refused by the checks
 * behind the tag. A foreign key's cache and a damaged SEED are refused. */
static void test_refused(void)
{
    shape s, t;
    shape_init(&s, 2, sha_lms, sha_ots);
    hss_key *a = fresh(&s), *b = (hss_key *)1;
    uint8_t msg[1] = { 0 }, *buf = NULL, *sig = malloc(hss_sig_bytes(a));
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(hss_sign(a, 1100, msg, 1, sig), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(hss_cache_export(a, &buf, &len), FASTSIG_OK);
    uint8_t *e = malloc(len + 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    size_t bad = 0;
    for (size_t l = 0; l < len; l++)
        bad += import(&s, buf, l, &b) == FASTSIG_OK;
    memcpy(e, buf, len);
    fs_test_random(e + len, 64);
    for (size_t l = len + 1; l <= len + 64; l++)
        bad += import(&s, e, l, &b) == FASTSIG_OK;
    for (size_t at = 0; at < len; at += 1 + at / 64) {
        e[at] ^= 0x10;
        bad += import(&s, e, len, &b) == FASTSIG_OK;
        e[at] ^= 0x10;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_PTR_NULL(b);

    /* re-tagged edits: where each field is (hss_cache.h) */
    const unsigned m = 32, h0 = 5, h1 = 10;
    const size_t hdr = 6 + 8 * 2 + 4 + 24 + m, lv0 = hdr, nodes0 = ((size_t)2 << h0) - 1;
    const size_t lv1 = lv0 + 17 + nodes0 * m, nodes1 = ((size_t)2 << h1) - 1;
    const size_t sig1 = lv1 + 17 + nodes1 * m, next1 = sig1 + lms_sig_bytes(&s.lp[0], &s.op[0]);
    CU_ASSERT_EQUAL_FATAL(e[lv1], 1); /* level 1 has a next tree */
    static const struct { const char *what; int field; uint8_t x; } edits[] = {
        { "version", 0, 0x02 }, { "level count", 1, 0x03 }, { "lms type", 2, 0x01 },
        { "public key", 3, 0x01 }, { "top has_next", 4, 0x01 }, { "top tree number", 5, 0x01 },
        { "has_next 2", 6, 0x02 }, { "tree number", 7, 0x01 }, { "next built + 1", 8, 0x01 },
        { "top root", 9, 0x01 }, { "bottom leaf 0", 10, 0x01 }, { "parent's signature", 11, 0x01 },
        { "next leaf 0", 12, 0x01 }, { "tree number past parent", 13, 0x40 },
        { "built without a next tree", 14, 0x01 }, { "top has_next 2", 4, 0x02 },
    };
    const size_t where[] = { 4, 5, 6 + 3, hdr - 1, lv0, lv0 + 8, lv1, lv1 + 8, lv1 + 16,
                             lv1 - 1, lv1 + 17, sig1 + 40, next1, lv1 + 6, lv0 + 16 };
    for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
        memcpy(e, buf, len);
        e[where[edits[i].field]] ^= edits[i].x;
        retag(&s, e, len);
        int rc = import(&s, e, len, &b);
        CU_ASSERT_NOT_EQUAL(rc, FASTSIG_OK);
        if (rc == FASTSIG_OK)
            fprintf(stderr, "\nre-tagged edit of %s accepted\n", edits[i].what);
    }
    /* a valid signature of the bottom tree by the top one, at another leaf */
    lms_tree *top = NULL;
    size_t psl = lms_sig_bytes(&s.lp[0], &s.op[0]);
    CU_ASSERT_EQUAL_FATAL(lms_tree_gen(&top, &s.lp[0], &s.op[0], s.I, s.seed, NULL, NULL),
                          FASTSIG_OK);
    memcpy(e, buf, len);
    CU_ASSERT_EQUAL_FATAL(lms_tree_sign(top, 5, sig + 4 + psl, lms_pub_bytes(&s.lp[1]), e + sig1),
                          FASTSIG_OK);
    retag(&s, e, len);
    CU_ASSERT_NOT_EQUAL(import(&s, e, len, &b), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(lms_tree_sign(top, 1, sig + 4 + psl, lms_pub_bytes(&s.lp[1]), e + sig1),
                          FASTSIG_OK);
    retag(&s, e, len);
    CU_ASSERT_EQUAL(import(&s, e, len, &b), FASTSIG_OK); /* the right leaf: the same bytes */
    CU_ASSERT_EQUAL(memcmp(e, buf, len), 0);
    hss_key_free(b);
    b = NULL;
    lms_tree_free(top);
    memcpy(e, buf, len);
    retag(&s, e, len);
    CU_ASSERT_EQUAL(import(&s, e, len, &b), FASTSIG_OK); /* the re-tag is the tag */
    hss_key_free(b);
    b = NULL;
    /* one byte more or less, re-tagged */
    memcpy(e, buf, len);
    e[len] = 0;
    memcpy(e + len - m + 1, buf + len - m, m);
    retag(&s, e, len + 1);
    CU_ASSERT_NOT_EQUAL(import(&s, e, len + 1, &b), FASTSIG_OK);
    retag(&s, e, len - 1);
    CU_ASSERT_NOT_EQUAL(import(&s, e, len - 1, &b), FASTSIG_OK);

    /* another key of the same sets; this key with a damaged SEED or I */
    t = s;
    fs_test_random(t.seed, sizeof(t.seed));
    CU_ASSERT_NOT_EQUAL(import(&t, buf, len, &b), FASTSIG_OK);
    t = s;
    t.seed[7] ^= 4;
    CU_ASSERT_NOT_EQUAL(import(&t, buf, len, &b), FASTSIG_OK);
    t = s;
    t.I[0] ^= 1;
    CU_ASSERT_NOT_EQUAL(import(&t, buf, len, &b), FASTSIG_OK);
    /* the key's stored root damaged (SEED and I right), the cache's header
     * edited to match it: the trees' root is not that public key's */
    t = s;
    t.pub[4 + 24 + m - 1] ^= 1;
    memcpy(e, buf, len);
    e[hdr - 1] ^= 1;
    retag(&t, e, len);
    CU_ASSERT_NOT_EQUAL(import(&t, e, len, &b), FASTSIG_OK);
    CU_ASSERT_PTR_NULL(b);
    free(e);
    free(buf);
    free(sig);
    hss_key_free(a);
}

/* Tree numbers that only the range checks refuse: an L = 1 key's one tree
 * numbered 1, and the last bottom tree of a two-level key numbered as if
 * under another top leaf (same leaf number below it, so the same SEED). */
static void test_tree_numbers(void)
{
    static const char *const one_lms[] = { "LMS_SHA256_M32_H5" };
    static const char *const one_ots[] = { "LMOTS_SHA256_N32_W4" };
    shape s;
    uint8_t msg[1] = { 0 }, *buf = NULL, *sig;
    size_t len = 0;
    hss_key *a, *b = NULL;
    for (int last = 0; last < 2; last++) {
        if (last)
            shape_init(&s, 2, sha_lms, sha_ots);
        else
            shape_init(&s, 1, one_lms, one_ots);
        a = fresh(&s);
        sig = malloc(hss_sig_bytes(a));
        CU_ASSERT_EQUAL_FATAL(hss_sign(a, last ? 31 * 1024 + 5 : 3, msg, 1, sig), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(hss_cache_export(a, &buf, &len), FASTSIG_OK);
        size_t lv0 = 6 + 8 * s.L + 4 + 24 + 32, at = lv0 + 8;
        if (last)
            at = lv0 + 17 + ((2u << 5) - 1) * 32 + 8; /* level 1's tree number: 31 -> 63 */
        CU_ASSERT_EQUAL_FATAL(buf[at], last ? 31 : 0);
        CU_ASSERT_EQUAL(import(&s, buf, len, &b), FASTSIG_OK);
        hss_key_free(b);
        b = NULL;
        buf[at] ^= last ? 0x20 : 0x01;
        retag(&s, buf, len);
        CU_ASSERT_NOT_EQUAL(import(&s, buf, len, &b), FASTSIG_OK);
        hss_key_free(b);
        b = NULL;
        free(buf);
        free(sig);
        hss_key_free(a);
    }
}

/* The node access of a tall tree (a cut below the top levels, here h = 10
 * with 6 levels kept): a complete and a partial tree reload, the check
 * recomputes a bottom subtree, and a wrong node or stop point is refused. */
static void test_tree_nodes(void)
{
    lms_params lp;
    lmots_params op;
    lms_params_by_name(&lp, "LMS_SHA256_M32_H10");
    lmots_params_by_name(&op, "LMOTS_SHA256_N32_W4");
    uint8_t seed[32] = { 9 }, I[16] = { 8 }, msg[2] = "hi";
    lms_tree *t = NULL, *u = NULL, *p = NULL;
    const uint8_t *nodes;
    CU_ASSERT_EQUAL_FATAL(lms_tree_gen_top(&t, &lp, &op, I, seed, 6, 1, NULL, NULL), FASTSIG_OK);
    size_t count = lms_tree_nodes(t, &nodes);
    CU_ASSERT_EQUAL(count, 127);
    CU_ASSERT_EQUAL_FATAL(lms_tree_start(&u, &lp, &op, I, seed, 6), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_load(u, 1024, nodes, count - 1), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL_FATAL(lms_tree_load(u, 1024, nodes, count), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_check(u, 700), FASTSIG_OK);
    size_t sl = lms_sig_bytes(&lp, &op);
    uint8_t *s1 = malloc(sl), *s2 = malloc(sl);
    CU_ASSERT_EQUAL(lms_tree_sign(t, 701, msg, 2, s1), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_sign(u, 701, msg, 2, s2), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(s1, s2, sl), 0);
    uint8_t *bad = malloc(count * 32);
    memcpy(bad, nodes, count * 32);
    bad[(700 >> 4) * 32] ^= 1; /* the row node of leaf 700's bottom subtree */
    CU_ASSERT_EQUAL_FATAL(lms_tree_load(u, 1024, bad, count), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_check(u, 700), FASTSIG_ERR_KEY_MISMATCH);
    memcpy(bad, nodes, count * 32);
    bad[(64 + 20) * 32] ^= 1; /* leaf 700's sibling one level above the row */
    CU_ASSERT_EQUAL_FATAL(lms_tree_load(u, 1024, bad, count), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_check(u, 700), FASTSIG_ERR_KEY_MISMATCH);
    CU_ASSERT_EQUAL(lms_tree_check(u, 1024), FASTSIG_ERR_BAD_PARAM);
    /* partial: 48 leaves built are 3 row nodes; 40 is no stop point */
    CU_ASSERT_EQUAL_FATAL(lms_tree_start(&p, &lp, &op, I, seed, 6), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_nodes_for(p, 48), 3);
    CU_ASSERT_EQUAL(lms_tree_load(p, 40, nodes, 2), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL_FATAL(lms_tree_load(p, 48, nodes, 3), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_check(p, 33), FASTSIG_OK);
    CU_ASSERT_EQUAL(lms_tree_check(p, 48), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(lms_tree_build(p, 1024, 1, NULL, NULL), FASTSIG_OK);
    uint8_t pa[56], pb[56];
    lms_tree_pub(t, pa);
    lms_tree_pub(p, pb);
    CU_ASSERT_EQUAL(memcmp(pa, pb, 56), 0); /* the build went on from the loaded part */
    free(bad);
    free(s1);
    free(s2);
    lms_tree_free(t);
    lms_tree_free(u);
    lms_tree_free(p);
}

/* The stamp moves when a level changes tree, not for every signature. */
static void test_stamp(void)
{
    shape s;
    shape_init(&s, 2, sha_lms, sha_ots);
    hss_key *a = fresh(&s);
    uint8_t msg[1] = { 0 }, *sig = malloc(hss_sig_bytes(a));
    CU_ASSERT_EQUAL_FATAL(hss_sign(a, 100, msg, 1, sig), FASTSIG_OK);
    uint64_t s0 = hss_cache_stamp(a);
    CU_ASSERT_EQUAL_FATAL(hss_sign(a, 101, msg, 1, sig), FASTSIG_OK);
    CU_ASSERT_EQUAL(hss_cache_stamp(a), s0);
    CU_ASSERT_EQUAL_FATAL(hss_sign(a, 1024, msg, 1, sig), FASTSIG_OK);
    CU_ASSERT_NOT_EQUAL(hss_cache_stamp(a), s0);
    free(sig);
    hss_key_free(a);
}

static const fs_test tests[] = {
    { "export, import: the fresh key's signatures, a few leaves of work", test_round_trip },
    { "a cache from an older index", test_older_index },
    { "cut, extended, flipped, re-tagged edits, foreign, damaged SEED: refused",
      test_refused },
    { "tree numbers refused by the range checks alone", test_tree_numbers },
    { "tree nodes of a tall tree: load, check, partial build", test_tree_nodes },
    { "stamp moves with the trees", test_stamp },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("hss_cache", tests);
}
