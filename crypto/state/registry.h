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
 * Seed entries: <state dir>/registry/<fingerprint, 64 hex>.seed, the same
 * form (one line: the state made with that seed). A key id changes with the
 * parameter set, but a hash-based key's one-time keys depend only on its
 * secret seeds and the address: the same seed under another set signs with
 * the same one-time keys. The caller passes a 32-byte one-way fingerprint
 * of those seeds (never the seeds; what it covers is the cores' business)
 * and claims it beside the key id, after it and before the state file; a
 * claimed fingerprint refuses any second key of that seed. Shards (more
 * states of one key) claim no fingerprint.
 *
 * Errors (fastsig_err.h): STATE_REGISTERED (the key id or fingerprint has
 * an entry), STATE_NOT_FILE (no regular file / directory at the entry or registry
 * path: nothing followed, nothing waited on), STATE_UNTRUSTED (an entry or
 * registry directory open to other users: fileowner.h), STATE_LOCKED, STATE_IO (errno
 * kept), STATE_NO_DIR (no state directory), BAD_PARAM, NULL_ARG. */
#ifndef FASTSIG_REGISTRY_H
#define FASTSIG_REGISTRY_H

#include <stddef.h>
#include <stdint.h>
#include "statefile.h"

#define FASTSIG_REGISTRY_SUBDIR "registry"
#define FASTSIG_REGISTRY_SEED_SUFFIX ".seed"
#define FASTSIG_REGISTRY_FP_LEN FASTSIG_STATE_KEY_ID_LEN /* a seed fingerprint */

/* The two kinds of entry: a key id's, a seed fingerprint's. */
typedef enum { FASTSIG_REGISTRY_KEY_ID, FASTSIG_REGISTRY_SEED } fastsig_registry_kind;

/* <state_dir>/registry/<key id in hex>. */
int fastsig_registry_entry_path(const char *state_dir,
                                const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN], char *out,
                                size_t outlen);

/* Registers a key's first state (a key id's entry; the _as forms below do
 * either kind): makes key_id's entry naming state_path (absolute, no
 * newline), durably, creating the registry directory under
 * the existing state_dir if needed. A key id that has an entry already is
 * refused with STATE_REGISTERED and the first state path its entry names
 * copied to found ("" when the entry holds none). */
int fastsig_registry_claim(const char *state_dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                           const char *state_path, char *found, size_t foundlen,
                           fastsig_cause *cause);

/* A new key's two claims at once: key_id's entry and its seed fingerprint
 * fp's entry, both naming state_path, as one file under two names (one
 * fsync of its data, one of the registry directory: what one entry cost).
 * STATE_REGISTERED when either has an entry already: *refused says which
 * (found: the state it names), and nothing is left claimed. Withdrawn with
 * fastsig_registry_unclaim and fastsig_registry_unclaim_as(SEED, ...). */
int fastsig_registry_claim_key(const char *state_dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                               const uint8_t fp[FASTSIG_REGISTRY_FP_LEN], const char *state_path,
                               char *found, size_t foundlen, fastsig_registry_kind *refused,
                               fastsig_cause *cause);

/* Withdraws a claim whose state file was never made (the generation failed
 * after the claim): removes the entry only if it names state_path and
 * nothing else (FASTSIG_OK also when there is no entry). */
int fastsig_registry_unclaim(const char *state_dir,
                             const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                             const char *state_path);

/* The same for either kind of entry (id: a key id or a seed fingerprint,
 * 32 bytes each): its path, a claim, its withdrawal, and a look-up that
 * claims nothing (a key generation asks before it builds its trees; the
 * claim still decides): FASTSIG_OK when id has no entry, STATE_REGISTERED
 * with its first state path in found ("" when none) when it has, or the
 * error reading it. cause (may be NULL) gets why a claim or look-up failed:
 * the entry (what: "registry entry", or "registry directory" when that was
 * refused) and errno. */
int fastsig_registry_path_as(fastsig_registry_kind kind, const char *state_dir,
                             const uint8_t id[FASTSIG_STATE_KEY_ID_LEN], char *out, size_t outlen);
int fastsig_registry_claim_as(fastsig_registry_kind kind, const char *state_dir,
                              const uint8_t id[FASTSIG_STATE_KEY_ID_LEN], const char *state_path,
                              char *found, size_t foundlen, fastsig_cause *cause);
int fastsig_registry_unclaim_as(fastsig_registry_kind kind, const char *state_dir,
                                const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                                const char *state_path);
int fastsig_registry_holder_as(fastsig_registry_kind kind, const char *state_dir,
                               const uint8_t id[FASTSIG_STATE_KEY_ID_LEN], char *found,
                               size_t foundlen, fastsig_cause *cause);

/* A later state of a registered key (a shard carved from it): state_path
 * (absolute, no newline) added to key_id's entry as one more line, under
 * the entry's exclusive lock, durably (registryshard.c); *added 1 when it
 * was, 0 when the line is there already or key_id has no entry here (a
 * key registered in another directory, or never: FASTSIG_OK). */
int fastsig_registry_add_state(const char *state_dir,
                               const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                               const char *state_path, int *added, fastsig_cause *cause);

/* The key's state file moved from `from` to `to` (fastsig-keytool move):
 * key_id's entry gets `to` for every line that is `from`, rewritten whole
 * under the entry's exclusive lock and installed under each of its names
 * (the seed fingerprint's too: registrymove.c). *moved: the lines changed
 * (0 when there is no entry or no line names `from`: FASTSIG_OK). */
int fastsig_registry_move_state(const char *state_dir,
                                const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                                const char *from, const char *to, int *moved,
                                fastsig_cause *cause);

#endif
