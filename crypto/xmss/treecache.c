/* treecache.c - the node cache as bytes, for a cache file beside the state.
 *
 * Layout (all integers big-endian):
 *   "FSHC" || version(1) = 1 || kind(1) || oid(4) || root(n)
 *   per layer, bottom first:
 *     flags(1): 1 cur_ok, 2 top_ok, 4 sig_ok, 8 next_sig_ok
 *     cur_sub(8) top_tree(8) next_sub(8) next_done(4) sig_tree(8) next_sig_tree(8)
 *     ntop_tree(8) ntop_done(4)
 *     cur nodes, then top nodes if t > b, next nodes if the layer has more
 *     than one bottom subtree, sig and next_sig if L < d-1, ntop and nbot
 *     nodes if t > b and the layer has more than one tree (fixed sizes)
 *   tag(n) = H_msg(K || root || toByte(0, n), everything before the tag),
 *            K = PRF(SK_SEED, "fastsig hbs node cache tag v1")
 * The tag is keyed with the key's own secret, so a cache file cannot be
 * swapped for another key's or edited; the layer fields are still range
 * checked before use. A key whose seeds failed xmss_key_check exports nothing
 * (it would overwrite the good key's file with nodes of the damaged seed). */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "xmss/xmss_key.h"
#include "xmss/xmss.h"

#define HDR_BYTES 10
#define LAYER_FIELDS 57

static size_t layer_bytes(const xmss_key *k, unsigned L)
{
    const xmss_layer *ly = &k->layers[L];
    size_t nb = xmss_subtree_nodes(ly->b) * k->p.n, sz = LAYER_FIELDS + nb;
    if (ly->top != NULL)
        sz += xmss_subtree_nodes(ly->t - ly->b) * k->p.n;
    if (ly->next != NULL)
        sz += nb;
    if (ly->sig != NULL)
        sz += 2 * xmss_wots_sig_bytes(&k->p);
    if (ly->ntop != NULL)
        sz += xmss_subtree_nodes(ly->t - ly->b) * k->p.n + nb;
    return sz;
}

static size_t cache_bytes(const xmss_key *k)
{
    size_t sz = HDR_BYTES + 2u * k->p.n;
    for (unsigned L = 0; L < k->p.d; L++)
        sz += layer_bytes(k, L);
    return sz;
}

static int cache_tag(const xmss_key *k, uint8_t *tag, const uint8_t *data, size_t len)
{
    static const uint8_t label[32] = "fastsig hbs node cache tag v1";
    uint8_t key[3 * XMSS_MAX_N] = { 0 };
    fs_hash_seeds s;
    size_t n = k->p.n;
    int rc = fs_hash_seeds_init(&s, &k->ctx.hp, k->sk_seed, NULL);
    if (rc == FASTSIG_OK)
        rc = fs_hash_prf(&s, key, label, 1);
    fs_hash_seeds_clear(&s);
    memcpy(key + n, k->root, n);
    if (rc == FASTSIG_OK)
        rc = fs_hash_msg(&k->ctx.hp, tag, key, data, len);
    explicit_bzero(key, sizeof(key));
    return rc;
}

static uint8_t *put(uint8_t *o, const void *src, size_t len)
{
    memcpy(o, src, len);
    return o + len;
}

