/* keytool_state.h - what `status` and `move` know about a stateful key
 * without its secrets: its key id, its height from the cores' tables, the
 * default state directory the provider uses, the state paths the key-id
 * registry names for it, and which processes hold a state file open. */
#ifndef FASTSIG_KEYTOOL_STATE_H
#define FASTSIG_KEYTOOL_STATE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "state/statefile.h"

#define KT_MAX_STATES 64 /* registry lines read (a key and its shards) */

/* The key id of k's state files: SHA-256 of its public key (the raw key of
 * its SubjectPublicKeyInfo, as the provider hashes it). 1, else 0. */
int kt_key_id(EVP_PKEY *k, uint8_t id[FASTSIG_STATE_KEY_ID_LEN]);
/* The key id as 64 lowercase hex digits (out: 65 bytes). */
void kt_hex(const uint8_t *b, size_t len, char *out);
/* Signatures per key of the set as 2^h (XMSS, XMSS^MT; HSS: the levels'
 * "LMS/LM-OTS,..." heights summed): h, or -1 when the name is none. */
int kt_set_height(const char *set);
/* The provider's default state directory (fastsig/provider.h
 * FASTSIG_PROV_PARAM_STATE_DIR): 1, else 0 with a message. */
int kt_state_dir(OSSL_PROVIDER *fs, char *out, size_t len);
/* The state paths id's registry entry in dir names (the key's own first,
 * then shards'), read without a lock (a torn last line is left out): their
 * count, 0 when there is no entry, -1 with *err set when it cannot be read.
 * paths: KT_MAX_STATES of PATH_MAX. */
int kt_registry_states(const char *dir, const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                       char (*paths)[PATH_MAX], int *err);
/* The shard states with default names beside state (its directory's
 * <key id>.<A>-<B>.state files, fastsig_state_shard_path) that paths[0..n)
 * does not name yet (shards carved before their registry lines existed)
 * appended to paths[n..KT_MAX_STATES): the new count. */
int kt_shard_states(const char *state, const char *idhex, char (*paths)[PATH_MAX], int n);
/* The processes (not this one) that hold the file dev/ino open, from /proc
 * (only those of this user are visible): their count, up to max pids. */
size_t kt_open_by(uint64_t dev, uint64_t ino, long *pids, size_t max);

#endif
