/* xmss_hash.h - the one place where crypto/xmss meets crypto/hash: maps a
 * parameter row to the engine's descriptor and keeps a key's seeded state.
 *
 * Contract: xmss_ctx_init keys PRF with PUB_SEED and, when sk_seed is given,
 * PRF_keygen with SK_SEED (signing and key generation need it; verification
 * does not); when sk_prf is given it also keys the message-randomizer PRF.
 * xmss_ctx_clear wipes the secret midstates. A ctx is read-only while hashing,
 * so threads may share one. */
#ifndef FASTSIG_XMSS_HASH_H
#define FASTSIG_XMSS_HASH_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"
#include "hash/hash_stream.h"
#include "xmss/params.h"
#include "state/statefile.h"

typedef struct {
    const xmss_params *p;
    fs_hash_params hp;
    fs_hash_seeds seeds;  /* PRF(PUB_SEED, .), PRF_keygen(SK_SEED, .) */
    fs_hash_seeds prf_sk; /* PRF(SK_PRF, .) for r; valid when has_prf */
    int has_prf;
} xmss_ctx;

int xmss_ctx_init(xmss_ctx *c, const xmss_params *p, const uint8_t *pub_seed,
                 const uint8_t *sk_seed, const uint8_t *sk_prf);
void xmss_ctx_clear(xmss_ctx *c);

/* r = PRF(SK_PRF, toByte(idx, 32)) (RFC 8391 4.1.9). */
int xmss_prf_msg(const xmss_ctx *c, uint8_t *r, uint64_t idx);
/* out = H_msg(r || root || toByte(idx, n), msg). */
int xmss_hash_msg(const xmss_ctx *c, uint8_t *out, const uint8_t *r, const uint8_t *root,
                 uint64_t idx, const uint8_t *msg, size_t msglen);
/* The same as a stream (hash_stream.h): h keyed with r || root || toByte(idx,
 * n); its updates are the message, its final the digest. */
int xmss_hash_msg_begin(const xmss_ctx *c, fs_hash_stream *h, const uint8_t *r,
                        const uint8_t *root, uint64_t idx);

/* The id a state file binds to: SHA-256 of the public key bytes (for every
 * kind: oid || root || PUB_SEED). */
int xmss_key_id(const uint8_t *pk, size_t pklen, uint8_t id[FASTSIG_STATE_KEY_ID_LEN]);

/* The fingerprint of the secrets a key's one-time keys come from, for the
 * key-id registry's seed entries (crypto/state/registry.h): WOTS+ chain
 * secrets are PRF_keygen(SK_SEED, PUB_SEED || ADRS), whatever the tree
 * height or layer count, so every XMSS, XMSS^MT and WOTSP set with this n
 * and these two seeds shares them at the same address (SK_PRF only
 * randomizes messages: left out). seed: the 3n key-generation bytes
 * SK_SEED || SK_PRF || PUB_SEED.
 *   fp = SHA-256("fastsig seed fingerprint v1 xmss" || SK_SEED || PUB_SEED)
 * One-way over full-entropy seeds; the copy is wiped. */
#define XMSS_SEED_FP_LEN 32
int xmss_seed_fp(const xmss_params *p, const uint8_t *seed, size_t seedlen,
                uint8_t fp[XMSS_SEED_FP_LEN]);

#endif
