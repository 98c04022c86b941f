/* test_hss_resume.c - HSS key generation in pieces (hss_key_gen_resume,
 * hss_resume.c): a generation stopped by its save after k pieces and run
 * again from the nodes saved gives the key an uninterrupted hss_key_gen_mt
 * makes, byte for byte, on any thread count; a whole row (killed while
 * the lower levels were built) resumes too; the pieces and the plan of each
 * top height; bad resumes refused. FASTSIG_SOAK=1 adds H20 (a row above the
 * leaves: level 5). */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "stateful_kinds.h"
#include "lms/lms_params.h"
#include "lms/hss.h"
#include "state/genckpt.h"

static int soak(void)
{
    const char *s = getenv("FASTSIG_SOAK");
    return s != NULL && s[0] != '\0' && s[0] != '0';
}

/* What save was handed: the nodes of the pieces done, and when to stop. */
typedef struct {
    uint8_t *nodes;
    size_t piece_bytes;
    uint64_t done, stop_at, calls;
} saved;

static int save(void *arg, const uint8_t *nodes, uint64_t done, uint64_t total)
{
    saved *s = arg;
    (void)total;
    s->calls++;
    memcpy(s->nodes, nodes, (size_t)done * s->piece_bytes);
    s->done = done;
    return done == s->stop_at; /* nonzero: stop, as a kill would */
}

static void levels(unsigned L, const char *const *names, lms_params *lp, lmots_params *op)
{
    for (unsigned i = 0; i < L; i++) {
        CU_ASSERT_EQUAL_FATAL(lms_params_by_name(&lp[i], names[2 * i]), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(lmots_params_by_name(&op[i], names[2 * i + 1]), FASTSIG_OK);
    }
}

/* L levels: stopped after stop pieces on t1 threads, resumed on t2; the
 * public key and a signature equal the uninterrupted key's. */
static void resume_row(unsigned L, const char *const *names, uint64_t stop, unsigned t1,
                       unsigned t2)
{
    lms_params lp[2];
    lmots_params op[2];
    uint8_t seed[32], I[16], pa[64], pb[64], msg[6] = "resume";
    hss_key *a = NULL, *b = NULL;
    uint32_t per = 0;
    levels(L, names, lp, op);
    uint64_t total = hss_keygen_pieces(&lp[0], &per);
    CU_ASSERT_FATAL(total > 0 && stop <= total);
    fs_test_random(seed, sizeof(seed));
    fs_test_random(I, sizeof(I));
    saved s = { malloc((size_t)total * per * lp[0].m), (size_t)per * lp[0].m, 0, stop, 0 };
    CU_ASSERT_PTR_NOT_NULL_FATAL(s.nodes);
    fs_keygen_resume r = { NULL, 0, save, &s };
    int rc = hss_key_gen_resume(&b, L, lp, op, seed, I, t1, &r, NULL, NULL);
    /* stopped by its save (at the last piece: as a kill while the lower levels are built) */
    CU_ASSERT_EQUAL(rc, FASTSIG_ERR_INTERNAL);
    CU_ASSERT_EQUAL(s.done, stop);
    hss_key_free(b);
    b = NULL;
    r = (fs_keygen_resume){ s.nodes, stop, save, &s };
    s.stop_at = 0;
    s.calls = 0;
    CU_ASSERT_EQUAL_FATAL(hss_key_gen_resume(&b, L, lp, op, seed, I, t2, &r, NULL, NULL),
                          FASTSIG_OK);
    /* the pieces loaded are not built again (the last one always is) */
    CU_ASSERT_EQUAL(s.calls, stop < total ? total - stop : 1);
    CU_ASSERT_EQUAL_FATAL(hss_key_gen_mt(&a, L, lp, op, seed, I, 2, NULL, NULL), FASTSIG_OK);
    hss_pub(a, pa);
    hss_pub(b, pb);
    CU_ASSERT_EQUAL(memcmp(pa, pb, hss_pub_bytes(a)), 0);
    size_t sl = hss_sig_bytes(a);
    uint8_t *sa = malloc(sl), *sb = malloc(sl);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sa);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
    uint64_t at = ((uint64_t)1 << (lp[0].h + (L > 1 ? lp[1].h : 0))) - 1; /* the last index */
    CU_ASSERT_EQUAL(hss_sign(a, 0, msg, sizeof(msg), sa), FASTSIG_OK);
    CU_ASSERT_EQUAL(hss_sign(b, 0, msg, sizeof(msg), sb), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(sa, sb, sl), 0);
    CU_ASSERT_EQUAL(hss_sign(a, at, msg, sizeof(msg), sa), FASTSIG_OK);
    CU_ASSERT_EQUAL(hss_sign(b, at, msg, sizeof(msg), sb), FASTSIG_OK);
    CU_ASSERT_EQUAL(memcmp(sa, sb, sl), 0);
    free(sa);
    free(sb);
    free(s.nodes);
    hss_key_free(a);
    hss_key_free(b);
}

static const char *const H15[] = { "LMS_SHA256_M32_H15", "LMOTS_SHA256_N32_W1" };
static const char *const H15_H5[] = { "LMS_SHAKE_M24_H15", "LMOTS_SHAKE_N24_W1",
                                      "LMS_SHAKE_M24_H5", "LMOTS_SHAKE_N24_W2" };

