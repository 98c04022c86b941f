/* cachefile.h - the node-cache file beside a state file: public bytes that
 * spare a signer from rebuilding tree nodes (what they are and how they are
 * authenticated is the caller's business: crypto/xmss tags them with a key
 * derived from the secret seed and refuses bytes that do not check).
 *
 * "<state path>.cache", mode 0600, written in place under an exclusive
 * lock; loaders take a shared lock, so none reads a half-written file. Not a
 * new file renamed over the old one: on ext4 that starts writeback of the
 * whole file (auto_da_alloc), which would dominate a process that signs
 * once. A writer killed midway leaves a torn file; the caller's tag refuses
 * it and the next signer rebuilds and rewrites it. All system calls go
 * through fileio.h (and its test fault hook). No OpenSSL. */
#ifndef FASTSIG_CACHEFILE_H
#define FASTSIG_CACHEFILE_H

#include <stddef.h>
#include <stdint.h>
#include "statecause.h"

/* Largest cache a loader accepts. */
#define FASTSIG_CACHE_MAX_BYTES (64u << 20)

/* Writes len bytes as the cache of the state file at state_path. A writer
 * that finds the file locked leaves it to the one holding the lock and
 * returns FASTSIG_OK. STATE_UNTRUSTED (nothing written) when the file or its
 * directory is open to other users (fileowner.h), STATE_NOT_FILE,
 * FASTSIG_ERR_STATE_IO or NOMEM otherwise. cause (may be NULL) gets what
 * failed ("node cache" or "state directory", statecause.h). */
int fastsig_cache_save(const char *state_path, const uint8_t *buf, size_t len,
                       fastsig_cause *cause);

/* Reads the whole cache of the state file at state_path into *buf (malloc,
 * the caller frees) under a shared lock. FASTSIG_ERR_STATE_MISSING when there
 * is none, STATE_CORRUPT when it is empty or larger than
 * FASTSIG_CACHE_MAX_BYTES, STATE_LOCKED (a writer kept it past the lock
 * timeout), STATE_UNTRUSTED (open to other users: not read), STATE_NOT_FILE,
 * STATE_IO or NOMEM; cause (may be NULL) as for fastsig_cache_save. */
int fastsig_cache_load(const char *state_path, uint8_t **buf, size_t *len,
                       fastsig_cause *cause);

#endif
