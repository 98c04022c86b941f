/* tree.h - Merkle tree work in batches: leaves (WOTS+ public keys compressed
 * by L-trees), internal nodes, authentication paths and root recomputation.
 *
 * Node storage: a subtree of height b kept as "level arrays": level l (0 =
 * its lowest level) holds 2^(b-l) nodes of n bytes at node offset
 * xmss_level_off(b, l), so siblings are adjacent and a whole level is one
 * engine batch. A subtree is placed in its tree by (base_level, base_index):
 * its level-0 nodes are the tree's nodes at height base_level, indices
 * base_index .. base_index + 2^b - 1. Functions return FASTSIG_OK or a
 * fastsig_err code. */
#ifndef FASTSIG_XMSS_TREE_H
#define FASTSIG_XMSS_TREE_H

#include <stddef.h>
#include <stdint.h>
#include "xmss/adrs.h"
#include "xmss/xmss_hash.h"

/* Progress callback: done of total leaves computed so far. Returning
 * nonzero asks to stop (the call then fails with FASTSIG_ERR_INTERNAL). */
typedef int (*xmss_progress_fn)(void *arg, uint64_t done, uint64_t total);

static inline size_t xmss_level_off(unsigned b, unsigned l)
{
    return ((size_t)2 << b) - ((size_t)2 << (b - l));
}
static inline size_t xmss_subtree_nodes(unsigned b)
{
    return ((size_t)2 << b) - 1;
}

/* L-tree compression of `keys` WOTS+ public keys (pk: keys * len * n bytes,
 * clobbered) into keys leaves; ltree[k] is key k's L-tree address. */
int xmss_ltree(const xmss_ctx *c, uint8_t *out, uint8_t *pk, const xmss_adrs *ltree, size_t keys);
/* One key's L-tree (xmss_ltree with keys = 1; pk clobbered), on fixed
 * stack buffers (tree_root.c). */
int xmss_ltree_one(const xmss_ctx *c, uint8_t *out, uint8_t *pk, const xmss_adrs *ltree);
/* The same for one key in two steps: the keys and bitmasks of its L-tree
 * nodes (xmss_ltree_masks_bytes(p) bytes into km), which depend only on
 * PUB_SEED and the L-tree address (a one-time key can keep them: WOTSP
 * verification), then the L-tree from them (pk clobbered). */
size_t xmss_ltree_masks_bytes(const xmss_params *p);
int xmss_ltree_masks(const xmss_ctx *c, uint8_t *km, const xmss_adrs *ltree);
int xmss_ltree_with(const xmss_ctx *c, uint8_t *out, uint8_t *pk, const uint8_t *km);

/* Most threads xmss_leaves runs at once. */
#define XMSS_MAX_THREADS 64

/* The leaves first .. first + count - 1 of tree (layer, tree) into out
 * (count * n bytes), on up to `threads` threads (1 .. XMSS_MAX_THREADS, at
 * most one per 16 leaves; the caller's thread is one of them; the leaves do
 * not depend on the count). progress (may be NULL) is called on the caller's thread with
 * done counted from progress_base, out of progress_total. */
int xmss_leaves(const xmss_ctx *c, uint8_t *out, uint32_t layer, uint64_t tree, uint32_t first,
               size_t count, unsigned threads, xmss_progress_fn progress, void *parg,
               uint64_t progress_base, uint64_t progress_total);

/* Fills levels 1..b of a subtree whose level 0 is already in nodes. */
int xmss_nodes_up(const xmss_ctx *c, uint8_t *nodes, unsigned b, uint32_t layer, uint64_t tree,
                 unsigned base_level, uint64_t base_index);

/* Appends the auth path of leaf `leaf` (index within the subtree) from levels
 * 0 .. b-1 of a subtree: b nodes into auth. */
void xmss_auth_from(const xmss_params *p, uint8_t *auth, const uint8_t *nodes, unsigned b,
                   uint64_t leaf);

/* Root of tree (layer, tree) from a leaf node, its index and auth path (t nodes). */
int xmss_root_from_auth(const xmss_ctx *c, uint8_t *root, const uint8_t *leaf, uint64_t leaf_idx,
                       const uint8_t *auth, unsigned t, uint32_t layer, uint64_t tree);

#endif
