/* shard.h - carving a range of a key's unspent indices into a state file of
 * its own (a shard: doc/state.md "Several signing hosts"). Plain POSIX, no
 * OpenSSL; any stateful scheme whose indices are a counter can use it.
 *
 * The one rule: the parent's state is advanced past the range durably
 * BEFORE the shard's file exists, so a crash between the two loses the
 * range's indices and can never hand one out twice. A shard's file holds
 * max = the range's end and next = its start (the key id is the parent's:
 * one public key); the key encoding carries the start, and the key checks
 * both against the file when it opens it. */
#ifndef FASTSIG_STATE_SHARD_H
#define FASTSIG_STATE_SHARD_H

#include <stddef.h>
#include <stdint.h>
#include "state/statefile.h"

/* <dir>/<key id as 64 lowercase hex digits>.<first>-<end>.state */
int fastsig_state_shard_path(const char *dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                             uint64_t first, uint64_t end, char *out, size_t outlen);

/* dir exists, is a directory and takes new files (write and search
 * permission): FASTSIG_OK, STATE_NO_DIR (missing or not a directory) or
 * STATE_IO (cause->sys_errno: EACCES, EROFS, ...). cause may be NULL. */
int fastsig_state_dir_writable(const char *dir, fastsig_cause *cause);
/* The directory part of path into out: "." when it has none, "/" for
 * "/name"; BAD_PARAM when it does not fit. */
int fastsig_state_dir_of(const char *path, char *out, size_t outlen);

/* What fastsig_state_carve refuses before the parent moves: the file (`path`,
 * or for an explicit first the name in dir) exists (STATE_EXISTS), its
 * directory is missing or closed to new files (as fastsig_state_dir_writable),
 * a name does not fit (BAD_PARAM). out gets the path refused (the file, or
 * dir when dir is), cause (may be NULL) why. */
int fastsig_state_carve_check(const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN], uint64_t first,
                              uint64_t count, const char *dir, const char *path, char *out,
                              size_t outlen, fastsig_cause *cause);

/* Carves [first, first + count) out of parent's unspent indices (first =
 * FASTSIG_STATE_FROM_NEXT: from its next; see fastsig_state_spend_range)
 * into a new state file for key_id: `path` when non-NULL, else
 * fastsig_state_shard_path(dir, ...). The file's name goes to out (outlen
 * bytes), the range's start to *got_first. Everything
 * fastsig_state_carve_check refuses is refused first, nothing spent; a failure after the parent moved (the shard's
 * file could not be written) leaves the range spent and unused. cause (may
 * be NULL) gets why, for the parent's file or the shard's. */
int fastsig_state_carve(fastsig_state *parent, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                        uint64_t first, uint64_t count, const char *dir, const char *path,
                        char *out, size_t outlen, uint64_t *got_first, fastsig_cause *cause);

#endif
