/* hss_stream.c - HSS signatures of a message that streams (see hss.h): the
 * bottom tree's I and SEED at an index derive from the top level's, and C
 * from them and q, so Q starts before the first byte of the message and the
 * message is never held. */
#include <string.h>
#include "fastsig_err.h"
#include "lms/hss_key.h"
#include "lms/lmots.h"

/* The bottom tree's (I, SEED) under g, derived from the top tree's as the
 * key's trees are (hss_child_seed), whichever trees are current now. */
static int bottom_seed(const hss_key *k, uint64_t g, uint8_t I[LMS_I_BYTES], uint8_t *seed)
{
    int rc = FASTSIG_OK;
    memcpy(I, lms_tree_I(k->tree[0]), LMS_I_BYTES);
    memcpy(seed, lms_tree_seed(k->tree[0]), k->op[0].n);
    for (unsigned i = 1; i < k->L && rc == FASTSIG_OK; i++)
        rc = hss_child_seed(&k->op[i - 1], I, seed, hss_leaf_of(k, i - 1, g), seed, I);
    return rc;
}

int hss_sign_begin(hss_key *k, uint64_t g, uint8_t I[LMS_I_BYTES], uint8_t *C, fs_hash_stream *h)
{
    uint8_t seed[LMS_MAX_N];
    if (k == NULL || I == NULL || C == NULL || h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    unsigned H = hss_total_height(k), last = k->L - 1;
    if (H < 64 && g >> H)
        return FASTSIG_ERR_BAD_PARAM;
    if (g < k->first || g > k->last)
        return FASTSIG_ERR_KEY_EXHAUSTED; /* outside a shard's range */
    if (k->tree[0] == NULL)
        return FASTSIG_ERR_INTERNAL;
    uint32_t q = hss_leaf_of(k, last, g);
    int rc = bottom_seed(k, g, I, seed);
    if (rc == FASTSIG_OK)
        rc = lms_randomizer(&k->op[last], I, seed, q, C);
    explicit_bzero(seed, sizeof(seed));
    return rc == FASTSIG_OK ? lmots_digest_begin(&k->op[last], I, q, C, h) : rc;
}

int hss_sign_end(hss_key *k, uint64_t g, const uint8_t I[LMS_I_BYTES], const uint8_t *C,
                 fs_hash_stream *h, uint8_t *sig)
{
    uint8_t Q[LMS_MAX_N];
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_hash_stream_final(h, Q);
    return hss_sign_digest(k, g, I, C, Q, sig);
}

int hss_verify_begin(const uint8_t *pub, size_t publen, const uint8_t *sig, size_t siglen,
                     fs_hash_stream *h)
{
    hss_levels_view v;
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = hss_sig_parse(pub, publen, NULL, 0, sig, siglen, &v);
    return rc == FASTSIG_OK ? hss_levels_q_start(&v, h) : rc;
}

int hss_verify_end(const uint8_t *pub, size_t publen, fs_hash_stream *h, const uint8_t *sig,
                   size_t siglen)
{
    uint8_t Q[LMS_MAX_N];
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_hash_stream_final(h, Q);
    return hss_verify_digest(pub, publen, Q, sig, siglen);
}
