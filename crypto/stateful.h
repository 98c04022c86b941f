/* stateful.h - the one contract every stateful signing core implements
 * (XMSS and XMSS^MT: xmss/xmss_stateful.c; WOTS+: xmss/wotsp_stateful.c;
 * LMS/HSS: lms/hss_stateful.c), so that the provider holds `ops + core`
 * and asks no key what kind it is.
 *
 * Contract
 * - A core is made by its kind's keygen (declared in the kind's header),
 *   from_sk (a private core: the leading bytes of a private key encoding,
 *   no tree built) or from_pk (a public key: verifies only).
 * - Every core is self-locking: one core may be used by several threads
 *   (sign, check, cache_*, set_range take the core's own pthread mutex).
 * - check: the seeds give the stored public key (done once, before an index
 *   is spent; KEY_MISMATCH otherwise, and sign refuses for good).
 * - sign(idx): signs at idx, which the caller has durably spent; with
 *   verify set the core verifies the signature with its public key before
 *   returning it (FASTSIG_ERR_FAULT and sig wiped on a mismatch). An index
 *   outside the core's range is FASTSIG_ERR_KEY_EXHAUSTED (WOTS+: OTS_USED).
 * - Range: [first, end), the whole key 0 .. max at first; set_range only
 *   narrows it (BAD_PARAM otherwise). The range lives here only.
 * - Node cache (public bytes, authenticated by the core, a missing op: the
 *   kind keeps none): cache_export writes the bytes (malloc'd, free()) and
 *   clears the dirty flag, cache_import takes bytes of the same key (refused
 *   otherwise, the core unchanged) and clears it; the flag is set when the
 *   cache changed since (trees built or moved on, a new range).
 * - Streaming (msg_* ops; NULL: the kind signs held messages only): the
 *   message digest (XMSS, WOTS+: H_msg; LMS: Q) is keyed by the index alone
 *   (r = PRF(SK_PRF, idx), C from SEED and q), so a message is hashed as it
 *   comes: msg_sign_init(idx) once the caller has durably spent idx, then
 *   fs_stateful_msg_update as often as needed, then msg_sign_final (the
 *   bytes of sign over the whole message; verify: checked against the
 *   digest). A message abandoned before final only burns its index.
 *   msg_verify_init makes the checks of sig that need no message (verify's
 *   codes) and starts the digest from it; msg_verify_final checks the same
 *   sig. No allocation; an fs_stateful_msg is plain data (copies are fine).
 * No OpenSSL type here. */
#ifndef FASTSIG_STATEFUL_H
#define FASTSIG_STATEFUL_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash_stream.h"

#define FS_STATEFUL_SEED_FP_LEN 32
/* Largest public key of any kind (HSS: 4 + 24 + 64). */
#define FS_STATEFUL_PK_MAX 132
/* Largest private core of any kind (XMSS^MT: 4 + 8 + 4 x 64). */
#define FS_STATEFUL_SK_MAX 268

/* A message signed or verified as it streams (the msg_* ops). */
typedef struct {
    fs_hash_stream h;            /* the digest so far */
    uint64_t idx;                /* signing: the index, spent by the caller */
    uint8_t rand[FS_HASH_MAX_N]; /* r (XMSS, WOTS+) or C (LMS): public */
    uint8_t I[16];               /* LMS: the signing tree's I */
} fs_stateful_msg;

typedef struct fs_stateful_ops {
    /* in: a private key encoding starting with the core; *corelen: its size */
    int (*from_sk)(const uint8_t *in, size_t len, size_t *corelen, void **core);
    int (*from_pk)(const uint8_t *in, size_t len, void **core);
    /* The private core (next: the state's next index, informational); out
     * NULL: *len gets the size. BAD_KEY for a public core. */
    int (*export_sk)(void *core, uint64_t next, uint8_t *out, size_t *len);
    int (*has_sk)(const void *core);
    const uint8_t *(*pk)(const void *core, size_t *pklen);
    int (*check)(void *core);
    int (*sign)(void *core, uint64_t idx, int verify, const uint8_t *msg, size_t msglen,
                uint8_t *sig, size_t siglen);
    int (*verify)(void *core, const uint8_t *msg, size_t msglen, const uint8_t *sig,
                  size_t siglen);
    int (*cache_export)(void *core, uint8_t **out, size_t *outlen);
    int (*cache_import)(void *core, const uint8_t *in, size_t inlen);
    int (*cache_dirty)(void *core);
    /* NULL: a kind without shards (a one-time key has nothing to share). */
    int (*set_range)(void *core, uint64_t first, uint64_t end);
    void (*range)(void *core, uint64_t *first, uint64_t *end);
    uint64_t (*max)(const void *core);       /* index count (2^h; 1: one-time) */
    size_t (*sig_bytes)(const void *core);
    unsigned (*n)(const void *core);         /* hash output bytes */
    const char *(*name)(const void *core);   /* the parameter-set name */
    /* Indices of a bottom subtree: a shard starting on a multiple of it
     * prepares its next trees from its first signature. */
    uint64_t (*shard_align)(const void *core);
    /* The fingerprint of the secrets behind the one-time keys, the same
     * under every parameter set of the kind (seed: the keygen seed bytes). */
    int (*seed_fp)(const void *core, const uint8_t *seed, size_t seedlen,
                   uint8_t fp[FS_STATEFUL_SEED_FP_LEN]);
    /* Extra description lines ('\n' ended) into buf, or NULL op: none. */
    int (*text)(const void *core, char *buf, size_t len);
    void (*free)(void *core);
    int (*msg_sign_init)(void *core, uint64_t idx, fs_stateful_msg *m);
    int (*msg_sign_final)(void *core, fs_stateful_msg *m, int verify, uint8_t *sig,
                          size_t siglen);
    int (*msg_verify_init)(void *core, const uint8_t *sig, size_t siglen, fs_stateful_msg *m);
    int (*msg_verify_final)(void *core, fs_stateful_msg *m, const uint8_t *sig, size_t siglen);
} fs_stateful_ops;

/* The next bytes of a streamed message (stateful.c). */
void fs_stateful_msg_update(fs_stateful_msg *m, const uint8_t *data, size_t len);

/* export_sk's sizing for a core kept as bytes: src (NULL: a public core,
 * BAD_KEY) into out (NULL: *len gets the size; BAD_LENGTH when *len is
 * short). stateful.c. */
int fs_stateful_put_sk(const uint8_t *src, size_t srclen, uint8_t *out, size_t *len);

extern const fs_stateful_ops fs_stateful_xmss, fs_stateful_xmssmt, fs_stateful_wotsp,
    fs_stateful_hss;

#endif
