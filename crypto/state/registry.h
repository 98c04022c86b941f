/* registry.h - the key-id registry: which state file each key got on this
 * machine, so that no key is ever given a second fresh state (the same
 * seed generated again with another state path would sign index 0 twice).
 * POSIX only, no OpenSSL; every system call through fileio.h.
 *
 * Layout: one entry per key id, <state dir>/registry/<key id, 64 lowercase
 * hex digits>, mode 0600, in a directory of mode 0700. An entry is lines,
 * each an absolute state path ending in '\n'; the first names the state the
 * key was generated with. More lines are for later states of the same key
 * that are no fresh start (a shard: a sub-range of its indices) and are
 * appended under an exclusive OFD lock with one write and an fsync; a reader
 * takes a shared lock and ignores an unterminated last line (a torn append).
 *
 * Crash safety: an entry appears whole or not at all (written to a
 * temporary name, fsync'd, linked into place without replacing, directory
 * fsync'd), and it is made BEFORE the state file: a crash in between leaves
 * a registered key without a state, which refuses a second key generation
 * like any other entry (doc/state.md says what the operator does then).
 *
 * Errors (fastsig_err.h): STATE_REGISTERED (the key id has an entry),
 * STATE_NOT_FILE (no regular file / directory at the entry or registry
 * path: nothing followed, nothing waited on), STATE_UNTRUSTED (an entry or
 * registry directory open to other users: fileowner.h), STATE_LOCKED, STATE_IO (errno
 * kept), STATE_NO_DIR (no state directory), BAD_PARAM, NULL_ARG. */
#ifndef FASTSIG_REGISTRY_H
#define FASTSIG_REGISTRY_H

#include <stddef.h>
#include <stdint.h>
#include "statefile.h"

#define FASTSIG_REGISTRY_SUBDIR "registry"

/* <state_dir>/registry/<key id in hex>. */
int fastsig_registry_entry_path(const char *state_dir,
                                const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN], char *out,
                                size_t outlen);

/* Registers a key's first state: makes key_id's entry naming state_path
 * (absolute, no newline), durably, creating the registry directory under
 * the existing state_dir if needed. A key id that has an entry already is
 * refused with STATE_REGISTERED and the first state path its entry names
 * copied to found ("" when the entry holds none). */
int fastsig_registry_claim(const char *state_dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                           const char *state_path, char *found, size_t foundlen);

/* Withdraws a claim whose state file was never made (the generation failed
 * after the claim): removes the entry only if it names state_path and
 * nothing else (FASTSIG_OK also when there is no entry). */
int fastsig_registry_unclaim(const char *state_dir,
                             const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                             const char *state_path);

#endif
