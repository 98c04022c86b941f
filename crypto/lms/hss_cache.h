/* hss_cache.h - an HSS key's public working data as bytes, for the node
 * cache file beside its state (crypto/state/cachefile.h), so that a process
 * that loads the key signs without rebuilding its trees.
 *
 * Layout (integers big-endian, u32str / u64str):
 *   "FSHS" || version (1) = 1 || L (1) || L x (u32 lms type || u32 ots type)
 *   || the HSS public key (4 + 24 + m)
 *   per level i, top first:
 *     has_next (1: 0 or 1) || tree number (8) || next's built leaves (8)
 *     || the current tree's nodes (lms_tree_nodes: levels cut .. h, at most
 *        2^16 - 1 nodes)
 *     || i > 0: the parent's signature of this tree's public key
 *     || has_next: the next tree's nodes (its built part of level cut, or
 *        all of them once complete)
 *   || tag (m) = H(K || everything before the tag),
 *      K = H(I || u32str(0xffffffff) || u16str(0xfffc) || u8str(0xff) || SEED
 *            || "fastsig hss node cache tag v1")
 * with the key's hash (a domain no LMS hash uses). Size: per level at most
 * 2 x (2^16 - 1) nodes (the current tree, the next one once complete) and a
 * signature: H10/H10 130-200 KB, H20/H20 at most 6 MB, eight H25 levels
 * 30 MB (m = 32; under FASTSIG_CACHE_MAX_BYTES).
 *
 * No secret is in it: the lower trees' SEED and I are derived again from
 * the top SEED at import. The tag is keyed with SEED, so another key's
 * cache, an edited one or a key whose SEED was damaged is refused (and
 * the caller rebuilds); then every field is range checked, each level's
 * tree is checked against SEED (lms_tree_check: one leaf, or one bottom
 * subtree when h > 15, recomputed and hashed up to its root), the top
 * root against the public key and each parent's signature verified. A
 * cache from another signing position is still right: hss_sign uses a
 * level's trees only when they are the ones its index needs, and builds
 * the others. */
#ifndef FASTSIG_LMS_HSS_CACHE_H
#define FASTSIG_LMS_HSS_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "lms/hss.h"

/* k's cache bytes into *out (malloc, the caller frees). */
int hss_cache_export(hss_key *k, uint8_t **out, size_t *outlen);

/* A signing key of these levels from SEED and I (the top tree's), pub its
 * HSS public key, with its trees from cache bytes: FASTSIG_ERR_BAD_PARAM
 * when the bytes are not an export of this key or fail a check,
 * KEY_MISMATCH when SEED does not give the nodes (no key is made then). */
int hss_cache_import(hss_key **out, unsigned L, const lms_params *lms,
                     const lmots_params *ots, const uint8_t *seed,
                     const uint8_t I[LMS_I_BYTES], const uint8_t *pub, unsigned threads,
                     const uint8_t *in, size_t inlen);

/* Writes the tag over the last m bytes of buf (len bytes, the key's top
 * set, SEED and I): what export does last; the tests and the fuzz target
 * seal edited bytes with it to reach the checks behind the tag. */
int hss_cache_seal(const lms_params *top, const uint8_t *seed, const uint8_t I[LMS_I_BYTES],
                   uint8_t *buf, size_t len);

/* A value that moves when a level changes tree or its next tree gains
 * another sixteenth of its leaves: a caller rewrites the cache file only
 * then, so a signer that loads it catches up at most that share. */
uint64_t hss_cache_stamp(hss_key *k);

#endif