int xmss_cache_export(xmss_key *k, uint8_t **out, size_t *outlen)
{
    if (k == NULL || out == NULL || outlen == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t n = k->p.n, sz = cache_bytes(k), ws = xmss_wots_sig_bytes(&k->p);
    uint8_t *buf = malloc(sz), *o = buf;
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    pthread_mutex_lock(&k->lock);
    if (k->bad) { /* its nodes are not the public key's: never let them out */
        pthread_mutex_unlock(&k->lock);
        free(buf);
        return FASTSIG_ERR_KEY_MISMATCH;
    }
    o = put(o, "FSHC", 4);
    *o++ = 1;
    *o++ = k->p.kind;
    fs_store_be32(o, k->p.oid);
    o = put(o + 4, k->root, n);
    for (unsigned L = 0; L < k->p.d; L++) {
        const xmss_layer *ly = &k->layers[L];
        *o++ = (uint8_t)((ly->cur_ok ? 1 : 0) | (ly->top_ok ? 2 : 0) | (ly->sig_ok ? 4 : 0) |
                         (ly->next_sig_ok ? 8 : 0));
        fs_store_be64(o, ly->cur_sub);
        fs_store_be64(o + 8, ly->top_tree);
        fs_store_be64(o + 16, ly->next_sub);
        fs_store_be32(o + 24, ly->next_done);
        fs_store_be64(o + 28, ly->sig_tree);
        fs_store_be64(o + 36, ly->next_sig_tree);
        fs_store_be64(o + 44, ly->ntop_tree);
        fs_store_be32(o + 52, ly->ntop_done);
        o += LAYER_FIELDS - 1;
        o = put(o, ly->cur, xmss_subtree_nodes(ly->b) * n);
        if (ly->top != NULL)
            o = put(o, ly->top, xmss_subtree_nodes(ly->t - ly->b) * n);
        if (ly->next != NULL)
            o = put(o, ly->next, xmss_subtree_nodes(ly->b) * n);
        if (ly->sig != NULL) {
            o = put(o, ly->sig, ws);
            o = put(o, ly->next_sig, ws);
        }
        if (ly->ntop != NULL) {
            o = put(o, ly->ntop, xmss_subtree_nodes(ly->t - ly->b) * n);
            o = put(o, ly->nbot, xmss_subtree_nodes(ly->b) * n);
        }
    }
    pthread_mutex_unlock(&k->lock);
    int rc = cache_tag(k, o, buf, (size_t)(o - buf));
    if (rc != FASTSIG_OK) {
        free(buf);
        return rc;
    }
    *out = buf;
    *outlen = sz;
    return FASTSIG_OK;
}

/* Range checks of one layer's fields (the tag already vouches for them;
 * this keeps a logic slip from indexing out of bounds). */
static int layer_fields_ok(const xmss_key *k, unsigned L, const uint8_t *f)
{
    const xmss_layer *ly = &k->layers[L];
    unsigned span = k->p.h - k->p.tree_h * L; /* bits of g at this layer */
    uint64_t subs = (uint64_t)1 << (span - ly->b), trees = (uint64_t)1 << (span - ly->t);
    if (f[0] & ~15u)
        return 0;
    if (fs_load_be64(f + 1) >= subs || fs_load_be64(f + 9) >= trees ||
        fs_load_be64(f + 17) >= subs || fs_load_be32(f + 25) > ((uint64_t)1 << ly->b) ||
        fs_load_be64(f + 29) >= trees || fs_load_be64(f + 37) >= trees ||
        fs_load_be64(f + 45) >= trees || fs_load_be32(f + 53) > ((uint64_t)1 << ly->t))
        return 0;
    if ((f[0] & 2) && ly->top == NULL)
        return 0;
    if ((f[0] & 12) && ly->sig == NULL)
        return 0;
    return 1;
}

int xmss_cache_import(xmss_key *k, const uint8_t *in, size_t inlen)
{
    if (k == NULL || in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t n = k->p.n, ws = xmss_wots_sig_bytes(&k->p);
    if (inlen != cache_bytes(k))
        return FASTSIG_ERR_BAD_PARAM;
    uint8_t tag[XMSS_MAX_N];
    int rc = cache_tag(k, tag, in, inlen - n);
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= tag[i] ^ in[inlen - n + i];
    if (diff || memcmp(in, "FSHC\1", 5) != 0 || in[5] != k->p.kind ||
        fs_load_be32(in + 6) != k->p.oid || memcmp(in + HDR_BYTES, k->root, n) != 0)
        return FASTSIG_ERR_BAD_PARAM;
    const uint8_t *f = in + HDR_BYTES + n;
    for (unsigned L = 0; L < k->p.d; L++) {
        if (!layer_fields_ok(k, L, f))
            return FASTSIG_ERR_BAD_PARAM;
        f += layer_bytes(k, L);
    }
    pthread_mutex_lock(&k->lock);
    k->changes++;
    f = in + HDR_BYTES + n;
    for (unsigned L = 0; L < k->p.d; L++) {
        xmss_layer *ly = &k->layers[L];
        ly->cur_ok = f[0] & 1;
        ly->top_ok = (f[0] >> 1) & 1;
        ly->sig_ok = (f[0] >> 2) & 1;
        ly->next_sig_ok = (f[0] >> 3) & 1;
        ly->cur_sub = fs_load_be64(f + 1);
        ly->top_tree = fs_load_be64(f + 9);
        ly->next_sub = fs_load_be64(f + 17);
        ly->next_done = fs_load_be32(f + 25);
        ly->sig_tree = fs_load_be64(f + 29);
        ly->next_sig_tree = fs_load_be64(f + 37);
        ly->ntop_tree = fs_load_be64(f + 45);
        ly->ntop_done = ly->ntop != NULL ? fs_load_be32(f + 53) : 0;
        f += LAYER_FIELDS;
        size_t nb = xmss_subtree_nodes(ly->b) * n;
        memcpy(ly->cur, f, nb);
        f += nb;
        if (ly->top != NULL) {
            memcpy(ly->top, f, xmss_subtree_nodes(ly->t - ly->b) * n);
            f += xmss_subtree_nodes(ly->t - ly->b) * n;
        }
        if (ly->next != NULL) {
            memcpy(ly->next, f, nb);
            f += nb;
        } else {
            ly->next_done = 0;
        }
        if (ly->sig != NULL) {
            memcpy(ly->sig, f, ws);
            memcpy(ly->next_sig, f + ws, ws);
            f += 2 * ws;
        }
        if (ly->ntop != NULL) {
            size_t tb = xmss_subtree_nodes(ly->t - ly->b) * n;
            memcpy(ly->ntop, f, tb);
            memcpy(ly->nbot, f + tb, nb);
            f += tb + nb;
        }
    }
    pthread_mutex_unlock(&k->lock);
    return FASTSIG_OK;
}
