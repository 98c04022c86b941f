/* lms_tree.h - one LMS tree (RFC 8554 section 5): key generation, signing
 * at a given leaf, verification, with a node cache in memory.
 *
 * Node r of the tree (r = 1 the root, 2^h <= r < 2^(h+1) the leaves):
 *   leaf:     T[r] = H(I || u32str(r) || u16str(D_LEAF) || K_{r - 2^h})
 *   interior: T[r] = H(I || u32str(r) || u16str(D_INTR) || T[2r] || T[2r+1])
 * Public key: u32str(lms type) || u32str(ots type) || I || T[1];
 * signature at q: u32str(q) || LM-OTS sig || u32str(lms type) || path
 * (h nodes, bottom up).
 *
 * Cache: the levels from `cut` up to the root are kept (at most 2^16
 * nodes: cut = max(0, h - 15)), and levels 0 .. cut-1 of the bottom
 * subtree of height cut that the last signature used. A signature in
 * another bottom subtree recomputes its 2^cut leaves first (h = 20: 32
 * leaves, h = 25: 1024); below h = 20 nothing is ever recomputed.
 *
 * Signing takes the leaf index from the caller: the core never reuses an
 * index by itself, and never remembers which were used (the state is the
 * caller's). The randomizer is C = H(I || u32str(q) || u16str(0xfffd) ||
 * u8str(0xff) || SEED), as hash-sigs derives it. A tree is not safe for
 * concurrent signing (the bottom cache changes); verification is stateless. */
#ifndef FASTSIG_LMS_TREE_H
#define FASTSIG_LMS_TREE_H

#include <stddef.h>
#include <stdint.h>
#include "lms/lms_params.h"

/* done of total leaves computed; nonzero asks to stop (the call then
 * fails with FASTSIG_ERR_INTERNAL). */
typedef int (*lms_progress_fn)(void *arg, uint64_t done, uint64_t total);

typedef struct lms_tree lms_tree;

#define LMS_TOP_LEVELS 15
#define LMS_MAX_THREADS 64

/* A tree from SEED (m bytes) and I. FASTSIG_ERR_UNSUPPORTED when the sets
 * may not pair (lms_pair_ok). */
int lms_tree_gen(lms_tree **out, const lms_params *lp, const lmots_params *op,
                 const uint8_t I[LMS_I_BYTES], const uint8_t *seed, lms_progress_fn progress,
                 void *parg);
/* The same with at most top_levels levels kept above the cut (lms_tree_gen:
 * LMS_TOP_LEVELS; the tests take fewer to run the bottom-subtree path on
 * small trees) and the leaves on up to `threads` threads (see build). */
int lms_tree_gen_top(lms_tree **out, const lms_params *lp, const lmots_params *op,
                     const uint8_t I[LMS_I_BYTES], const uint8_t *seed, unsigned top_levels,
                     unsigned threads, lms_progress_fn progress, void *parg);
/* A tree built a little at a time (the next tree of an HSS level):
 * start allocates it, build computes leaves in order until `upto` are done
 * (rounded up to whole bottom subtrees when h > 15) and, once all are, the
 * levels above. build shares the leaves among up to `threads` threads
 * (1 .. LMS_MAX_THREADS): each takes the next unit (one bottom subtree, or
 * 256 leaves when h <= 15) from a shared cursor until none is left, so no
 * thread idles while another still has work; the caller's thread is one of
 * them and the one that calls progress; the result does not depend on the
 * count.
 * Signing needs a complete tree (else FASTSIG_ERR_INTERNAL); the public key
 * is defined only then. */
int lms_tree_start(lms_tree **out, const lms_params *lp, const lmots_params *op,
                   const uint8_t I[LMS_I_BYTES], const uint8_t *seed, unsigned top_levels);
int lms_tree_build(lms_tree *t, uint64_t upto, unsigned threads, lms_progress_fn progress,
                   void *parg);
