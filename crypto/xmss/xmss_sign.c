/* xmss_sign.c - XMSS / XMSS^MT signing from the node cache, after the seeds
 * are checked against the root (see xmss.h). */
#include <pthread.h>
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "ctgrind.h"
#include "xmss/xmss.h"
#include "xmss/xmss_test_hook.h"
#include "xmss/xmss_key.h"
#include "xmss/wots_chain.h"

void (*xmss_fault_hook)(enum xmss_fault_site site, uint8_t *buf, size_t len);

/* ---- the seeds against the root ------------------------------------------- */

static int check_locked(xmss_key *k)
{
    const xmss_params *p = &k->p;
    const size_t n = p->n;
    unsigned top = p->d - 1;
    xmss_layer *ly = &k->layers[top];
    uint8_t node[XMSS_MAX_N], auth[XMSS_MAX_H * XMSS_MAX_N];
    int rc;
    if (k->bad)
        return FASTSIG_ERR_KEY_MISMATCH;
    if (k->checked)
        return FASTSIG_OK;
    if (ly->cur_ok && (ly->t == ly->b || ly->top_ok)) {
        /* the top layer has one tree: its cached nodes give the path */
        uint64_t leaf = ly->cur_sub << ly->b;
        rc = xmss_leaves(&k->ctx, node, top, 0, (uint32_t)leaf, 1, 1, NULL, NULL, 0, 0);
        xmss_auth_from(p, auth, ly->cur, ly->b, 0);
        if (ly->t > ly->b)
            xmss_auth_from(p, auth + ly->b * n, ly->top, ly->t - ly->b, leaf >> ly->b);
        if (rc == FASTSIG_OK)
            rc = xmss_root_from_auth(&k->ctx, node, node, leaf, auth, ly->t, top, 0);
    } else {
        rc = xmss_ensure_layer(k, top, 0);
        if (rc == FASTSIG_OK)
            memcpy(node, xmss_layer_root(k, top), n);
    }
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= node[i] ^ k->root[i];
    if (diff) {
        k->bad = 1;
        return FASTSIG_ERR_KEY_MISMATCH;
    }
    k->checked = 1;
    return FASTSIG_OK;
}

int xmss_key_check(xmss_key *k)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&k->lock);
    int rc = check_locked(k);
    pthread_mutex_unlock(&k->lock);
    return rc;
}

/* ---- signing -------------------------------------------------------------- */

/* The signature at idx: r = PRF(SK_PRF, idx) and the message's H_msg
 * digest, computed here from msg when digest is NULL, else given (a
 * streamed message: xmss_stream.c made both). */
