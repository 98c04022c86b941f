/* xmss.h - XMSS and XMSS^MT (RFC 8391, NIST SP 800-208 key derivation) as one
 * core: XMSS is the d = 1 case with a 4-byte index.
 *
 * Contracts
 * - Keys: xmss_keygen derives SK_SEED || SK_PRF || PUB_SEED from the caller's
 *   3n seed bytes (vectors: seed[i] = i) and builds the trees a first
 *   signature needs: the top layer's tree 0 always (`threads` threads, progress
 *   callback on the caller's thread), the lower layers' trees 0 and their
 *   WOTS+ signatures when a layer tree has height <= XMSS_BOTTOM_H (else they
 *   are built at the first signature). The key does not depend on the
 *   number of threads.
 * - Byte layouts (params.h): pk = oid || root || PUB_SEED; sk core = oid ||
 *   idx || SK_SEED || SK_PRF || root || PUB_SEED (the vectors' layout; idx is
 *   the caller's business, xmss_key_export_sk writes the one given);
 *   sig = idx || R || d x (WOTS+ sig || auth path), bottom layer first.
 * - Signing: xmss_sign signs at the index it is given (the caller reserves
 *   it durably first: crypto/state, doc/state.md section 1); any index 0 ..
 *   2^h - 1 works, in any order. The key keeps a node cache (public data):
 *   for each layer the current bottom subtree (height b = min(h/d,
 *   XMSS_BOTTOM_H)), for taller layer trees the tree's nodes at heights >= b,
 *   and the layer's WOTS+ signature of its tree root; while signing in order
 *   it prepares, a few leaves per signature, the next bottom subtree, for
 *   tall layer trees also the next tree's nodes at heights >= b, and the
 *   next layer tree's root signature, so no boundary rebuilds anything
 *   (xmss_key_ondemand stays put). Per signature that is one leaf of
 *   layer 0, its chains in the signature's own batch, so signatures cost
 *   alike, and about two leaves per 2^(tree_h * L + 1) signatures at layer
 *   L > 0 (and at a split layer's next top). An index
 *   outside the cache is served by computing just the subtrees it needs;
 *   after such a jump the preparation catches up evenly over the signatures
 *   left before the next boundary. xmss_sign takes the key's mutex: one key
 *   may be shared by threads. A failure while preparing ahead does not fail
 *   the signature (the next call retries).
 * - Cache bytes: xmss_cache_export serializes the cache (for a cache file);
 *   xmss_cache_import accepts only bytes exported by the same key: a tag keyed
 *   with a PRF of SK_SEED covers them (FASTSIG_ERR_BAD_PARAM on any mismatch,
 *   the key's cache is then left as it was).
 * - Errors: FASTSIG_ERR_BAD_LENGTH for a buffer of the wrong size,
 *   FASTSIG_ERR_BAD_KEY for a key whose oid or kind does not match,
 *   FASTSIG_ERR_KEY_EXHAUSTED for idx > 2^h - 1 or outside the key's range
 *   (xmss_key_set_range), FASTSIG_ERR_VERIFY when a well-formed signature
 *   does not verify, FASTSIG_ERR_BAD_SIGNATURE when its length or index is
 *   impossible. */
#ifndef FASTSIG_XMSS_XMSS_H
#define FASTSIG_XMSS_XMSS_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash_stream.h"
#include "xmss/params.h"
#include "xmss/tree.h"
#include "keygen_resume.h"

/* Largest bottom-subtree height the cache keeps whole (2^(b+1) - 1 nodes). */
#define XMSS_BOTTOM_H 10

typedef struct xmss_key xmss_key;

/* p: an XMSS or XMSS^MT row; seed: 3n bytes; threads: 1 .. XMSS_MAX_THREADS
 * (clamped to that range). */
int xmss_keygen(const xmss_params *p, const uint8_t *seed, size_t seedlen, unsigned threads,
               xmss_progress_fn progress, void *parg, xmss_key **out);
/* Key generation in pieces (keygen_resume.h), for sets whose top layer
 * tree is taller than a bottom subtree (t > XMSS_BOTTOM_H: XMSS H16, H20,
 * XMSS^MT 40/2, 60/3): that tree is built as 2^(t - b) bottom subtrees one
 * after another, and only their roots are needed above them (per = 1:
 * a piece leaves its root, n bytes). The first subtree is built anyway:
 * the cache keeps it whole. The roots are public (tree nodes); the caller
 * keeps the seed beside them. */
typedef fs_keygen_resume xmss_resume;
/* The pieces of p's generation: 2^(t - b), or 0 when it is built whole. */
uint64_t xmss_keygen_pieces(const xmss_params *p);
int xmss_keygen_resume(const xmss_params *p, const uint8_t *seed, size_t seedlen,
                       unsigned threads, xmss_progress_fn progress, void *parg,
                       const xmss_resume *resume, xmss_key **out);
/* A key from its sk core bytes (kind: XMSS_KIND_XMSS or XMSS_KIND_XMSSMT picks
 * the oid space); *idx gets the index stored in them. The cache is empty:
 * import one or let signing build what it needs. */
int xmss_key_from_sk(int kind, const uint8_t *sk, size_t sklen, uint64_t *idx, xmss_key **out);
void xmss_key_free(xmss_key *k);
/* Restricts the indices k signs to [first, end) (a shard of the key, see
 * doc/state.md): xmss_sign refuses any other with FASTSIG_ERR_KEY_EXHAUSTED.
 * The range only shrinks (BAD_PARAM for one not inside the current one or
 * empty); a new key signs 0 .. 2^h - 1. */