static void test_resumed_key_is_the_key(void)
{
    resume_row(1, H15, 5, 2, 1);      /* 5 of 32 pieces */
    resume_row(1, H15, 1, 1, 3);      /* the first piece only */
    resume_row(2, H15_H5, 31, 3, 2);  /* all but the last */
    resume_row(2, H15_H5, 32, 2, 2);  /* every piece: stopped in the lower level */
    if (soak()) {
        static const char *const H20[] = { "LMS_SHA256_M32_H20", "LMOTS_SHA256_N32_W1" };
        resume_row(1, H20, 700, 2, 2);
    }
}

/* Pieces: 2^10 leaves, 2^15 for H25 (at most 1024 pieces); per: the nodes
 * of the tree's kept row (level max(0, h - 15)) a piece holds. */
static void test_pieces(void)
{
    static const struct { const char *name; uint64_t total; uint32_t per; } rows[] = {
        { "LMS_SHA256_M32_H5", 0, 0 },   { "LMS_SHA256_M32_H10", 0, 0 },
        { "LMS_SHA256_M32_H15", 32, 1024 }, { "LMS_SHA256_M32_H20", 1024, 32 },
        { "LMS_SHA256_M32_H25", 1024, 32 },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        lms_params lp;
        uint32_t per = 0;
        CU_ASSERT_EQUAL_FATAL(lms_params_by_name(&lp, rows[i].name), FASTSIG_OK);
        CU_ASSERT_EQUAL(hss_keygen_pieces(&lp, &per), rows[i].total);
        CU_ASSERT_EQUAL(per, rows[i].per);
    }
}

/* The plan binds the levels: another lower level is another plan; a top
 * H10 has none. */
static void test_plan(void)
{
    lms_params lp[2];
    lmots_params op[2];
    fs_resume_plan a, b;
    unsigned bad;
    const char *why;
    void *c1 = NULL, *c2 = NULL;
    levels(2, H15_H5, lp, op);
    CU_ASSERT_EQUAL_FATAL(fs_stateful_hss_new(1, lp, op, &bad, &why, &c1), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(fs_stateful_hss_new(2, lp, op, &bad, &why, &c2), FASTSIG_OK);
    CU_ASSERT_EQUAL(fs_stateful_hss_resume_plan(c1, &a), FASTSIG_OK);
    CU_ASSERT_EQUAL(fs_stateful_hss_resume_plan(c2, &b), FASTSIG_OK);
    CU_ASSERT_EQUAL(a.kind, FS_RESUME_KIND_HSS);
    CU_ASSERT_EQUAL(a.seedlen, 24 + 16);
    CU_ASSERT_EQUAL(a.setlen, 8);
    CU_ASSERT_EQUAL(b.setlen, 16);
    CU_ASSERT_EQUAL(a.total, b.total);
    CU_ASSERT_EQUAL(memcmp(a.set, b.set, 8), 0); /* the top level alike, the plans not */
    CU_ASSERT_FALSE(fs_genckpt_plan_same(&a, &b));
    fs_stateful_hss.free(c1);
    fs_stateful_hss.free(c2);
    levels(1, (const char *const[]){ "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W1" }, lp, op);
    CU_ASSERT_EQUAL_FATAL(fs_stateful_hss_new(1, lp, op, &bad, &why, &c1), FASTSIG_OK);
    CU_ASSERT_EQUAL(fs_stateful_hss_resume_plan(c1, &a), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(a.total, 0);
    fs_stateful_hss.free(c1);
}

/* More pieces than the tree has, or pieces without their nodes, refused;
 * a top H10 has no pieces. */
static void test_bad_resume(void)
{
    lms_params lp[1];
    lmots_params op[1];
    uint8_t seed[32] = { 1 }, I[16] = { 2 }, nodes[32] = { 0 };
    hss_key *k = NULL;
    levels(1, H15, lp, op);
    fs_keygen_resume r = { nodes, 33, NULL, NULL };
    CU_ASSERT_EQUAL(hss_key_gen_resume(&k, 1, lp, op, seed, I, 1, &r, NULL, NULL),
                    FASTSIG_ERR_BAD_PARAM);
    r = (fs_keygen_resume){ NULL, 3, NULL, NULL };
    CU_ASSERT_EQUAL(hss_key_gen_resume(&k, 1, lp, op, seed, I, 1, &r, NULL, NULL),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(hss_key_gen_resume(&k, 1, lp, op, seed, I, 1, NULL, NULL, NULL),
                    FASTSIG_ERR_NULL_ARG);
    levels(1, (const char *const[]){ "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W1" }, lp, op);
    r = (fs_keygen_resume){ NULL, 0, NULL, NULL };
    CU_ASSERT_EQUAL(hss_key_gen_resume(&k, 1, lp, op, seed, I, 1, &r, NULL, NULL),
                    FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_PTR_NULL(k);
}

static const fs_test tests[] = {
    { "a resumed key is the uninterrupted key, on any threads", test_resumed_key_is_the_key },
    { "pieces and nodes per piece of each top height", test_pieces },
    { "the plan binds every level; a top H10 has none", test_plan },
    { "bad resumes refused", test_bad_resume },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("hss_resume", tests);
}
