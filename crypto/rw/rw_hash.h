/* rw_hash.h - SHA-1 and SHA-256 for RW's IEEE 1363 EMSA2 profile (internal;
 * its SHAKE256 is crypto/hash's fs_shake_ctx). */
#ifndef FASTSIG_RW_HASH_H
#define FASTSIG_RW_HASH_H

#include <stddef.h>
#include <stdint.h>

#define RW_SHA1_BYTES 20
#define RW_SHA256_BYTES 32
void rw_sha1(uint8_t out[RW_SHA1_BYTES], const uint8_t *in, size_t len);
void rw_sha256(uint8_t out[RW_SHA256_BYTES], const uint8_t *in, size_t len);

#endif
