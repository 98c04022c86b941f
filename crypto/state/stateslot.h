/* stateslot.h - the on-disk record of a signature state file (one slot).
 *
 * A state file is FS_STATE_FILE_SIZE bytes holding two slots, at offsets 0
 * and FS_STATE_SLOT_STRIDE (separate 512-byte sectors). Each slot is an
 * FS_STATE_SLOT_LEN-byte record, little-endian:
 *
 *   off len  field
 *     0   8  magic "FSIGSTAT"
 *     8   4  version (1)
 *    12   4  flags (0; nonzero is rejected)
 *    16   8  seq: update sequence number; the two slots differ by exactly 1
 *    24   8  max: number of indices of the key (last index + 1), 1..2^63
 *    32   8  next: the next free index, 0..max
 *    40  32  key_id: caller's hash of the public key
 *    72  48  zero
 *   120   8  CRC-64/XZ of bytes 0..119
 *
 * Bytes outside the two slots are zero. This header is internal to
 * crypto/state (the tests use it to forge files). */
#ifndef FASTSIG_STATESLOT_H
#define FASTSIG_STATESLOT_H

#include <stddef.h>
#include <stdint.h>
#include "statefile.h" /* FASTSIG_STATE_KEY_ID_LEN */

#define FS_STATE_SLOT_LEN 128
#define FS_STATE_SLOT_STRIDE 512
#define FS_STATE_FILE_SIZE (2 * FS_STATE_SLOT_STRIDE)
#define FS_STATE_VERSION 1u
#define FS_STATE_MAX_LIMIT (UINT64_C(1) << 63)

typedef struct {
    uint64_t seq;
    uint64_t max;
    uint64_t next;
    uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN];
} fs_state_slot;

/* CRC-64/XZ (ECMA-182 polynomial, reflected, init and xorout all ones). */
uint64_t fs_state_crc64(const uint8_t *p, size_t len);

void fs_state_slot_encode(const fs_state_slot *s, uint8_t out[FS_STATE_SLOT_LEN]);
/* 0 if the record is well formed (magic, version, flags, zero padding,
 * checksum, 1 <= max <= 2^63, next <= max), else -1. */
int fs_state_slot_decode(const uint8_t in[FS_STATE_SLOT_LEN], fs_state_slot *s);

/* Validates a whole file image (exactly FS_STATE_FILE_SIZE bytes): both slots
 * well formed, agreeing on key_id and max, their seqs differing by exactly 1,
 * zero bytes between and after them. (next may go either way between the
 * slots: a release lowers it.) On success *cur is the newer slot and *cur_pos
 * its position (0 or 1); returns 0, else -1. */
int fs_state_image_decode(const uint8_t img[FS_STATE_FILE_SIZE], fs_state_slot *cur,
                          int *cur_pos);

#endif
