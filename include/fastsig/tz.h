/* tz.h - the Tillich-Zemor hash and its homomorphic operations (public API).
 *
 * TZ is NOT collision resistant (practical collisions and preimages are
 * published); it is here for compatibility with existing users such as the
 * Go package nspcc-dev/tzhash, with which every digest is byte-compatible.
 *
 * A digest is the 2x2 state matrix over GF(2^127) = GF(2)[x]/(x^127+x^63+1):
 * 64 bytes, c00||c01||c10||c11, each element 16 bytes big-endian with bit
 * 127 clear. Because the hash is a matrix product, H(a||b) = H(a) * H(b).
 *
 * Every int-returning function returns FASTSIG_OK (0) or a fastsig_err code:
 * FASTSIG_ERR_NULL_ARG, FASTSIG_ERR_TZ_BIT127 for an encoded element with bit
 * 127 set, FASTSIG_ERR_TZ_SINGULAR when an inverse does not exist,
 * FASTSIG_ERR_VERIFY when tz_validate finds a mismatch. */
#ifndef FASTSIG_TZ_H
#define FASTSIG_TZ_H

#include <stddef.h>
#include <stdint.h>
#include "sl2.h"

#define TZ_DIGEST_SIZE 64
#define TZ_BLOCK_SIZE 1 /* the hash consumes bits; any split of input works */

typedef struct {
    sl2 state;
} tz_ctx;

void tz_init(tz_ctx *ctx);
void tz_update(tz_ctx *ctx, const void *data, size_t len);
/* Writes the digest of everything so far; ctx stays usable (no finalization). */
void tz_final(const tz_ctx *ctx, uint8_t out[TZ_DIGEST_SIZE]);
void tz_hash(const void *data, size_t len, uint8_t out[TZ_DIGEST_SIZE]);

/* Continue hashing from a prior digest: afterwards ctx is as if it had
 * hashed the message whose digest is `digest`. Refuses (TZ_SINGULAR) a
 * matrix outside SL2: no message hashes to it. ctx is unchanged on error. */
int tz_ctx_set_digest(tz_ctx *ctx, const uint8_t digest[TZ_DIGEST_SIZE]);
/* tzhash's MarshalBinary of a running state: column-major c00||c10||c01||c11. */
void tz_ctx_marshal(const tz_ctx *ctx, uint8_t out[TZ_DIGEST_SIZE]);
int tz_ctx_unmarshal(tz_ctx *ctx, const uint8_t in[TZ_DIGEST_SIZE]);

/* Checks that a 64-byte string is a well-formed digest encoding. */
int tz_digest_check(const uint8_t digest[TZ_DIGEST_SIZE]);
/* out = digests[0] * digests[1] * ... (count * 64 bytes in; count 0 gives
 * the digest of the empty message). */
int tz_concat(const uint8_t *digests, size_t count, uint8_t out[TZ_DIGEST_SIZE]);
/* c = a * b. subtract_right finds a from c and b; subtract_left finds b
 * from c and a. */
int tz_subtract_right(const uint8_t c[TZ_DIGEST_SIZE], const uint8_t b[TZ_DIGEST_SIZE],
                      uint8_t a_out[TZ_DIGEST_SIZE]);
int tz_subtract_left(const uint8_t c[TZ_DIGEST_SIZE], const uint8_t a[TZ_DIGEST_SIZE],
                     uint8_t b_out[TZ_DIGEST_SIZE]);
/* FASTSIG_OK when h equals the concat of parts (compared in constant time),
 * FASTSIG_ERR_VERIFY when it does not. */
int tz_validate(const uint8_t h[TZ_DIGEST_SIZE], const uint8_t *parts, size_t count);

/* Constant-time equality of two buffers: 1 if equal, 0 if not. */
int tz_ct_equal(const uint8_t *a, const uint8_t *b, size_t len);

#endif
