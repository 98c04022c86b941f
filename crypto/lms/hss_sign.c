/* hss_sign.c - HSS signing at an index, then each level's next tree
 * prepared by its share (see hss.h). */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/hss_key.h"

/* After a signature at g: each level's next tree gets the share of its
 * leaves that this point of the current tree's life calls for, so it is
 * complete when the current one runs out (the bottom level one leaf per
 * signature, level i one per 2^(heights below i) signatures). */
static int prepare(hss_key *k, uint64_t g)
{
    for (unsigned i = 1; i < k->L; i++) {
        if (k->next[i] == NULL)
            continue;
        unsigned a = k->below[i] + k->lp[i].h;
        uint64_t pos = a >= 64 ? g : g & (((uint64_t)1 << a) - 1);
        uint64_t want = k->below[i] >= 64 ? 0 : (pos >> k->below[i]) + 1;
        int rc = lms_tree_build(k->next[i], want, 1, NULL, NULL);
        if (rc != FASTSIG_OK)
            return rc;
    }
    return FASTSIG_OK;
}

/* Bits a..a+n-1 of g (n < 64). */
static uint64_t bits(uint64_t g, unsigned a, unsigned n)
{
    return a >= 64 ? 0 : (g >> a) & (((uint64_t)1 << n) - 1);
}

/* The signature at g: of msg, or (C non-NULL) of the digest Q a streamed
 * message gave with C under the bottom tree whose identifier is I. */
static int sign_any(hss_key *k, uint64_t g, const uint8_t *I, const uint8_t *C,
                    const uint8_t *Q, const uint8_t *msg, size_t mlen, uint8_t *sig)
{
    if (k == NULL || sig == NULL)
        return FASTSIG_ERR_NULL_ARG;
    unsigned H = hss_total_height(k);
    if (H < 64 && g >> H)
        return FASTSIG_ERR_BAD_PARAM;
    if (g < k->first || g > k->last)
        return FASTSIG_ERR_KEY_EXHAUSTED; /* outside a shard's range */
    int rc = FASTSIG_OK;
    for (unsigned i = 1; i < k->L && rc == FASTSIG_OK; i++) {
        unsigned a = k->below[i] + k->lp[i].h;
        uint64_t t = a >= 64 ? 0 : g >> a;
        if (k->tree_idx[i] != t)
            rc = hss_descend(k, i, t);
    }
    if (rc != FASTSIG_OK)
        return rc;
    unsigned last = k->L - 1;
    if (C != NULL && memcmp(lms_tree_I(k->tree[last]), I, LMS_I_BYTES) != 0)
        return FASTSIG_ERR_INTERNAL; /* the stream was begun under another tree */
    uint8_t *p = sig;
    fs_store_be32(p, k->L - 1);
    p += 4;
    for (unsigned i = 1; i < k->L; i++) {
        size_t sl = lms_sig_bytes(&k->lp[i - 1], &k->op[i - 1]);
        memcpy(p, k->sig[i], sl);
        p += sl;
        lms_tree_pub(k->tree[i], p);
        p += lms_pub_bytes(&k->lp[i]);
    }
    uint32_t q = (uint32_t)bits(g, 0, k->lp[last].h);
    rc = C == NULL ? lms_tree_sign(k->tree[last], q, msg, mlen, p)
                   : lms_tree_sign_digest(k->tree[last], q, C, Q, p);
    return rc == FASTSIG_OK ? prepare(k, g) : rc;
}

int hss_sign(hss_key *k, uint64_t g, const uint8_t *msg, size_t mlen, uint8_t *sig)
{
    if (msg == NULL && mlen)
        return FASTSIG_ERR_NULL_ARG;
    return sign_any(k, g, NULL, NULL, NULL, msg, mlen, sig);
}

int hss_sign_digest(hss_key *k, uint64_t g, const uint8_t I[LMS_I_BYTES], const uint8_t *C,
                    const uint8_t *Q, uint8_t *sig)
{
    if (I == NULL || C == NULL || Q == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return sign_any(k, g, I, C, Q, NULL, 0, sig);
}

/* Level i's tree and leaf under g (hss_stream.c). */
uint32_t hss_leaf_of(const hss_key *k, unsigned i, uint64_t g)
{
    return (uint32_t)bits(g, k->below[i], k->lp[i].h);
}
