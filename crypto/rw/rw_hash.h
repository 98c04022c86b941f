/* rw_hash.h - the hashes the RW core uses (internal): an incremental
 * SHAKE256 over crypto/hash's Keccak-f[1600], and SHA-1 / SHA-256 for the
 * IEEE 1363 EMSA2 profile. */
#ifndef FASTSIG_RW_HASH_H
#define FASTSIG_RW_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t st[25];
    size_t pos;       /* bytes absorbed into the current block / squeezed */
    int squeezing;
} rw_shake;

void rw_shake_init(rw_shake *x);
void rw_shake_absorb(rw_shake *x, const void *in, size_t len);
/* First call pads; later calls continue the output stream. */
void rw_shake_squeeze(rw_shake *x, uint8_t *out, size_t len);
void rw_shake_wipe(rw_shake *x);

#define RW_SHA1_BYTES 20
#define RW_SHA256_BYTES 32
void rw_sha1(uint8_t out[RW_SHA1_BYTES], const uint8_t *in, size_t len);
void rw_sha256(uint8_t out[RW_SHA256_BYTES], const uint8_t *in, size_t len);

#endif
