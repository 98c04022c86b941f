/* xmss_key.h - private: the XMSS / XMSS^MT key object and its per-layer node
 * cache, shared by the xmss_*.c files and treecache.c (cache bytes). */
#ifndef FASTSIG_XMSS_KEY_H
#define FASTSIG_XMSS_KEY_H

#include <pthread.h>
#include <stdint.h>
#include "xmss/xmss_hash.h"
#include "xmss/params.h"
#include "xmss/tree.h"
#include "xmss/xmss.h"

/* One layer's cache. Subtrees are numbered globally per layer: leaf g of
 * the layer (g = idx >> (tree_h * L)) is in bottom subtree g >> b. */
typedef struct {
    unsigned t, b;           /* layer tree height, bottom subtree height */
    uint8_t *cur;            /* bottom subtree cur_sub, level arrays of height b */
    uint64_t cur_sub;
    int cur_ok;
    uint8_t *top;            /* t > b: heights b..t of tree top_tree */
    uint64_t top_tree;
    int top_ok;
    uint8_t *next;           /* subtree next_sub, being built: next_done leaves */
    uint64_t next_sub;       /* (NULL when the layer has one subtree only) */
    uint32_t next_done;      /* == 2^b: complete with its inner nodes */
    uint8_t *sig;            /* L < d-1: WOTS+ sig of root(sig_tree) by layer L+1 */
    uint64_t sig_tree;
    int sig_ok;
    uint8_t *next_sig;       /* the same for the next tree, made ahead */
    uint64_t next_sig_tree;
    int next_sig_ok;
    uint8_t *ntop;           /* t > b, several trees: heights b..t of tree */
    uint64_t ntop_tree;      /* ntop_tree (the next one), being built: */
    uint32_t ntop_done;      /* ntop_done of its 2^t leaves done, */
    uint8_t *nbot;           /* the bottom subtree in progress */
} xmss_layer;

struct xmss_key {
    xmss_params p;            /* a copy: test rows may live on the stack */
    uint8_t sk_seed[XMSS_MAX_N], sk_prf[XMSS_MAX_N], pub_seed[XMSS_MAX_N], root[XMSS_MAX_N];
    xmss_ctx ctx;
    xmss_layer layers[XMSS_MAX_D];
    unsigned threads;
    uint64_t first, last;    /* the indices this key may sign (a shard's range) */
    uint64_t ondemand;       /* subtrees / root signatures made on demand */
    uint64_t changes;        /* bumped by every change to the cache (treecache.c) */
    int checked;             /* the seeds are known to give root (xmss_key_check) */
    int bad;                 /* they do not: no signature, no cache export */
    pthread_mutex_t lock;
    /* progress reporting while generating */
    xmss_progress_fn progress;
    void *parg;
    uint64_t pdone, ptotal;
    const struct fs_keygen_resume_s *resume; /* key generation in pieces, or NULL */
};

/* ---- layer geometry ------------------------------------------------------ */

/* Bottom subtrees at layer L: 2^(h - t*L - b). */
static inline uint64_t xmss_layer_subtrees(const xmss_params *p, unsigned L, unsigned b)
{
    return (uint64_t)1 << (p->h - p->tree_h * L - b);
}

static inline size_t xmss_sub_bytes(const xmss_key *k, unsigned b)
{
    return xmss_subtree_nodes(b) * k->p.n;
}

/* ---- between the xmss_*.c files ------------------------------------------ */

/* xmss_key.c: a key from its seeds (root is filled by the caller); the
 * XMSS / XMSS^MT row named by the oid in a key's first 4 bytes. */
int xmss_key_new(const xmss_params *p, const uint8_t *sk_seed, const uint8_t *sk_prf,
                const uint8_t *pub_seed, xmss_key **out);
int xmss_tree_row_of(int kind, const uint8_t *key, size_t len, const xmss_params **p);

/* xmss_cache.c: make layer L's cache hold what signing at its global leaf
 * g needs; the root of layer L's current tree (the cache must hold it);
 * after signing at idx, prepare layer L's next bottom subtree and, for a
 * split layer, its next tree's top, a share at a time. */
int xmss_ensure_layer(xmss_key *k, unsigned L, uint64_t g);
const uint8_t *xmss_layer_root(const xmss_key *k, unsigned L);
int xmss_advance_layer(xmss_key *k, unsigned L, uint64_t idx);
/* The same in two halves, for a caller that computes the leaves itself
 * (xmss_sign_ahead.c): the leaves due after signing at idx (1, with
 * leaves leaf .. leaf+count-1 of layer L's tree `tree`, to be written at
 * next + next_done * n; 0 when none are), then, once they are there, the
 * count added (the subtree finished and its root signed when full). */
typedef struct {
    uint64_t tree;
    uint32_t leaf, count;
} xmss_next_leaves;
int xmss_next_due(xmss_key *k, unsigned L, uint64_t idx, xmss_next_leaves *due);
int xmss_next_add(xmss_key *k, unsigned L, uint32_t count);
/* xmss_sign_ahead.c: layer 0's one-time signature of digest at idx (OTS
 * address ots) with the next bottom subtree's leaves due then, every
 * chain of both in one batch; *added: the leaves written (0 when none
 * were due, too many, or their L-tree failed: xmss_advance_layer makes
 * them). */
int xmss_sign_ahead(xmss_key *k, uint64_t idx, uint8_t *sig, const uint8_t *digest,
                    const xmss_adrs *ots, uint32_t *added);
int xmss_advance_top(xmss_key *k, unsigned L, uint64_t idx);

#endif
