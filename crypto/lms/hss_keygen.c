/* hss_keygen.c - HSS key generation and the lower levels' trees: each
 * derived from its parent's SEED and I, signed by it when it becomes
 * current (see hss.h). */
#include <string.h>
#include "ctgrind.h"
#include "fastsig_err.h"
#include "lms/hss_key.h"
#include "lms/lms_chain.h"

int hss_child_seed(const lmots_params *parent_ots, const uint8_t I[LMS_I_BYTES],
                   const uint8_t *seed, uint32_t q, uint8_t *child_seed,
                   uint8_t child_I[LMS_I_BYTES])
{
    const lms_chain_job jobs[2] = { { q, 0xfffe, 0xff, 1 }, { q, 0xffff, 0xff, 1 } };
    uint8_t out[2 * LMS_MAX_N];
    int rc = lms_chains_ref(parent_ots, I, jobs, 2, seed, 0, out);
    if (rc == FASTSIG_OK) {
        memcpy(child_seed, out, parent_ots->n);
        memcpy(child_I, out + parent_ots->n, LMS_I_BYTES);
        FS_DECLASSIFY(child_I, LMS_I_BYTES); /* I' is in the child's public key */
    }
    explicit_bzero(out, sizeof(out));
    return rc;
}

/* Level i's (>= 1) tree number t becomes current: level i-1's current
 * tree, its parent, signs its public key at leaf t mod 2^h_{i-1}. */
static int adopt(hss_key *k, unsigned i, uint64_t t, lms_tree *nt)
{
    uint8_t pub[4 + 4 + LMS_I_BYTES + LMS_MAX_N];
    uint32_t q = (uint32_t)(t & (((uint64_t)1 << k->lp[i - 1].h) - 1));
    lms_tree_pub(nt, pub);
    int rc = lms_tree_sign(k->tree[i - 1], q, pub, lms_pub_bytes(&k->lp[i]), k->sig[i]);
    if (rc != FASTSIG_OK)
        return rc;
    lms_tree_free(k->tree[i]);
    k->tree[i] = nt;
    k->tree_idx[i] = t;
    return FASTSIG_OK;
}

/* Starts level i's tree number t (SEED and I from its parent: level i-1's
 * current or next tree, whichever is number t >> h_{i-1}); *nt stays NULL
 * when neither is (so past the level's last tree: the top level has one
 * tree and no next). */
static int start_tree(hss_key *k, unsigned i, uint64_t t, lms_tree **nt)
{
    unsigned ph = k->lp[i - 1].h;
    uint64_t pt = t >> ph;
    const lms_tree *parent = NULL;
    *nt = NULL;
    if (k->tree_idx[i - 1] == pt)
        parent = k->tree[i - 1];
    else if (k->next[i - 1] != NULL && k->tree_idx[i - 1] + 1 == pt)
        parent = k->next[i - 1];
    if (parent == NULL)
        return FASTSIG_OK;
    uint8_t seed[LMS_MAX_N], I[LMS_I_BYTES];
    int rc = hss_child_seed(&k->op[i - 1], lms_tree_I(parent), lms_tree_seed(parent),
                            (uint32_t)(t & (((uint64_t)1 << ph) - 1)), seed, I);
    if (rc == FASTSIG_OK)
        rc = lms_tree_start(nt, &k->lp[i], &k->op[i], I, seed, LMS_TOP_LEVELS);
    explicit_bzero(seed, sizeof(seed));
    return rc;
}

/* Level i's tree number t, now: the prepared next tree when it is that
 * one (finished first), else built from scratch. Then the next one is
 * started. */
int hss_descend(hss_key *k, unsigned i, uint64_t t)
{
    lms_tree *nt = NULL;
    int rc = FASTSIG_OK;
    if (k->next[i] != NULL && k->tree_idx[i] + 1 == t) {
        nt = k->next[i];
        k->next[i] = NULL;
    } else {
        lms_tree_free(k->next[i]);
        k->next[i] = NULL;
        rc = start_tree(k, i, t, &nt);
        if (rc == FASTSIG_OK && nt == NULL)
            rc = FASTSIG_ERR_INTERNAL; /* the parent is current: cannot happen */
    }
    if (rc == FASTSIG_OK)
        rc = lms_tree_build(nt, (uint64_t)1 << k->lp[i].h, k->threads, NULL, NULL);
    if (rc == FASTSIG_OK)
        rc = adopt(k, i, t, nt);
    if (rc != FASTSIG_OK) {
        lms_tree_free(nt);
        return rc;
    }
    return start_tree(k, i, t + 1, &k->next[i]);
}

int hss_key_gen_lower(hss_key *k)
{
    int rc = FASTSIG_OK;
    /* the lower trees of the first index signed: a shard never uses the
     * ones before it */
    for (unsigned i = 1; i < k->L && rc == FASTSIG_OK; i++) {
        unsigned a = k->below[i] + k->lp[i].h;
        rc = hss_descend(k, i, a >= 64 ? 0 : k->first >> a);
    }
    return rc;
}

int hss_key_gen(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                const uint8_t *seed, const uint8_t I[LMS_I_BYTES], lms_progress_fn progress,
                void *parg)
{
    return hss_key_gen_mt(out, L, lms, ots, seed, I, 1, progress, parg);
}

int hss_key_gen_mt(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                   const uint8_t *seed, const uint8_t I[LMS_I_BYTES], unsigned threads,
                   lms_progress_fn progress, void *parg)
{
    return hss_key_gen_range(out, L, lms, ots, seed, I, threads, 0, 0, progress, parg);
}

int hss_key_gen_range(hss_key **out, unsigned L, const lms_params *lms,
                      const lmots_params *ots, const uint8_t *seed,
                      const uint8_t I[LMS_I_BYTES], unsigned threads, uint64_t first,
                      uint64_t end, lms_progress_fn progress, void *parg)
{
    if (out == NULL || seed == NULL || I == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    hss_key *k;
    int rc = hss_key_new(&k, L, lms, ots, threads);
    if (rc != FASTSIG_OK)
        return rc;
    if (!(first == 0 && end == 0)) /* 0, 0: the whole key */
        rc = hss_key_set_range(k, first, end);
    if (rc == FASTSIG_OK)
        rc = lms_tree_gen_top(&k->tree[0], &lms[0], &ots[0], I, seed, LMS_TOP_LEVELS, threads,
                              progress, parg);
    if (rc == FASTSIG_OK)
        rc = hss_key_gen_lower(k);
    if (rc != FASTSIG_OK) {
        hss_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}
