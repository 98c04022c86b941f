/* xmss_key.c - the XMSS / XMSS^MT key object's life: allocation of its
 * cache, range, import and export, freeing (see xmss.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "secmem.h"
#include "xmss/xmss.h"
#include "xmss/xmss_test_hook.h"
#include "xmss/xmss_key.h"

/* ---- allocation ----------------------------------------------------------- */

unsigned (*xmss_bottom_h_hook)(void);

static int layers_alloc(xmss_key *k)
{
    const xmss_params *p = &k->p;
    for (unsigned L = 0; L < p->d; L++) {
        xmss_layer *ly = &k->layers[L];
        ly->t = p->tree_h;
        unsigned bmax = xmss_bottom_h_hook != NULL ? xmss_bottom_h_hook() : 0;
        bmax = bmax ? bmax : XMSS_BOTTOM_H;
        ly->b = p->tree_h < bmax ? p->tree_h : bmax;
        ly->cur = calloc(1, xmss_sub_bytes(k, ly->b));
        if (ly->cur == NULL)
            return FASTSIG_ERR_NOMEM;
        if (ly->t > ly->b && (ly->top = calloc(1, xmss_sub_bytes(k, ly->t - ly->b))) == NULL)
            return FASTSIG_ERR_NOMEM;
        if (xmss_layer_subtrees(p, L, ly->b) > 1 &&
            (ly->next = calloc(1, xmss_sub_bytes(k, ly->b))) == NULL)
            return FASTSIG_ERR_NOMEM;
        if (ly->t > ly->b && (p->h - p->tree_h * L > ly->t) &&
            ((ly->ntop = calloc(1, xmss_sub_bytes(k, ly->t - ly->b))) == NULL ||
             (ly->nbot = calloc(1, xmss_sub_bytes(k, ly->b))) == NULL))
            return FASTSIG_ERR_NOMEM;
        if (L + 1 < p->d && ((ly->sig = calloc(1, xmss_wots_sig_bytes(p))) == NULL ||
                             (ly->next_sig = calloc(1, xmss_wots_sig_bytes(p))) == NULL))
            return FASTSIG_ERR_NOMEM;
    }
    return FASTSIG_OK;
}

void xmss_key_free(xmss_key *k)
{
    if (k == NULL)
        return;
    for (unsigned L = 0; L < XMSS_MAX_D; L++) {
        xmss_layer *ly = &k->layers[L];
        free(ly->cur);
        free(ly->top);
        free(ly->next);
        free(ly->sig);
        free(ly->next_sig);
        free(ly->ntop);
        free(ly->nbot);
    }
    xmss_ctx_clear(&k->ctx);
    pthread_mutex_destroy(&k->lock);
    fs_secmem_free(k); /* wiped: the seeds and their keyed hash states */
}

/* A key from its seeds; root is filled by the caller. */
int xmss_key_new(const xmss_params *p, const uint8_t *sk_seed, const uint8_t *sk_prf,
                   const uint8_t *pub_seed, xmss_key **out)
{
    *out = NULL;
    if (p == NULL || (p->kind != XMSS_KIND_XMSS && p->kind != XMSS_KIND_XMSSMT) || p->d == 0 ||
        p->d > XMSS_MAX_D || p->tree_h * p->d != p->h)
        return FASTSIG_ERR_BAD_PARAM;
    xmss_key *k = fs_secmem_alloc(sizeof(*k)); /* out of core dumps */
    if (k == NULL)
        return FASTSIG_ERR_NOMEM;
    k->p = *p;
    k->threads = 2;
    k->last = xmss_last_index(p);
    pthread_mutex_init(&k->lock, NULL);
    memcpy(k->sk_seed, sk_seed, p->n);
    memcpy(k->sk_prf, sk_prf, p->n);
    memcpy(k->pub_seed, pub_seed, p->n);
    int rc = xmss_ctx_init(&k->ctx, &k->p, pub_seed, sk_seed, sk_prf);
    if (rc == FASTSIG_OK)
        rc = layers_alloc(k);
    if (rc != FASTSIG_OK) {
        xmss_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}

int xmss_key_set_range(xmss_key *k, uint64_t first, uint64_t end)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    /* a range only shrinks: a shard never signs outside its parent's */
    if (first >= end || first < k->first || end - 1 > k->last)
        return FASTSIG_ERR_BAD_PARAM;
    k->first = first;
    k->last = end - 1;
    return FASTSIG_OK;
}

const xmss_params *xmss_key_params(const xmss_key *k)
{
    return &k->p;
}

uint64_t xmss_key_ondemand(xmss_key *k)
{
    pthread_mutex_lock(&k->lock);
    uint64_t v = k->ondemand;
    pthread_mutex_unlock(&k->lock);
    return v;
}

uint64_t xmss_cache_changes(xmss_key *k)
{
    pthread_mutex_lock(&k->lock);
    uint64_t v = k->changes;
    pthread_mutex_unlock(&k->lock);
    return v;
}

int xmss_key_from_sk(int kind, const uint8_t *sk, size_t sklen, uint64_t *idx, xmss_key **out)
{
    if (sk == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    const xmss_params *p;
    int rc = xmss_tree_row_of(kind, sk, sklen, &p);
    if (rc != FASTSIG_OK)
        return rc;
    if (sklen != xmss_sk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    const uint8_t *s = sk + 4 + p->idx_bytes;
    uint64_t i = fs_load_be(sk + 4, p->idx_bytes);
    if (i > xmss_last_index(p) + (p->h < 64)) /* idx 2^h = exhausted, still a key */
        return FASTSIG_ERR_BAD_KEY;
    xmss_key *k;
    rc = xmss_key_new(p, s, s + p->n, s + 3 * p->n, &k);
    if (rc != FASTSIG_OK)
        return rc;
    memcpy(k->root, s + 2 * p->n, p->n);
    if (idx != NULL)
        *idx = i;
    *out = k;
    return FASTSIG_OK;
}

int xmss_key_export_pk(const xmss_key *k, uint8_t *pk, size_t pklen)
{
    if (k == NULL || pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t n = k->p.n;
    if (pklen != xmss_pk_bytes(&k->p))
        return FASTSIG_ERR_BAD_LENGTH;
    fs_store_be32(pk, k->p.oid);
    memcpy(pk + 4, k->root, n);
    memcpy(pk + 4 + n, k->pub_seed, n);
    return FASTSIG_OK;
}

int xmss_key_export_sk(const xmss_key *k, uint64_t idx, uint8_t *sk, size_t sklen)
{
    if (k == NULL || sk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    const xmss_params *p = &k->p;
    size_t n = p->n;
    if (sklen != xmss_sk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (idx > xmss_last_index(p) + (p->h < 64))
        return FASTSIG_ERR_BAD_PARAM;
    fs_store_be32(sk, p->oid);
    uint8_t *s = sk + 4;
    fs_store_be(s, p->idx_bytes, idx);
    s += p->idx_bytes;
    memcpy(s, k->sk_seed, n);
    memcpy(s + n, k->sk_prf, n);
    memcpy(s + 2 * n, k->root, n);
    memcpy(s + 3 * n, k->pub_seed, n);
    return FASTSIG_OK;
}
