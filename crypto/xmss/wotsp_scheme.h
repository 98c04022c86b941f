/* wotsp_scheme.h - WOTS+ as a one-time signature scheme of its own (fastsig's
 * construction; no standard defines one): XMSS reduced to a single leaf.
 *
 * Contract
 * - Rows: the WOTSP-* sets of params.h (w = 16 default, _W4, _W256).
 * - Key: from 3n seed bytes SK_SEED || SK_PRF || PUB_SEED (random in use;
 *   fixed for known answers). The one-time key is the WOTS+ key at ADRS
 *   layer 0, tree 0, OTS 0 with SP 800-208 PRF_keygen chain secrets; its
 *   public value is root = L-tree(WOTS+ pk) (ADRS L-tree 0), as an XMSS leaf.
 *     pk  = oid(4) || root(n) || PUB_SEED(n)
 *     sk  = oid(4) || SK_SEED(n) || SK_PRF(n) || root(n) || PUB_SEED(n)
 *     sig = R(n) || WOTS+ signature(len * n)
 * - Message binding as RFC 8391 XMSS with index 0: R = PRF(SK_PRF,
 *   toByte(0, 32)), digest = H_msg(R || root || toByte(0, n), M); the WOTS+
 *   signature signs the n-byte digest. The message is signed whole (or
 *   hashed as it streams: below).
 * - One-time: this core does not count uses; the caller (provider + state
 *   file) must refuse a second signature with the same sk.
 * - Errors: FASTSIG_ERR_BAD_PARAM for a non-WOTSP row, FASTSIG_ERR_BAD_LENGTH
 *   for a buffer of the wrong size, FASTSIG_ERR_BAD_KEY for an oid that does
 *   not name a WOTSP row, FASTSIG_ERR_KEY_MISMATCH for a sk whose root does
 *   not match its seeds (SK_PRF only randomizes R: it cannot be checked),
 *   FASTSIG_ERR_BAD_SIGNATURE for a signature of the wrong length,
 *   FASTSIG_ERR_VERIFY for one that does not verify. */
#ifndef FASTSIG_XMSS_WOTSP_SCHEME_H
#define FASTSIG_XMSS_WOTSP_SCHEME_H

#include <stddef.h>
#include <stdint.h>
#include "xmss/params.h"
#include "hash/hash_stream.h"

int xmss_wotsp_keygen(const xmss_params *p, const uint8_t *seed, size_t seedlen, uint8_t *sk,
                     size_t sklen, uint8_t *pk, size_t pklen);
/* The public key of a private key (checks the stored root). */
int xmss_wotsp_pk_from_sk(const uint8_t *sk, size_t sklen, uint8_t *pk, size_t pklen);
int xmss_wotsp_sign(const uint8_t *sk, size_t sklen, const uint8_t *msg, size_t msglen,
                   uint8_t *sig, size_t siglen);
int xmss_wotsp_verify(const uint8_t *pk, size_t pklen, const uint8_t *msg, size_t msglen,
                     const uint8_t *sig, size_t siglen);
/* xmss_wotsp_sign, then the signature verified with the sk's public key
 * (verify-after-sign); a mismatch is FASTSIG_ERR_FAULT and sig is zeroed. */
int xmss_wotsp_sign_verified(const uint8_t *sk, size_t sklen, const uint8_t *msg,
                            size_t msglen, uint8_t *sig, size_t siglen);

/* For a public key that verifies again and again: the keys and bitmasks of
 * its L-tree are the same for every signature, so they are made once (at
 * the first verify) instead of 3 (len - 1) PRF calls per verify. Public
 * data. Threads may share one cache (the first one published stays). Zero
 * it before use; clear it when done. */
typedef struct {
    const xmss_params *p;  /* pk's row, found at the first verify */
    uint8_t *ltree_masks; /* NULL until the first verify */
} xmss_wotsp_verify_cache;

/* xmss_wotsp_verify with a cache (NULL: none). The cache must belong to pk. */
int xmss_wotsp_verify_cached(xmss_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                            const uint8_t *msg, size_t msglen, const uint8_t *sig,
                            size_t siglen);
void xmss_wotsp_verify_cache_clear(xmss_wotsp_verify_cache *cache);
/* ---- a message that streams (wotsp_stream.c): never held whole ----
 * xmss_wotsp_sign_begin starts h (H_msg keyed with R, the root and index
 * 0), the caller feeds it the message, xmss_wotsp_sign_end signs its digest
 * (verify: then checks it against the digest; FASTSIG_ERR_FAULT, sig
 * zeroed) with the bytes of xmss_wotsp_sign over the whole message. The
 * one-time rule is the caller's, as for xmss_wotsp_sign. Verification:
 * begin checks what needs no message and starts h from sig's R, end checks
 * the same sig. The pieces under them take the digest. */
int xmss_wotsp_sign_begin(const uint8_t *sk, size_t sklen, fs_hash_stream *h);
int xmss_wotsp_sign_end(const uint8_t *sk, size_t sklen, fs_hash_stream *h, int verify,
                        uint8_t *sig, size_t siglen);
int xmss_wotsp_verify_begin(const uint8_t *pk, size_t pklen, const uint8_t *sig, size_t siglen,
                            fs_hash_stream *h);
int xmss_wotsp_verify_end(xmss_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                          fs_hash_stream *h, const uint8_t *sig, size_t siglen);
int xmss_wotsp_sign_digest(const uint8_t *sk, size_t sklen, const uint8_t *digest, uint8_t *sig,
                           size_t siglen);
int xmss_wotsp_verify_digest(xmss_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                             const uint8_t *digest, const uint8_t *sig, size_t siglen);

/* The row named by the oid in the first 4 bytes of a WOTSP pk or sk, or NULL. */
const xmss_params *xmss_wotsp_params_of(const uint8_t *key, size_t keylen);

#endif