int xmss_key_set_range(xmss_key *k, uint64_t first, uint64_t end);
const xmss_params *xmss_key_params(const xmss_key *k);

/* Bottom subtrees and layer-root signatures this key object computed on
 * demand rather than ahead (key generation included): signing in order
 * after key generation adds none; tests and benchmarks watch it. */
uint64_t xmss_key_ondemand(xmss_key *k);

/* A counter that every change to the key's node cache moves (building,
 * preparing ahead, xmss_cache_import): equal values mean equal cache bytes,
 * so a caller keeping a cache file rewrites it only when this moved. */
uint64_t xmss_cache_changes(xmss_key *k);

int xmss_key_export_pk(const xmss_key *k, uint8_t *pk, size_t pklen);
int xmss_key_export_sk(const xmss_key *k, uint64_t idx, uint8_t *sk, size_t sklen);

/* Checks that SK_SEED and PUB_SEED give the key's root, once per key
 * object (a generated key is known good; later calls return at once): with
 * the node cache holding the top layer's current subtree, one leaf is
 * recomputed from the seeds and hashed up the cached authentication path
 * (the cache is tagged with a PRF of SK_SEED, so a damaged SK_SEED never
 * imports a cache); without it the top layer's tree is built, which the
 * first signature needs anyway (a split top layer keeps its bottom subtree
 * 0). SK_PRF cannot be checked: it only randomizes R. FASTSIG_ERR_KEY_MISMATCH
 * when the root differs; the key then refuses xmss_sign and xmss_cache_export
 * for good. xmss_sign runs the check itself on an unchecked key, but a
 * caller that spends an index first should call this before. */
int xmss_key_check(xmss_key *k);

/* sig: exactly xmss_sig_bytes(p) bytes. Every WOTS+ signature of a layer
 * tree's root is checked when made (the public key it implies must be the
 * upper layer's leaf; FASTSIG_ERR_FAULT otherwise and nothing is kept), so
 * a fault there cannot give a one-time key two signed roots. */
int xmss_sign(xmss_key *k, uint64_t idx, const uint8_t *msg, size_t msglen, uint8_t *sig,
             size_t siglen);
/* xmss_sign, then the signature verified with the key's public key
 * (verify-after-sign); a mismatch is FASTSIG_ERR_FAULT and sig is wiped. */
int xmss_sign_verified(xmss_key *k, uint64_t idx, const uint8_t *msg, size_t msglen,
                      uint8_t *sig, size_t siglen);
/* kind picks the oid space of pk's 4-byte oid. */
int xmss_verify(int kind, const uint8_t *pk, size_t pklen, const uint8_t *msg, size_t msglen,
               const uint8_t *sig, size_t siglen);
/* Same, with the parameter row given (no oid lookup; pk's oid must match). */
int xmss_verify_p(const xmss_params *p, const uint8_t *pk, size_t pklen, const uint8_t *msg,
                 size_t msglen, const uint8_t *sig, size_t siglen);

/* ---- a message that streams (xmss_stream.c): never held whole ----
 * Signing: xmss_sign_begin, once the caller has durably spent idx, writes
 * r = PRF(SK_PRF, idx) (n bytes) and starts h (H_msg keyed with r, the root
 * and idx); the caller feeds the message to h (fs_hash_stream_update);
 * xmss_sign_end finishes h and signs its digest at idx with r (verify: then
 * checks the signature against the digest, FASTSIG_ERR_FAULT and sig wiped
 * on a mismatch). The bytes are those of xmss_sign over the whole message.
 * An abandoned h only burns idx (it is spent; nothing was signed).
 * Verification: xmss_verify_begin makes xmss_verify's checks of sig that
 * need no message (its codes) and starts h on H_msg's prefix toByte(2, pad)
 * || r || root || toByte(idx, n) with the signature's r and index;
 * xmss_verify_end finishes h and verifies the same sig against it
 * (xmss_verify_digest). xmss_verify_begin and xmss_verify_digest are in
 * xmss_verify.c, which builds freestanding: libfastsig-verify streams on
 * them too. */
int xmss_sign_begin(xmss_key *k, uint64_t idx, uint8_t *r, fs_hash_stream *h);
int xmss_sign_end(xmss_key *k, uint64_t idx, const uint8_t *r, fs_hash_stream *h, int verify,
                  uint8_t *sig, size_t siglen);
int xmss_verify_begin(const xmss_params *p, const uint8_t *pk, size_t pklen, const uint8_t *sig,
                      size_t siglen, fs_hash_stream *h);
int xmss_verify_end(const xmss_params *p, const uint8_t *pk, size_t pklen, fs_hash_stream *h,
                    const uint8_t *sig, size_t siglen);
/* The pieces under them: xmss_sign at idx with r and the digest given;
 * xmss_verify_p of a digest (H_msg, n bytes). */
int xmss_sign_digest(xmss_key *k, uint64_t idx, const uint8_t *r, const uint8_t *digest,
                     uint8_t *sig, size_t siglen);
int xmss_verify_digest(const xmss_params *p, const uint8_t *pk, size_t pklen,
                       const uint8_t *digest, const uint8_t *sig, size_t siglen);

/* Cache bytes: *out is malloc'd (free with free()). */
int xmss_cache_export(xmss_key *k, uint8_t **out, size_t *outlen);
int xmss_cache_import(xmss_key *k, const uint8_t *in, size_t inlen);

#endif
