/* xmss_cache.c - the XMSS / XMSS^MT node cache: building a layer's subtrees
 * and top, signing its roots with a check, and preparing the next ones a few
 * leaves per signature (see xmss.h for the contract, xmss_key.h for the
 * cache's fields). */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "ctgrind.h"
#include "xmss/xmss_test_hook.h"
#include "xmss/xmss_key.h"
#include "xmss/wots_chain.h"

/* ---- building subtrees ---------------------------------------------------- */

/* Bottom subtree `sub` of layer L (global numbering) into nodes. */
static int build_subtree(xmss_key *k, unsigned L, uint64_t sub, uint8_t *nodes, unsigned threads)
{
    const xmss_layer *ly = &k->layers[L];
    unsigned shift = ly->t - ly->b;
    uint64_t tree = sub >> shift;
    uint64_t base = (sub << ly->b) & (((uint64_t)1 << ly->t) - 1);
    k->ondemand++;
    k->changes++;
    int rc = xmss_leaves(&k->ctx, nodes, L, tree, (uint32_t)base, (size_t)1 << ly->b, threads,
                        k->progress, k->parg, k->pdone, k->ptotal);
    k->pdone += (uint64_t)1 << ly->b;
    if (rc == FASTSIG_OK)
        rc = xmss_nodes_up(&k->ctx, nodes, ly->b, L, tree, 0, base);
    return rc;
}

/* Heights >= b of tree `tree` at layer L (only when t > b), keeping the
 * bottom subtree `want` in cur on the way. */
static int build_top(xmss_key *k, unsigned L, uint64_t tree, uint64_t want)
{
    xmss_layer *ly = &k->layers[L];
    const size_t n = k->p.n;
    unsigned tb = ly->t - ly->b;
    uint8_t *tmp = malloc(xmss_sub_bytes(k, ly->b));
    if (tmp == NULL)
        return FASTSIG_ERR_NOMEM;
    ly->top_ok = 0;
    int rc = FASTSIG_OK;
    /* a key generation in pieces (xmss_keygen_resume): the top layer's
     * tree 0, its roots known from an earlier run taken, each saved */
    const xmss_resume *r = L + 1 == k->p.d && tree == 0 ? k->resume : NULL;
    for (uint64_t s = 0; s < ((uint64_t)1 << tb) && rc == FASTSIG_OK; s++) {
        uint64_t sub = (tree << tb) + s;
        uint8_t *dst = sub == want ? ly->cur : tmp;
        if (r != NULL && s < r->have && sub != want) {
            memcpy(ly->top + s * n, r->roots + s * n, n);
            k->pdone += (uint64_t)1 << ly->b;
            continue;
        }
        if (sub == want)
            ly->cur_ok = 0;
        rc = build_subtree(k, L, sub, dst, k->threads);
        memcpy(ly->top + s * n, dst + xmss_level_off(ly->b, ly->b) * n, n);
        if (sub == want && rc == FASTSIG_OK) {
            ly->cur_sub = sub;
            ly->cur_ok = 1;
        }
        if (rc == FASTSIG_OK && r != NULL && r->save != NULL && s + 1 >= r->have
            && r->save(r->arg, ly->top, s + 1, (uint64_t)1 << tb) != 0)
            rc = FASTSIG_ERR_INTERNAL;
    }
    free(tmp);
    if (rc == FASTSIG_OK)
        rc = xmss_nodes_up(&k->ctx, ly->top, tb, L, tree, ly->b, 0);
    if (rc == FASTSIG_OK) {
        ly->top_tree = tree;
        ly->top_ok = 1;
    }
    return rc;
}

/* Root of layer L's current tree (the cache must hold it). */
const uint8_t *xmss_layer_root(const xmss_key *k, unsigned L)
{
    const xmss_layer *ly = &k->layers[L];
    if (ly->t > ly->b)
        return ly->top + xmss_level_off(ly->t - ly->b, ly->t - ly->b) * k->p.n;
    return ly->cur + xmss_level_off(ly->b, ly->b) * k->p.n;
}

