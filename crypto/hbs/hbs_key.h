/* hbs_key.h - private: the XMSS / XMSS^MT key object and its per-layer node
 * cache, shared by xmss.c (signing) and treecache.c (cache bytes). */
#ifndef FASTSIG_HBS_KEY_H
#define FASTSIG_HBS_KEY_H

#include <pthread.h>
#include <stdint.h>
#include "hbs/hbs_hash.h"
#include "hbs/params.h"
#include "hbs/tree.h"

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
} hbs_layer;

struct hbs_key {
    hbs_params p;            /* a copy: test rows may live on the stack */
    uint8_t sk_seed[HBS_MAX_N], sk_prf[HBS_MAX_N], pub_seed[HBS_MAX_N], root[HBS_MAX_N];
    hbs_ctx ctx;
    hbs_layer layers[HBS_MAX_D];
    unsigned threads;
    uint64_t first, last;    /* the indices this key may sign (a shard's range) */
    uint64_t ondemand;       /* subtrees / root signatures made on demand */
    uint64_t changes;        /* bumped by every change to the cache (treecache.c) */
    int checked;             /* the seeds are known to give root (hbs_key_check) */
    int bad;                 /* they do not: no signature, no cache export */
    pthread_mutex_t lock;
    /* progress reporting while generating */
    hbs_progress_fn progress;
    void *parg;
    uint64_t pdone, ptotal;
};

#endif
