/* hss_resume.c - HSS key generation in pieces (hss.h: hss_key_gen_resume;
 * keygen_resume.h): the top tree built a piece at a time by the tree's own
 * in-order build (lms_tree_build: whatever the threads, leaves 0 .. upto-1
 * and nothing else), its kept node row handed to save after each piece and
 * loaded back (lms_tree_load) by a later run; and the plan a checkpoint of
 * an HSS key is bound to (fs_stateful_hss_resume_plan). */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "stateful_kinds.h"
#include "lms/hss_key.h"
#include "lms/hss_sf.h"

/* A piece: 2^10 leaves (as XMSS's bottom subtrees), more on an H25 tree
 * so that no tree has more than 1024 pieces. */
#define PIECE_MIN_H 10

uint64_t hss_keygen_pieces(const lms_params *top, uint32_t *per)
{
    const unsigned h = top->h, cut = h > LMS_TOP_LEVELS ? h - LMS_TOP_LEVELS : 0;
    if (h <= PIECE_MIN_H)
        return 0; /* a second or two: built whole */
    const unsigned c = h - PIECE_MIN_H > PIECE_MIN_H ? h - PIECE_MIN_H : PIECE_MIN_H;
    if (per != NULL)
        *per = (uint32_t)1 << (c - cut);
    return (uint64_t)1 << (h - c);
}

/* The top tree t (fresh from lms_tree_start) built piece by piece. */
static int build_pieces(lms_tree *t, const fs_keygen_resume *r, unsigned threads,
                        lms_progress_fn progress, void *parg)
{
    const unsigned h = lms_tree_lms(t)->h;
    uint32_t per = 0;
    const uint64_t total = hss_keygen_pieces(lms_tree_lms(t), &per);
    const uint64_t leaves = total ? ((uint64_t)1 << h) / total : 0;
    uint64_t s = r->have;
    const uint8_t *row;
    int rc = FASTSIG_OK;

    if (total == 0)
        return FASTSIG_ERR_UNSUPPORTED; /* built whole */
    /* the tree keeps the row the plan counts on (else the pieces are no use) */
    if (lms_tree_nodes_for(t, leaves) != per)
        return FASTSIG_ERR_INTERNAL;
    if (s > total || (s != 0 && r->roots == NULL))
        return FASTSIG_ERR_BAD_PARAM;
    if (s == total)
        s--; /* a whole row loads as a complete tree: the last piece is built */
    if (s != 0) {
        rc = lms_tree_load(t, s * leaves, r->roots, (size_t)(s * per));
        if (rc == FASTSIG_OK && progress != NULL && progress(parg, s * leaves, (uint64_t)1 << h))
            rc = FASTSIG_ERR_INTERNAL;
    }
    for (; s < total && rc == FASTSIG_OK; s++) {
        rc = lms_tree_build(t, (s + 1) * leaves, threads, progress, parg);
        if (rc == FASTSIG_OK && r->save != NULL) {
            lms_tree_nodes(t, &row); /* the row first, also once the tree is complete */
            if (r->save(r->arg, row, s + 1, total) != 0)
                rc = FASTSIG_ERR_INTERNAL;
        }
    }
    return rc;
}

int hss_key_gen_resume(hss_key **out, unsigned L, const lms_params *lms,
                       const lmots_params *ots, const uint8_t *seed,
                       const uint8_t I[LMS_I_BYTES], unsigned threads,
                       const fs_keygen_resume *resume, lms_progress_fn progress, void *parg)
{
    if (out == NULL || seed == NULL || I == NULL || resume == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    hss_key *k;
    int rc = hss_key_new(&k, L, lms, ots, threads);
    if (rc != FASTSIG_OK)
        return rc;
    rc = lms_tree_start(&k->tree[0], &lms[0], &ots[0], I, seed, LMS_TOP_LEVELS);
    if (rc == FASTSIG_OK)
        rc = build_pieces(k->tree[0], resume, threads, progress, parg);
    if (rc == FASTSIG_OK)
        rc = hss_key_gen_lower(k); /* never in a checkpoint: built again */
    if (rc != FASTSIG_OK) {
        hss_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}

int fs_stateful_hss_resume_plan(const void *core, fs_resume_plan *plan)
{
    const hss_sf *h = core;
    uint32_t per = 0;
    memset(plan, 0, sizeof(*plan));
    plan->kind = FS_RESUME_KIND_HSS;
    plan->n = h->n;
    plan->total = hss_keygen_pieces(&h->lms[0], &per);
    plan->per = per;
    plan->seedlen = h->n + LMS_I_BYTES;
    plan->setlen = 8 * (size_t)h->L; /* every level: another set, another key */
    for (unsigned i = 0; i < h->L; i++) {
        fs_store_be32(plan->set + 8 * i, h->lms[i].type);
        fs_store_be32(plan->set + 8 * i + 4, h->ots[i].type);
    }
    return plan->total != 0 ? FASTSIG_OK : FASTSIG_ERR_UNSUPPORTED;
}
