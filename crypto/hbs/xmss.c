/* xmss.c - XMSS / XMSS^MT key generation, signing with a node cache, and
 * verification (see xmss.h for the contracts). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "ctgrind.h"
#include "secmem.h"
#include "hbs/xmss.h"
#include "hbs/hbs_test_hook.h"
#include "hbs/hbs_key.h"
#include "hbs/wots_chain.h"

static void wipe(void *p, size_t len)
{
    volatile uint8_t *v = p;
    while (len--)
        *v++ = 0;
}

/* ---- layer geometry ------------------------------------------------------ */

/* Bottom subtrees at layer L: 2^(h - t*L - b). */
static uint64_t layer_subtrees(const hbs_params *p, unsigned L, unsigned b)
{
    return (uint64_t)1 << (p->h - p->tree_h * L - b);
}

static size_t sub_bytes(const hbs_key *k, unsigned b)
{
    return hbs_subtree_nodes(b) * k->p.n;
}

/* ---- allocation ----------------------------------------------------------- */

void (*hbs_fault_hook)(enum hbs_fault_site site, uint8_t *buf, size_t len);
unsigned (*hbs_bottom_h_hook)(void);

static int layers_alloc(hbs_key *k)
{
    const hbs_params *p = &k->p;
    for (unsigned L = 0; L < p->d; L++) {
        hbs_layer *ly = &k->layers[L];
        ly->t = p->tree_h;
        unsigned bmax = hbs_bottom_h_hook != NULL ? hbs_bottom_h_hook() : 0;
        bmax = bmax ? bmax : HBS_BOTTOM_H;
        ly->b = p->tree_h < bmax ? p->tree_h : bmax;
        ly->cur = calloc(1, sub_bytes(k, ly->b));
        if (ly->cur == NULL)
            return FASTSIG_ERR_NOMEM;
        if (ly->t > ly->b && (ly->top = calloc(1, sub_bytes(k, ly->t - ly->b))) == NULL)
            return FASTSIG_ERR_NOMEM;
        if (layer_subtrees(p, L, ly->b) > 1 &&
            (ly->next = calloc(1, sub_bytes(k, ly->b))) == NULL)
            return FASTSIG_ERR_NOMEM;
        if (ly->t > ly->b && (p->h - p->tree_h * L > ly->t) &&
            ((ly->ntop = calloc(1, sub_bytes(k, ly->t - ly->b))) == NULL ||
             (ly->nbot = calloc(1, sub_bytes(k, ly->b))) == NULL))
            return FASTSIG_ERR_NOMEM;
        if (L + 1 < p->d && ((ly->sig = calloc(1, hbs_wots_sig_bytes(p))) == NULL ||
                             (ly->next_sig = calloc(1, hbs_wots_sig_bytes(p))) == NULL))
            return FASTSIG_ERR_NOMEM;
    }
    return FASTSIG_OK;
}

void hbs_key_free(hbs_key *k)
{
    if (k == NULL)
        return;
    for (unsigned L = 0; L < HBS_MAX_D; L++) {
        hbs_layer *ly = &k->layers[L];
        free(ly->cur);
        free(ly->top);
        free(ly->next);
        free(ly->sig);
        free(ly->next_sig);
        free(ly->ntop);
        free(ly->nbot);
    }
    hbs_ctx_clear(&k->ctx);
    pthread_mutex_destroy(&k->lock);
    fs_secmem_free(k); /* wiped: the seeds and their keyed hash states */
}

