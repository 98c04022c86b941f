/* statemark.h - a state file's high-water mark in the key-id registry
 * (doc/state.md, section 11): the highest `next` a reservation made durable
 * in that state file, so that the file restored alone from a backup (no
 * signer running) is refused when it is opened. POSIX only, no OpenSSL;
 * every system call through fileio.h.
 *
 * One mark per (key id, state path): <state dir>/registry/<key id, 64 hex
 * digits>.mark-<CRC-64 of the state path, 16 hex digits>, mode 0600, one
 * FS_MARK_LEN-byte record at offset 0, little-endian:
 *
 *   off len  field
 *     0   8  magic "FSIGMARK"
 *     8   4  version (1)
 *    12   4  zero
 *    16   8  mark: the state file's `next` is at least this
 *    24   8  CRC-64/XZ of the state path
 *    32  32  key id
 *    64   8  CRC-64/XZ of bytes 0..63
 *
 * The one rule: the mark is never above the state file's durable `next`, so
 * that no crash can make a good key look rolled back. A reservation raises
 * it only after the state's fdatasync (without a sync of its own: a lost
 * raise only lags); a release, which lowers `next`, lowers the mark first,
 * durably. Both under an exclusive lock of the mark file; a release holds
 * the state file's lock around it, and a reader takes the state file's lock
 * before the mark's. A record that is missing, short, torn, of another key
 * or path, or above the key's index count is no mark (ignored, never an
 * error): garbage weakens detection, never refuses a good key. */
#ifndef FASTSIG_STATEMARK_H
#define FASTSIG_STATEMARK_H

#include <stddef.h>
#include <stdint.h>
#include "statefile.h"

#define FS_MARK_LEN 72

/* The mark file of state_path (as the handle names it) under state_dir. */
int fs_mark_path(const char *state_dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                 const char *state_path, char *out, size_t outlen);

/* The mark (0: none, or none to be trusted) for a key with max indices. */
uint64_t fs_mark_read(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                      const char *state_path, uint64_t max);

/* Raises the mark to end if it is lower (created if missing; not synced). */
int fs_mark_raise(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                  const char *state_path, uint64_t end);

/* Makes sure the mark file holds a valid record: created, or a missing or
 * untrusted record replaced by a mark of 0 (never above the state's next:
 * what a state file shows may not be durable yet); not synced. At open, so
 * that the reservations' raises write into a file that exists (creating it
 * after a reservation made the next signature's fdatasync wait: a one-time
 * key's signature took 450 us instead of 145). */
int fs_mark_init(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                 const char *state_path);

/* Lowers the mark to `to` if it is higher, durably (fdatasync); 0 also when
 * there is no mark. Nonzero: the caller must not lower the state's next. */
int fs_mark_lower(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                  const char *state_path, uint64_t to);

#endif