/* Layer L's leaf g (global numbering) as the cache holds it, or NULL. */
static const uint8_t *cached_leaf(const xmss_key *k, unsigned L, uint64_t g)
{
    const xmss_layer *ly = &k->layers[L];
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
static int sign_root(xmss_key *k, unsigned L, uint64_t tree, const uint8_t *root, uint8_t *sig)
{
    unsigned t = k->p.tree_h;
    uint32_t leaf = (uint32_t)(tree & (((uint64_t)1 << t) - 1));
    uint8_t wpk[XMSS_MAX_LEN * XMSS_MAX_N], node[XMSS_MAX_N], fresh[XMSS_MAX_N];
    xmss_adrs ots, lt;
    xmss_adrs_init(&ots, L + 1, tree >> t, XMSS_ADRS_OTS);
    xmss_adrs_set_ots(&ots, leaf);
    xmss_adrs_init(&lt, L + 1, tree >> t, XMSS_ADRS_LTREE);
    xmss_adrs_set_ltree(&lt, leaf);
    FS_DECLASSIFY(root, k->p.n);   /* public: verifiers recompute it from signatures */
    int rc = xmss_wots_sign(&k->ctx, sig, root, &ots);
    if (rc == FASTSIG_OK && xmss_fault_hook != NULL)
        xmss_fault_hook(XMSS_FAULT_ROOT_SIG, sig, xmss_wots_sig_bytes(&k->p));
    if (rc == FASTSIG_OK)
        rc = xmss_wots_pk_from_sig(&k->ctx, wpk, sig, root, &ots);
    if (rc == FASTSIG_OK)
        rc = xmss_ltree(&k->ctx, node, wpk, &lt, 1);
    const uint8_t *want = cached_leaf(k, L + 1, tree);
    if (rc == FASTSIG_OK && want == NULL) {
        rc = xmss_leaves(&k->ctx, fresh, L + 1, tree >> t, leaf, 1, 1, NULL, NULL, 0, 0);
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
        explicit_bzero(sig, xmss_wots_sig_bytes(&k->p));
    return rc;
}

/* Makes layer L's cache hold what signing at global leaf g of that layer
 * needs: its bottom subtree, its tree's top, its root's signature. */
/* When the nodes prepared ahead (*ahead: all 2^height leaves of `want`
 * done) are the ones needed now, they become current and the old current
 * buffer is reused for the next preparation; 1 when that happened. */
static int take_ahead(xmss_key *k, uint8_t **cur, uint8_t **ahead, uint64_t *ahead_id,
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

int xmss_ensure_layer(xmss_key *k, unsigned L, uint64_t g)
{
    xmss_layer *ly = &k->layers[L];
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
            rc = sign_root(k, L, tree, xmss_layer_root(k, L), ly->sig);
        }
        if (rc == FASTSIG_OK) {
            ly->sig_tree = tree;
            ly->sig_ok = 1;
        }
    }
    return rc;
}

/* Leaves of the next bottom subtree prepared per signature at layer L > 0:
 * rounded up to this many, so each batch fills the engine's lanes. Layer
 * 0 takes one leaf per signature, its chains in the signature's own batch
 * (xmss_sign_ahead.c), so every signature carries the same work. */
#define NEXT_GRAIN 2

/* How many of the 2^height leaves of something being prepared (done so far)
 * should be done after signing at idx, when it must be complete by the end
 * of the current span of 2^(height + tl) signatures. On schedule it is as far
 * along as the signatures of the span (pos, 1-based); behind schedule (after
 * a jump) it catches up evenly over the signatures left, not all at once. */
static uint64_t schedule(uint64_t idx, unsigned tl, unsigned height, uint64_t done,
                         unsigned grain)
{
    uint64_t full = (uint64_t)1 << height, span = (uint64_t)1 << (height + tl);
    uint64_t pos = (idx & (span - 1)) + 1;
    uint64_t sched = (pos + ((uint64_t)1 << tl) - 1) >> tl;
    sched = (sched + grain - 1) / grain * grain;
    if (done >= full || sched <= done)
        return done;
    uint64_t need = full - done, left = span - pos + 1;
    uint64_t step = (need + left - 1) / left;
    step = (step + grain - 1) / grain * grain;
    return done + (step < need ? step : need);
}

int xmss_next_due(xmss_key *k, unsigned L, uint64_t idx, xmss_next_leaves *due)
{
    xmss_layer *ly = &k->layers[L];
    *due = (xmss_next_leaves){ 0, 0, 0 };
    if (ly->next == NULL)
        return 0;
    unsigned tl = k->p.tree_h * L, b = ly->b;
    uint64_t g = idx >> tl, sub = g >> b;
    uint32_t full = (uint32_t)1 << b;
    if (sub + 1 >= xmss_layer_subtrees(&k->p, L, b))
        return 0;
    if (ly->next_sub != sub + 1) {
        ly->next_sub = sub + 1;
        ly->next_done = 0;
        k->changes++;
    }
    if (ly->next_done == full)
        return 0;
    uint64_t want = schedule(idx, tl, b, ly->next_done, L == 0 ? 1 : NEXT_GRAIN);
    if (want == ly->next_done)
        return 0;
    due->tree = ly->next_sub >> (ly->t - b);
    due->leaf = (uint32_t)(((ly->next_sub << b) & (((uint64_t)1 << ly->t) - 1)) + ly->next_done);
    due->count = (uint32_t)(want - ly->next_done);
    return 1;
}

int xmss_next_add(xmss_key *k, unsigned L, uint32_t count)
{
    xmss_layer *ly = &k->layers[L];
    if (count == 0)
        return FASTSIG_OK;
    k->changes++;
    unsigned b = ly->b;
    uint32_t full = (uint32_t)1 << b, want = ly->next_done + count;
    uint64_t tree = ly->next_sub >> (ly->t - b);
    uint64_t base = (ly->next_sub << b) & (((uint64_t)1 << ly->t) - 1);
    if (want == full) {
        int rc = xmss_nodes_up(&k->ctx, ly->next, b, L, tree, 0, base);
        if (rc != FASTSIG_OK)
            return rc;
        /* a whole next layer tree: sign its root now, not at the crossing */
        if (ly->t == b && L + 1 < k->p.d) {
            ly->next_sig_ok = 0;
            rc = sign_root(k, L, tree, ly->next + xmss_level_off(b, b) * k->p.n, ly->next_sig);
            if (rc != FASTSIG_OK)
                return rc;
            ly->next_sig_tree = tree;
            ly->next_sig_ok = 1;
        }
    }
    ly->next_done = want;
    return FASTSIG_OK;
}

/* After signing at idx: bring layer L's next bottom subtree to the share of
 * its leaves that the progress through the current one calls for. */
int xmss_advance_layer(xmss_key *k, unsigned L, uint64_t idx)
{
    xmss_next_leaves due;
    if (!xmss_next_due(k, L, idx, &due))
        return FASTSIG_OK;
    xmss_layer *ly = &k->layers[L];
    int rc = xmss_leaves(&k->ctx, ly->next + (size_t)ly->next_done * k->p.n, L, due.tree,
                         due.leaf, due.count, 1, NULL, NULL, 0, 0);
    return rc == FASTSIG_OK ? xmss_next_add(k, L, due.count) : rc;
}

/* For a layer whose trees are split (t > b): build the next tree's heights
 * b..t a few leaves per signature, one bottom subtree at a time, and sign
 * its root when done, so crossing into it needs no 2^t-leaf rebuild. */
int xmss_advance_top(xmss_key *k, unsigned L, uint64_t idx)
{
    xmss_layer *ly = &k->layers[L];
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
    uint64_t want = schedule(idx, tl, t, ly->ntop_done, NEXT_GRAIN), before = ly->ntop_done;
    if (want != before)
        k->changes++;
    int rc = FASTSIG_OK;
    while (ly->ntop_done < want && rc == FASTSIG_OK) {
        uint64_t done = ly->ntop_done, off = done & (((uint64_t)1 << b) - 1);
        uint64_t cnt = ((uint64_t)1 << b) - off;
        if (cnt > want - done)
            cnt = want - done;
        rc = xmss_leaves(&k->ctx, ly->nbot + off * n, L, tree + 1, (uint32_t)done, (size_t)cnt, 1,
                        NULL, NULL, 0, 0);
        if (rc == FASTSIG_OK && off + cnt == ((uint64_t)1 << b)) {
            uint64_t base = done + cnt - ((uint64_t)1 << b);
            rc = xmss_nodes_up(&k->ctx, ly->nbot, b, L, tree + 1, 0, base);
            memcpy(ly->ntop + (base >> b) * n, ly->nbot + xmss_level_off(b, b) * n, n);
        }
        if (rc == FASTSIG_OK)
            ly->ntop_done = (uint32_t)(done + cnt);
    }
    if (rc != FASTSIG_OK || before == full || ly->ntop_done != full)
        return rc;
    unsigned tb = t - b;
    rc = xmss_nodes_up(&k->ctx, ly->ntop, tb, L, tree + 1, b, 0);
    if (rc == FASTSIG_OK && L + 1 < k->p.d) {
        ly->next_sig_ok = 0;
        rc = sign_root(k, L, tree + 1, ly->ntop + xmss_level_off(tb, tb) * n, ly->next_sig);
        if (rc == FASTSIG_OK) {
            ly->next_sig_tree = tree + 1;
            ly->next_sig_ok = 1;
        }
    }
    if (rc != FASTSIG_OK)
        ly->ntop_done = 0; /* start over rather than trust half a tree */
    return rc;
}