/* A key from its seeds; root is filled by the caller. */
static int key_new(const hbs_params *p, const uint8_t *sk_seed, const uint8_t *sk_prf,
                   const uint8_t *pub_seed, hbs_key **out)
{
    *out = NULL;
    if (p == NULL || (p->kind != HBS_KIND_XMSS && p->kind != HBS_KIND_XMSSMT) || p->d == 0 ||
        p->d > HBS_MAX_D || p->tree_h * p->d != p->h)
        return FASTSIG_ERR_BAD_PARAM;
    hbs_key *k = fs_secmem_alloc(sizeof(*k)); /* out of core dumps */
    if (k == NULL)
        return FASTSIG_ERR_NOMEM;
    k->p = *p;
    k->threads = 2;
    k->last = hbs_last_index(p);
    pthread_mutex_init(&k->lock, NULL);
    memcpy(k->sk_seed, sk_seed, p->n);
    memcpy(k->sk_prf, sk_prf, p->n);
    memcpy(k->pub_seed, pub_seed, p->n);
    int rc = hbs_ctx_init(&k->ctx, &k->p, pub_seed, sk_seed, sk_prf);
    if (rc == FASTSIG_OK)
        rc = layers_alloc(k);
    if (rc != FASTSIG_OK) {
        hbs_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}

int hbs_key_set_range(hbs_key *k, uint64_t first, uint64_t end)
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

const hbs_params *hbs_key_params(const hbs_key *k)
{
    return &k->p;
}

uint64_t hbs_key_ondemand(hbs_key *k)
{
    pthread_mutex_lock(&k->lock);
    uint64_t v = k->ondemand;
    pthread_mutex_unlock(&k->lock);
    return v;
}

static unsigned clamp_threads(unsigned threads)
{
    return threads < 1 ? 1 : threads > HBS_MAX_THREADS ? HBS_MAX_THREADS : threads;
}

uint64_t hbs_cache_changes(hbs_key *k)
{
    pthread_mutex_lock(&k->lock);
    uint64_t v = k->changes;
    pthread_mutex_unlock(&k->lock);
    return v;
}

/* ---- building subtrees ---------------------------------------------------- */

/* Bottom subtree `sub` of layer L (global numbering) into nodes. */
static int build_subtree(hbs_key *k, unsigned L, uint64_t sub, uint8_t *nodes, unsigned threads)
{
    const hbs_layer *ly = &k->layers[L];
    unsigned shift = ly->t - ly->b;
    uint64_t tree = sub >> shift;
    uint64_t base = (sub << ly->b) & (((uint64_t)1 << ly->t) - 1);
    k->ondemand++;
    k->changes++;
    int rc = hbs_leaves(&k->ctx, nodes, L, tree, (uint32_t)base, (size_t)1 << ly->b, threads,
                        k->progress, k->parg, k->pdone, k->ptotal);
    k->pdone += (uint64_t)1 << ly->b;
    if (rc == FASTSIG_OK)
        rc = hbs_nodes_up(&k->ctx, nodes, ly->b, L, tree, 0, base);
    return rc;
}

/* Heights >= b of tree `tree` at layer L (only when t > b), keeping the
 * bottom subtree `want` in cur on the way. */
static int build_top(hbs_key *k, unsigned L, uint64_t tree, uint64_t want)
{
    hbs_layer *ly = &k->layers[L];
    const size_t n = k->p.n;
    unsigned tb = ly->t - ly->b;
    uint8_t *tmp = malloc(sub_bytes(k, ly->b));
    if (tmp == NULL)
        return FASTSIG_ERR_NOMEM;
    ly->top_ok = 0;
    int rc = FASTSIG_OK;
    for (uint64_t s = 0; s < ((uint64_t)1 << tb) && rc == FASTSIG_OK; s++) {
        uint64_t sub = (tree << tb) + s;
        uint8_t *dst = sub == want ? ly->cur : tmp;
        if (sub == want)
            ly->cur_ok = 0;
        rc = build_subtree(k, L, sub, dst, k->threads);
        memcpy(ly->top + s * n, dst + hbs_level_off(ly->b, ly->b) * n, n);
        if (sub == want && rc == FASTSIG_OK) {
            ly->cur_sub = sub;
            ly->cur_ok = 1;
        }
    }
    free(tmp);
    if (rc == FASTSIG_OK)
        rc = hbs_nodes_up(&k->ctx, ly->top, tb, L, tree, ly->b, 0);
    if (rc == FASTSIG_OK) {
        ly->top_tree = tree;
        ly->top_ok = 1;
    }
    return rc;
}

/* Root of layer L's current tree (the cache must hold it). */
static const uint8_t *layer_root(const hbs_key *k, unsigned L)
{
    const hbs_layer *ly = &k->layers[L];
    if (ly->t > ly->b)
        return ly->top + hbs_level_off(ly->t - ly->b, ly->t - ly->b) * k->p.n;
    return ly->cur + hbs_level_off(ly->b, ly->b) * k->p.n;
}

/* Layer L's leaf g (global numbering) as the cache holds it, or NULL. */
static const uint8_t *cached_leaf(const hbs_key *k, unsigned L, uint64_t g)
{
    const hbs_layer *ly = &k->layers[L];
    uint64_t sub = g >> ly->b, off = g & (((uint64_t)1 << ly->b) - 1);
    if (ly->cur_ok && ly->cur_sub == sub)
        return ly->cur + off * k->p.n;
    if (ly->next != NULL && ly->next_sub == sub && ly->next_done > off)
        return ly->next + off * k->p.n;
    return NULL;
}

/* WOTS+ signature of `root` (layer L's tree `tree`) by layer L+1, checked
 * before anyone sees it: the public key it implies must be that layer's
 * leaf (cached, else recomputed). A fault in the chains would otherwise
 * let a re-signed root give this one-time key two signatures. */
static int sign_root(hbs_key *k, unsigned L, uint64_t tree, const uint8_t *root, uint8_t *sig)
{
    unsigned t = k->p.tree_h;
    uint32_t leaf = (uint32_t)(tree & (((uint64_t)1 << t) - 1));
    uint8_t wpk[HBS_MAX_LEN * HBS_MAX_N], node[HBS_MAX_N], fresh[HBS_MAX_N];
    hbs_adrs ots, lt;
    hbs_adrs_init(&ots, L + 1, tree >> t, HBS_ADRS_OTS);
    hbs_adrs_set_ots(&ots, leaf);
    hbs_adrs_init(&lt, L + 1, tree >> t, HBS_ADRS_LTREE);
    hbs_adrs_set_ltree(&lt, leaf);
    FS_DECLASSIFY(root, k->p.n);   /* public: verifiers recompute it from signatures */
    int rc = hbs_wots_sign(&k->ctx, sig, root, &ots);
    if (rc == FASTSIG_OK && hbs_fault_hook != NULL)
        hbs_fault_hook(HBS_FAULT_ROOT_SIG, sig, hbs_wots_sig_bytes(&k->p));
    if (rc == FASTSIG_OK)
        rc = hbs_wots_pk_from_sig(&k->ctx, wpk, sig, root, &ots);
    if (rc == FASTSIG_OK)
        rc = hbs_ltree(&k->ctx, node, wpk, &lt, 1);
    const uint8_t *want = cached_leaf(k, L + 1, tree);
    if (rc == FASTSIG_OK && want == NULL) {
        rc = hbs_leaves(&k->ctx, fresh, L + 1, tree >> t, leaf, 1, 1, NULL, NULL, 0, 0);
        want = fresh;
    }
    /* both are the upper tree's public leaf when nothing faulted (verifiers
     * recompute node from the signature) */
    FS_DECLASSIFY(node, k->p.n);
    if (want != NULL)
        FS_DECLASSIFY(want, k->p.n);
    if (rc == FASTSIG_OK && memcmp(node, want, k->p.n) != 0)
        rc = FASTSIG_ERR_FAULT;
    if (rc != FASTSIG_OK)
        wipe(sig, hbs_wots_sig_bytes(&k->p));
    return rc;
}

/* Makes layer L's cache hold what signing at global leaf g of that layer
 * needs: its bottom subtree, its tree's top, its root's signature. */
/* When the nodes prepared ahead (*ahead: all 2^height leaves of `want`
 * done) are the ones needed now, they become current and the old current
 * buffer is reused for the next preparation; 1 when that happened. */
static int take_ahead(hbs_key *k, uint8_t **cur, uint8_t **ahead, uint64_t *ahead_id,
                      uint32_t *ahead_done, uint64_t want, unsigned height)
{
    if (*ahead == NULL || *ahead_id != want || *ahead_done != ((uint32_t)1 << height))
        return 0;
    k->changes++;
    uint8_t *t = *cur;
    *cur = *ahead;
    *ahead = t;
    *ahead_done = 0;
    *ahead_id = 0;
    return 1;
}

static int ensure_layer(hbs_key *k, unsigned L, uint64_t g)
{
    hbs_layer *ly = &k->layers[L];
    uint64_t sub = g >> ly->b, tree = g >> ly->t;
    int rc = FASTSIG_OK;
    if (ly->t > ly->b && !(ly->top_ok && ly->top_tree == tree)) {
        if (take_ahead(k, &ly->top, &ly->ntop, &ly->ntop_tree, &ly->ntop_done, tree, ly->t)) {
            ly->top_tree = tree;
            ly->top_ok = 1;
        } else {
            rc = build_top(k, L, tree, sub);
        }
    }
    if (rc == FASTSIG_OK && !(ly->cur_ok && ly->cur_sub == sub)) {
        if (!take_ahead(k, &ly->cur, &ly->next, &ly->next_sub, &ly->next_done, sub, ly->b)) {
            ly->cur_ok = 0;
            rc = build_subtree(k, L, sub, ly->cur, k->threads);
        }
        if (rc == FASTSIG_OK) {
            ly->cur_sub = sub;
            ly->cur_ok = 1;
        }
    }
    if (rc == FASTSIG_OK && L + 1 < k->p.d && !(ly->sig_ok && ly->sig_tree == tree)) {
        k->changes++;
        if (ly->next_sig_ok && ly->next_sig_tree == tree) {
            uint8_t *t = ly->sig;
            ly->sig = ly->next_sig;
            ly->next_sig = t;
            ly->next_sig_ok = 0;
        } else {
            ly->sig_ok = 0;
            k->ondemand++;
            rc = sign_root(k, L, tree, layer_root(k, L), ly->sig);
        }
        if (rc == FASTSIG_OK) {
            ly->sig_tree = tree;
            ly->sig_ok = 1;
        }
    }
    return rc;
}

/* Leaves of the next bottom subtree prepared per signature at layer L:
 * rounded up to this many, so each batch fills the engine's lanes. */
#define NEXT_GRAIN 2

/* How many of the 2^height leaves of something being prepared (done so far)
 * should be done after signing at idx, when it must be complete by the end
 * of the current span of 2^(height + tl) signatures. On schedule it is as far
 * along as the signatures of the span (pos, 1-based); behind schedule (after
 * a jump) it catches up evenly over the signatures left, not all at once. */
static uint64_t schedule(uint64_t idx, unsigned tl, unsigned height, uint64_t done)
{
    uint64_t full = (uint64_t)1 << height, span = (uint64_t)1 << (height + tl);
    uint64_t pos = (idx & (span - 1)) + 1;
    uint64_t sched = (pos + ((uint64_t)1 << tl) - 1) >> tl;
    sched = (sched + NEXT_GRAIN - 1) / NEXT_GRAIN * NEXT_GRAIN;
    if (done >= full || sched <= done)
        return done;
    uint64_t need = full - done, left = span - pos + 1;
    uint64_t step = (need + left - 1) / left;
    step = (step + NEXT_GRAIN - 1) / NEXT_GRAIN * NEXT_GRAIN;
    return done + (step < need ? step : need);
}

/* After signing at idx: bring layer L's next bottom subtree to the share of
 * its leaves that the progress through the current one calls for. */
static int advance_layer(hbs_key *k, unsigned L, uint64_t idx)
{
    hbs_layer *ly = &k->layers[L];
    if (ly->next == NULL)
        return FASTSIG_OK;
    unsigned tl = k->p.tree_h * L, b = ly->b;
    uint64_t g = idx >> tl, sub = g >> b;
    uint32_t full = (uint32_t)1 << b;
    if (sub + 1 >= layer_subtrees(&k->p, L, b))
        return FASTSIG_OK;
    if (ly->next_sub != sub + 1) {
        ly->next_sub = sub + 1;
        ly->next_done = 0;
        k->changes++;
    }
    if (ly->next_done == full)
        return FASTSIG_OK;
    uint64_t want = schedule(idx, tl, b, ly->next_done);
    if (want == ly->next_done)
        return FASTSIG_OK;
    k->changes++;
    unsigned shift = ly->t - b;
    uint64_t tree = ly->next_sub >> shift;
    uint64_t base = (ly->next_sub << b) & (((uint64_t)1 << ly->t) - 1);
    int rc = hbs_leaves(&k->ctx, ly->next + (size_t)ly->next_done * k->p.n, L, tree,
                        (uint32_t)(base + ly->next_done), (size_t)(want - ly->next_done), 1,
                        NULL, NULL, 0, 0);
    if (rc != FASTSIG_OK)
        return rc;
    if (want == full) {
        rc = hbs_nodes_up(&k->ctx, ly->next, b, L, tree, 0, base);
        if (rc != FASTSIG_OK)
            return rc;
        /* a whole next layer tree: sign its root now, not at the crossing */
        if (ly->t == b && L + 1 < k->p.d) {
            ly->next_sig_ok = 0;
            rc = sign_root(k, L, tree, ly->next + hbs_level_off(b, b) * k->p.n, ly->next_sig);
            if (rc != FASTSIG_OK)
                return rc;
            ly->next_sig_tree = tree;
            ly->next_sig_ok = 1;
        }
    }
    ly->next_done = (uint32_t)want;
    return FASTSIG_OK;
}

/* For a layer whose trees are split (t > b): build the next tree's heights
 * b..t a few leaves per signature, one bottom subtree at a time, and sign
 * its root when done, so crossing into it needs no 2^t-leaf rebuild. */
static int advance_top(hbs_key *k, unsigned L, uint64_t idx)
{
    hbs_layer *ly = &k->layers[L];
    if (ly->ntop == NULL)
        return FASTSIG_OK;
    const size_t n = k->p.n;
    unsigned tl = k->p.tree_h * L, t = ly->t, b = ly->b;
    uint64_t tree = (idx >> tl) >> t, full = (uint64_t)1 << t;
    if (tree + 1 >= (uint64_t)1 << (k->p.h - tl - t))
        return FASTSIG_OK;
    if (ly->ntop_tree != tree + 1) {
        ly->ntop_tree = tree + 1;
        ly->ntop_done = 0;
        k->changes++;
    }
    uint64_t want = schedule(idx, tl, t, ly->ntop_done), before = ly->ntop_done;
    if (want != before)
        k->changes++;
    int rc = FASTSIG_OK;
    while (ly->ntop_done < want && rc == FASTSIG_OK) {
        uint64_t done = ly->ntop_done, off = done & (((uint64_t)1 << b) - 1);
        uint64_t cnt = ((uint64_t)1 << b) - off;
        if (cnt > want - done)
            cnt = want - done;
        rc = hbs_leaves(&k->ctx, ly->nbot + off * n, L, tree + 1, (uint32_t)done, (size_t)cnt, 1,
                        NULL, NULL, 0, 0);
        if (rc == FASTSIG_OK && off + cnt == ((uint64_t)1 << b)) {
            uint64_t base = done + cnt - ((uint64_t)1 << b);
            rc = hbs_nodes_up(&k->ctx, ly->nbot, b, L, tree + 1, 0, base);
            memcpy(ly->ntop + (base >> b) * n, ly->nbot + hbs_level_off(b, b) * n, n);
        }
        if (rc == FASTSIG_OK)
            ly->ntop_done = (uint32_t)(done + cnt);
    }
    if (rc != FASTSIG_OK || before == full || ly->ntop_done != full)
        return rc;
    unsigned tb = t - b;
    rc = hbs_nodes_up(&k->ctx, ly->ntop, tb, L, tree + 1, b, 0);
    if (rc == FASTSIG_OK && L + 1 < k->p.d) {
        ly->next_sig_ok = 0;
        rc = sign_root(k, L, tree + 1, ly->ntop + hbs_level_off(tb, tb) * n, ly->next_sig);
        if (rc == FASTSIG_OK) {
            ly->next_sig_tree = tree + 1;
            ly->next_sig_ok = 1;
        }
    }
    if (rc != FASTSIG_OK)
        ly->ntop_done = 0; /* start over rather than trust half a tree */
    return rc;
}

/* ---- key generation and import -------------------------------------------- */

int hbs_keygen(const hbs_params *p, const uint8_t *seed, size_t seedlen, unsigned threads,
               hbs_progress_fn progress, void *parg, hbs_key **out)
{
    if (out == NULL || seed == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    if (p == NULL || (p->kind != HBS_KIND_XMSS && p->kind != HBS_KIND_XMSSMT))
        return FASTSIG_ERR_BAD_PARAM;
    if (seedlen != 3u * p->n)
        return FASTSIG_ERR_BAD_LENGTH;
    hbs_key *k;
    int rc = key_new(p, seed, seed + p->n, seed + 2 * p->n, &k);
    if (rc != FASTSIG_OK)
        return rc;
    unsigned top = p->d - 1;
    int lower = p->tree_h <= HBS_BOTTOM_H; /* cheap: prepare every layer */
    k->threads = clamp_threads(threads);
    k->progress = progress;
    k->parg = parg;
    k->pdone = 0;
    k->ptotal = ((uint64_t)1 << p->tree_h) * (lower ? p->d : 1);
    rc = ensure_layer(k, top, 0);
    if (rc == FASTSIG_OK)
        memcpy(k->root, layer_root(k, top), p->n);
    for (unsigned L = 0; lower && L < top && rc == FASTSIG_OK; L++)
        rc = ensure_layer(k, L, 0);
    k->progress = NULL;
    k->threads = 2;
    k->checked = 1; /* the root is the seeds' by construction */
    if (rc != FASTSIG_OK) {
        hbs_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}

/* The XMSS / XMSS^MT row named by the oid in a key's first 4 bytes. */
static int tree_row_of(int kind, const uint8_t *key, size_t len, const hbs_params **p)
{
    if (len < 4)
        return FASTSIG_ERR_BAD_LENGTH;
    *p = hbs_params_by_oid(kind, (uint32_t)hbs_get_be(key, 4));
    return *p == NULL || kind == HBS_KIND_WOTSP ? FASTSIG_ERR_BAD_KEY : FASTSIG_OK;
}

int hbs_key_from_sk(int kind, const uint8_t *sk, size_t sklen, uint64_t *idx, hbs_key **out)
{
    if (sk == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    const hbs_params *p;
    int rc = tree_row_of(kind, sk, sklen, &p);
    if (rc != FASTSIG_OK)
        return rc;
    if (sklen != hbs_sk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    const uint8_t *s = sk + 4 + p->idx_bytes;
    uint64_t i = hbs_get_be(sk + 4, p->idx_bytes);
    if (i > hbs_last_index(p) + (p->h < 64)) /* idx 2^h = exhausted, still a key */
        return FASTSIG_ERR_BAD_KEY;
    hbs_key *k;
    rc = key_new(p, s, s + p->n, s + 3 * p->n, &k);
    if (rc != FASTSIG_OK)
        return rc;
    memcpy(k->root, s + 2 * p->n, p->n);
    if (idx != NULL)
        *idx = i;
    *out = k;
    return FASTSIG_OK;
}

int hbs_key_export_pk(const hbs_key *k, uint8_t *pk, size_t pklen)
{
    if (k == NULL || pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t n = k->p.n;
    if (pklen != hbs_pk_bytes(&k->p))
        return FASTSIG_ERR_BAD_LENGTH;
    hbs_put_be(pk, 4, k->p.oid);
    memcpy(pk + 4, k->root, n);
    memcpy(pk + 4 + n, k->pub_seed, n);
    return FASTSIG_OK;
}

int hbs_key_export_sk(const hbs_key *k, uint64_t idx, uint8_t *sk, size_t sklen)
{
    if (k == NULL || sk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    const hbs_params *p = &k->p;
    size_t n = p->n;
    if (sklen != hbs_sk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (idx > hbs_last_index(p) + (p->h < 64))
        return FASTSIG_ERR_BAD_PARAM;
    hbs_put_be(sk, 4, p->oid);
    uint8_t *s = sk + 4;
    hbs_put_be(s, p->idx_bytes, idx);
    s += p->idx_bytes;
    memcpy(s, k->sk_seed, n);
    memcpy(s + n, k->sk_prf, n);
    memcpy(s + 2 * n, k->root, n);
    memcpy(s + 3 * n, k->pub_seed, n);
    return FASTSIG_OK;
}

/* ---- the seeds against the root ------------------------------------------- */

static int check_locked(hbs_key *k)
{
    const hbs_params *p = &k->p;
    const size_t n = p->n;
    unsigned top = p->d - 1;
    hbs_layer *ly = &k->layers[top];
    uint8_t node[HBS_MAX_N], auth[HBS_MAX_H * HBS_MAX_N];
    int rc;
    if (k->bad)
        return FASTSIG_ERR_KEY_MISMATCH;
    if (k->checked)
        return FASTSIG_OK;
    if (ly->cur_ok && (ly->t == ly->b || ly->top_ok)) {
        /* the top layer has one tree: its cached nodes give the path */
        uint64_t leaf = ly->cur_sub << ly->b;
        rc = hbs_leaves(&k->ctx, node, top, 0, (uint32_t)leaf, 1, 1, NULL, NULL, 0, 0);
        hbs_auth_from(p, auth, ly->cur, ly->b, 0);
        if (ly->t > ly->b)
            hbs_auth_from(p, auth + ly->b * n, ly->top, ly->t - ly->b, leaf >> ly->b);
        if (rc == FASTSIG_OK)
            rc = hbs_root_from_auth(&k->ctx, node, node, leaf, auth, ly->t, top, 0);
    } else {
        rc = ensure_layer(k, top, 0);
        if (rc == FASTSIG_OK)
            memcpy(node, layer_root(k, top), n);
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

int hbs_key_check(hbs_key *k)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&k->lock);
    int rc = check_locked(k);
    pthread_mutex_unlock(&k->lock);
    return rc;
}

/* ---- signing -------------------------------------------------------------- */

static int sign_locked(hbs_key *k, uint64_t idx, const uint8_t *msg, size_t msglen,
                       uint8_t *sig)
{
    const hbs_params *p = &k->p;
    const size_t n = p->n, wsig = hbs_wots_sig_bytes(p);
    uint8_t digest[HBS_MAX_N];
    uint8_t *s = sig;
    int rc = check_locked(k);
    if (rc != FASTSIG_OK)
        return rc;
    hbs_put_be(s, p->idx_bytes, idx);
    s += p->idx_bytes;
    rc = hbs_prf_msg(&k->ctx, s, idx);
    if (rc == FASTSIG_OK)
        rc = hbs_hash_msg(&k->ctx, digest, s, k->root, idx, msg, msglen);
    s += n;
    for (unsigned L = 0; L < p->d && rc == FASTSIG_OK; L++) {
        uint64_t g = idx >> (p->tree_h * L);
        hbs_layer *ly = &k->layers[L];
        rc = ensure_layer(k, L, g);
        if (rc != FASTSIG_OK)
            break;
        uint64_t tree = g >> ly->t, leaf = g & (((uint64_t)1 << ly->t) - 1);
        if (L == 0) {
            hbs_adrs ots;
            hbs_adrs_init(&ots, 0, tree, HBS_ADRS_OTS);
            hbs_adrs_set_ots(&ots, (uint32_t)leaf);
            rc = hbs_wots_sign(&k->ctx, s, digest, &ots);
        } else {
            memcpy(s, k->layers[L - 1].sig, wsig);
        }
        s += wsig;
        hbs_auth_from(p, s, ly->cur, ly->b, leaf & (((uint64_t)1 << ly->b) - 1));
        if (ly->t > ly->b)
            hbs_auth_from(p, s + ly->b * n, ly->top, ly->t - ly->b, leaf >> ly->b);
        s += ly->t * n;
    }
    /* preparing ahead only fills the cache: a failure there (memory) is
     * not the signature's, which is complete; the next call retries */
    for (unsigned L = 0; L < p->d && rc == FASTSIG_OK; L++)
        if (advance_layer(k, L, idx) != FASTSIG_OK || advance_top(k, L, idx) != FASTSIG_OK)
            break;
    return rc;
}

int hbs_sign(hbs_key *k, uint64_t idx, const uint8_t *msg, size_t msglen, uint8_t *sig,
             size_t siglen)
{
    if (k == NULL || sig == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    if (siglen != hbs_sig_bytes(&k->p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (idx < k->first || idx > k->last)
        return FASTSIG_ERR_KEY_EXHAUSTED;
    pthread_mutex_lock(&k->lock);
    int rc = sign_locked(k, idx, msg, msglen, sig);
    pthread_mutex_unlock(&k->lock);
    if (rc == FASTSIG_OK && hbs_fault_hook != NULL)
        hbs_fault_hook(HBS_FAULT_SIG, sig, siglen);
    if (rc != FASTSIG_OK)
        wipe(sig, siglen);
    return rc;
}

int hbs_sign_verified(hbs_key *k, uint64_t idx, const uint8_t *msg, size_t msglen,
                      uint8_t *sig, size_t siglen)
{
    uint8_t pk[4 + 2 * HBS_MAX_N];
    int rc = hbs_sign(k, idx, msg, msglen, sig, siglen);
    if (rc == FASTSIG_OK)
        rc = hbs_key_export_pk(k, pk, hbs_pk_bytes(&k->p));
    /* verifying branches on R and the digits of the message digest, which
     * the signature publishes anyway; its chain values go through the
     * hash kernels as in signing */
    FS_DECLASSIFY(sig, siglen);
    if (rc == FASTSIG_OK && hbs_verify_p(&k->p, pk, hbs_pk_bytes(&k->p), msg, msglen, sig,
                                         siglen) != FASTSIG_OK)
        rc = FASTSIG_ERR_FAULT;
    if (rc != FASTSIG_OK)
        wipe(sig, siglen);
    return rc;
}

/* ---- verification --------------------------------------------------------- */

int hbs_verify_p(const hbs_params *p, const uint8_t *pk, size_t pklen, const uint8_t *msg,
                 size_t msglen, const uint8_t *sig, size_t siglen)
{
    if (p == NULL || pk == NULL || sig == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    if (p->kind != HBS_KIND_XMSS && p->kind != HBS_KIND_XMSSMT)
        return FASTSIG_ERR_BAD_PARAM;
    if (pklen != hbs_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (hbs_get_be(pk, 4) != p->oid)
        return FASTSIG_ERR_BAD_KEY;
    if (siglen != hbs_sig_bytes(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    const size_t n = p->n, wsig = hbs_wots_sig_bytes(p);
    const uint8_t *root = pk + 4;
    uint64_t idx = hbs_get_be(sig, p->idx_bytes);
    if (idx > hbs_last_index(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    hbs_ctx c;
    int rc = hbs_ctx_init(&c, p, pk + 4 + n, NULL, NULL);
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t node[HBS_MAX_N], wpk[HBS_MAX_LEN * HBS_MAX_N];
    const uint8_t *s = sig + p->idx_bytes;
    rc = hbs_hash_msg(&c, node, s, root, idx, msg, msglen);
    s += n;
    for (unsigned L = 0; L < p->d && rc == FASTSIG_OK; L++) {
        uint64_t g = idx >> (p->tree_h * L);
        uint64_t tree = g >> p->tree_h, leaf = g & (((uint64_t)1 << p->tree_h) - 1);
        hbs_adrs ots, lt;
        hbs_adrs_init(&ots, L, tree, HBS_ADRS_OTS);
        hbs_adrs_set_ots(&ots, (uint32_t)leaf);
        hbs_adrs_init(&lt, L, tree, HBS_ADRS_LTREE);
        hbs_adrs_set_ltree(&lt, (uint32_t)leaf);
        rc = hbs_wots_pk_from_sig(&c, wpk, s, node, &ots);
        if (rc == FASTSIG_OK)
            rc = hbs_ltree(&c, node, wpk, &lt, 1);
        s += wsig;
        if (rc == FASTSIG_OK)
            rc = hbs_root_from_auth(&c, node, node, leaf, s, p->tree_h, L, tree);
        s += (size_t)p->tree_h * n;
    }
    if (rc == FASTSIG_OK) {
        uint8_t diff = 0;
        for (size_t i = 0; i < n; i++)
            diff |= node[i] ^ root[i];
        rc = diff ? FASTSIG_ERR_VERIFY : FASTSIG_OK;
    }
    hbs_ctx_clear(&c);
    return rc;
}

int hbs_verify(int kind, const uint8_t *pk, size_t pklen, const uint8_t *msg, size_t msglen,
               const uint8_t *sig, size_t siglen)
{
    if (pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    const hbs_params *p;
    int rc = tree_row_of(kind, pk, pklen, &p);
    return rc != FASTSIG_OK ? rc : hbs_verify_p(p, pk, pklen, msg, msglen, sig, siglen);
}
