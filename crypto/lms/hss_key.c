/* hss_key.c - the HSS key object's life: the empty key of its levels, its
 * range, sizes and public key, the levels' working data for the node cache,
 * freeing (see hss.h). */
#include <stdlib.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/hss_key.h"

int hss_key_new(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                unsigned threads)
{
    if (out == NULL || lms == NULL || ots == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    if (L < 1 || L > LMS_MAX_LEVELS)
        return FASTSIG_ERR_UNSUPPORTED;
    unsigned total = 0;
    for (unsigned i = 0; i < L; i++) {
        if (!lms_pair_ok(&lms[i], &ots[i]) || lms[i].family != lms[0].family)
            return FASTSIG_ERR_UNSUPPORTED;
        total += lms[i].h;
    }
    if (total > 64)
        return FASTSIG_ERR_UNSUPPORTED; /* an index must fit 64 bits */
    hss_key *k = calloc(1, sizeof(*k));
    if (k == NULL)
        return FASTSIG_ERR_NOMEM;
    k->L = L;
    k->threads = threads;
    k->first = 0; /* the whole key until hss_key_set_range */
    k->last = total < 64 ? ((uint64_t)1 << total) - 1 : UINT64_MAX;
    for (unsigned i = 0; i < L; i++) {
        k->lp[i] = lms[i];
        k->op[i] = ots[i];
        total -= lms[i].h;
        k->below[i] = total;
        k->tree_idx[i] = i > 0 ? UINT64_MAX : 0; /* none yet */
        if (i > 0 && (k->sig[i] = malloc(lms_sig_bytes(&lms[i - 1], &ots[i - 1]))) == NULL) {
            hss_key_free(k);
            return FASTSIG_ERR_NOMEM;
        }
    }
    *out = k;
    return FASTSIG_OK;
}

void hss_key_free(hss_key *k)
{
    if (k == NULL)
        return;
    for (unsigned i = 0; i < k->L; i++) {
        lms_tree_free(k->tree[i]);
        lms_tree_free(k->next[i]);
        free(k->sig[i]);
    }
    free(k);
}

int hss_key_set_range(hss_key *k, uint64_t first, uint64_t end)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    /* a range only shrinks: a shard never signs outside its parent's
     * (end 0 stands for 2^64, as in the key) */
    if (first < k->first || end - 1 < first || end - 1 > k->last)
        return FASTSIG_ERR_BAD_PARAM;
    k->first = first;
    k->last = end - 1;
    return FASTSIG_OK;
}

unsigned hss_levels(const hss_key *k)
{
    return k->L;
}

unsigned hss_total_height(const hss_key *k)
{
    return k->below[0] + k->lp[0].h;
}

size_t hss_pub_bytes(const hss_key *k)
{
    return 4 + lms_pub_bytes(&k->lp[0]);
}

size_t hss_sig_bytes(const hss_key *k)
{
    size_t sz = 4;
    for (unsigned i = 0; i < k->L; i++)
        sz += lms_sig_bytes(&k->lp[i], &k->op[i]) + (i > 0 ? lms_pub_bytes(&k->lp[i]) : 0);
    return sz;
}

void hss_pub(const hss_key *k, uint8_t *pub)
{
    fs_store_be32(pub, k->L);
    lms_tree_pub(k->tree[0], pub + 4);
}

/* ---- the levels' working data, for the node cache (hss_cache.c) ---- */

const lms_params *hss_level_lms(const hss_key *k, unsigned i)
{
    return &k->lp[i];
}

const lmots_params *hss_level_ots(const hss_key *k, unsigned i)
{
    return &k->op[i];
}

lms_tree *hss_level_tree(const hss_key *k, unsigned i)
{
    return k->tree[i];
}

uint64_t hss_level_index(const hss_key *k, unsigned i)
{
    return k->tree_idx[i];
}

lms_tree *hss_level_next(const hss_key *k, unsigned i)
{
    return k->next[i];
}

uint8_t *hss_level_sig(hss_key *k, unsigned i)
{
    return k->sig[i];
}

void hss_level_set(hss_key *k, unsigned i, uint64_t idx, lms_tree *t, lms_tree *nt)
{
    if (k->tree[i] != t)
        lms_tree_free(k->tree[i]);
    if (k->next[i] != nt)
        lms_tree_free(k->next[i]);
    k->tree[i] = t;
    k->next[i] = nt;
    k->tree_idx[i] = idx;
}