int lms_tree_complete(const lms_tree *t);
void lms_tree_free(lms_tree *t);
const lms_params *lms_tree_lms(const lms_tree *t);
const lmots_params *lms_tree_ots(const lms_tree *t);
const uint8_t *lms_tree_I(const lms_tree *t);
const uint8_t *lms_tree_seed(const lms_tree *t);
/* The public key (lms_pub_bytes). */
void lms_tree_pub(const lms_tree *t, uint8_t *pub);
/* The signature at leaf q (< 2^h) into sig (lms_sig_bytes). */
int lms_tree_sign(lms_tree *t, uint32_t q, const uint8_t *msg, size_t mlen, uint8_t *sig);
/* A streamed message's: C from lms_randomizer (the tree's I and SEED at q)
 * and Q from lmots_digest_begin's stream; the bytes of lms_tree_sign. */
int lms_tree_sign_digest(lms_tree *t, uint32_t q, const uint8_t *C, const uint8_t *Q,
                         uint8_t *sig);
/* C = H(I || u32str(q) || u16str(0xfffd) || u8str(0xff) || SEED), n bytes. */
int lms_randomizer(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
                   uint32_t q, uint8_t *C);

/* The nodes as bytes, for a node cache file (public data):
 * lms_tree_nodes points *nodes at them and returns their count (m bytes
 * each): a complete tree's every kept level (cut .. h), a partial one's
 * first built >> cut nodes of level cut; lms_tree_nodes_for is that count
 * for `built` leaves. lms_tree_load gives a tree fresh from lms_tree_start
 * such nodes (FASTSIG_ERR_BAD_PARAM when count is not the one of `built`,
 * or built is no point a build stops at). */
uint64_t lms_tree_built(const lms_tree *t);
size_t lms_tree_nodes(const lms_tree *t, const uint8_t **nodes);
size_t lms_tree_nodes_for(const lms_tree *t, uint64_t built);
int lms_tree_load(lms_tree *t, uint64_t built, const uint8_t *nodes, size_t count);
/* The nodes held against the seed: leaf q (or, when h > 15, its bottom
 * subtree: 2^cut leaves) recomputed from SEED must equal the node held,
 * and on a complete tree hash up the held path to the held root.
 * FASTSIG_ERR_KEY_MISMATCH when not; BAD_PARAM when q is not built yet. */
int lms_tree_check(lms_tree *t, uint32_t q);
/* Leaves computed by every tree of this process so far (tests count the
 * work a reloaded key does with it). */
uint64_t lms_leaves_computed(void);

/* ---- verification (lms_verify.c) ---- */

/* RFC 8554 section 5.4.2. FASTSIG_OK when sig is a valid signature of
 * msg under pub; FASTSIG_ERR_VERIFY when it is well formed but wrong;
 * FASTSIG_ERR_BAD_KEY / FASTSIG_ERR_BAD_SIGNATURE for bad encodings
 * (unknown types, wrong lengths, q out of range, sets that may not pair). */
int lms_verify(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
               const uint8_t *sig, size_t siglen);
/* lms_verify in two halves, for callers that verify several signatures
 * side by side (the levels of an HSS signature): lms_sig_parse makes every
 * check of lms_verify that needs no hash (its BAD_KEY / BAD_SIGNATURE
 * codes) and keeps where the parts are; lms_roots computes the root each
 * parsed signature implies for its message, the signatures' K hashes and
 * tree paths run as lanes of the engine (root i at roots + i*LMS_MAX_N;
 * count <= LMS_MAX_LEVELS). A signature is valid when its root equals
 * T1 (m bytes) of its key. */
typedef struct {
    lms_params lp;
    lmots_params op;
    const uint8_t *I, *T1; /* in the public key */
    const uint8_t *ots_sig, *path;
    uint32_t q;
    const uint8_t *Q; /* NULL (lms_sig_parse): hash the message; else its Q (n bytes) */
} lms_sig_view;
int lms_sig_parse(lms_sig_view *v, const uint8_t *pub, size_t publen, const uint8_t *sig,
                  size_t siglen);
int lms_roots(const lms_sig_view *v, const uint8_t *const msg[], const size_t mlen[],
              size_t count, uint8_t *roots);
/* The length of the LMS signature at the start of sig (avail bytes), read
 * from its typecodes: FASTSIG_ERR_BAD_SIGNATURE when unknown or longer than
 * avail. */
int lms_sig_len(const uint8_t *sig, size_t avail, size_t *len);

#endif