static int sign_locked(xmss_key *k, uint64_t idx, const uint8_t *r, const uint8_t *dg,
                       const uint8_t *msg, size_t msglen, uint8_t *sig)
{
    const xmss_params *p = &k->p;
    const size_t n = p->n, wsig = xmss_wots_sig_bytes(p);
    uint8_t digest[XMSS_MAX_N];
    uint8_t *s = sig;
    uint32_t ahead = 0; /* layer 0's next leaves made with its signature */
    int rc = check_locked(k);
    if (rc != FASTSIG_OK)
        return rc;
    fs_store_be(s, p->idx_bytes, idx);
    s += p->idx_bytes;
    if (dg != NULL) {
        memcpy(s, r, n);
        memcpy(digest, dg, n);
    } else {
        rc = xmss_prf_msg(&k->ctx, s, idx);
        if (rc == FASTSIG_OK)
            rc = xmss_hash_msg(&k->ctx, digest, s, k->root, idx, msg, msglen);
    }
    s += n;
    for (unsigned L = 0; L < p->d && rc == FASTSIG_OK; L++) {
        uint64_t g = idx >> (p->tree_h * L);
        xmss_layer *ly = &k->layers[L];
        rc = xmss_ensure_layer(k, L, g);
        if (rc != FASTSIG_OK)
            break;
        uint64_t tree = g >> ly->t, leaf = g & (((uint64_t)1 << ly->t) - 1);
        if (L == 0) {
            xmss_adrs ots;
            xmss_adrs_init(&ots, 0, tree, XMSS_ADRS_OTS);
            xmss_adrs_set_ots(&ots, (uint32_t)leaf);
            rc = xmss_sign_ahead(k, idx, s, digest, &ots, &ahead);
        } else {
            memcpy(s, k->layers[L - 1].sig, wsig);
        }
        s += wsig;
        xmss_auth_from(p, s, ly->cur, ly->b, leaf & (((uint64_t)1 << ly->b) - 1));
        if (ly->t > ly->b)
            xmss_auth_from(p, s + ly->b * n, ly->top, ly->t - ly->b, leaf >> ly->b);
        s += ly->t * n;
    }
    /* preparing ahead only fills the cache: a failure there (memory) is
     * not the signature's, which is complete; the next call retries */
    if (rc == FASTSIG_OK && xmss_next_add(k, 0, ahead) != FASTSIG_OK)
        return rc;
    for (unsigned L = 0; L < p->d && rc == FASTSIG_OK; L++)
        if (xmss_advance_layer(k, L, idx) != FASTSIG_OK || xmss_advance_top(k, L, idx) != FASTSIG_OK)
            break;
    return rc;
}

static int sign_any(xmss_key *k, uint64_t idx, const uint8_t *r, const uint8_t *digest,
                    const uint8_t *msg, size_t msglen, uint8_t *sig, size_t siglen)
{
    if (k == NULL || sig == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (siglen != xmss_sig_bytes(&k->p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (idx < k->first || idx > k->last)
        return FASTSIG_ERR_KEY_EXHAUSTED;
    pthread_mutex_lock(&k->lock);
    int rc = sign_locked(k, idx, r, digest, msg, msglen, sig);
    pthread_mutex_unlock(&k->lock);
    if (rc == FASTSIG_OK && xmss_fault_hook != NULL)
        xmss_fault_hook(XMSS_FAULT_SIG, sig, siglen);
    if (rc != FASTSIG_OK)
        explicit_bzero(sig, siglen);
    return rc;
}

int xmss_sign(xmss_key *k, uint64_t idx, const uint8_t *msg, size_t msglen, uint8_t *sig,
             size_t siglen)
{
    if (msg == NULL && msglen != 0)
        return FASTSIG_ERR_NULL_ARG;
    return sign_any(k, idx, NULL, NULL, msg, msglen, sig, siglen);
}

int xmss_sign_digest(xmss_key *k, uint64_t idx, const uint8_t *r, const uint8_t *digest,
                     uint8_t *sig, size_t siglen)
{
    if (r == NULL || digest == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return sign_any(k, idx, r, digest, NULL, 0, sig, siglen);
}

int xmss_sign_verified(xmss_key *k, uint64_t idx, const uint8_t *msg, size_t msglen,
                      uint8_t *sig, size_t siglen)
{
    uint8_t pk[4 + 2 * XMSS_MAX_N];
    int rc = xmss_sign(k, idx, msg, msglen, sig, siglen);
    if (rc == FASTSIG_OK)
        rc = xmss_key_export_pk(k, pk, xmss_pk_bytes(&k->p));
    /* verifying branches on R and the digits of the message digest, which
     * the signature publishes anyway; its chain values go through the
     * hash kernels as in signing */
    FS_DECLASSIFY(sig, siglen);
    if (rc == FASTSIG_OK && xmss_verify_p(&k->p, pk, xmss_pk_bytes(&k->p), msg, msglen, sig,
                                         siglen) != FASTSIG_OK)
        rc = FASTSIG_ERR_FAULT;
    if (rc != FASTSIG_OK)
        explicit_bzero(sig, siglen);
    return rc;
}
