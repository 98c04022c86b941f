/* keytool_statecmd.h - `fastsig-keytool state`: a stateful key's state file
 * looked at and repaired by an operator (doc/state.md, section 6):
 * inspect (keytool_inspect.c), advance (keytool_advance.c), recreate
 * (keytool_recreate.c), sharing the options, the registry look-ups and the
 * key's facts (keytool_statecmd.c, keytool_keyinfo.c). */
#ifndef FASTSIG_KEYTOOL_STATECMD_H
#define FASTSIG_KEYTOOL_STATECMD_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/provider.h>
#include "state/statefile.h"

/* Exit status of `state inspect` (also the other commands' 0 / 1 / 2). */
enum { KT_HEALTHY = 0, KT_FAILED = 1, KT_USAGE = 2, KT_REPAIRABLE = 3, KT_BROKEN = 4 };

/* The margin a repair adds above the highest index seen: the largest block
 * a signer reserves by default (a torn update reserved at most that). */
#define KT_REPAIR_MARGIN FASTSIG_STATE_DEFAULT_BATCH

typedef struct {
    const char *state, *in, *passin, *state_dir, *provider_path, *sig;
    OSSL_PROVIDER *fs; /* fastsig, when it loaded: its default state directory */
    uint64_t to, by, at, margin;
    int json, has_to, has_by, has_at, has_margin, lost;
} KT_STATE_OPTS;

int kt_state_inspect(const KT_STATE_OPTS *o);
int kt_state_advance(const KT_STATE_OPTS *o);
int kt_state_recreate(const KT_STATE_OPTS *o);

/* The resolved default state directory (--state-dir, else as the provider
 * finds it without a configuration file: $FASTSIG_STATE_DIR,
 * $XDG_STATE_HOME/fastsig, ~/.local/state/fastsig) into out: 1, else 0 (none
 * exists: no registry to consult). */
int kt_registry_dir(const KT_STATE_OPTS *o, char *out, size_t len);
/* The registry's high-water mark of (key id, state path) under dir, 0 when
 * none (mark_file gets the mark file's path, "" when dir is NULL). */
uint64_t kt_registry_mark(const char *dir, const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                          const char *path, uint64_t max, char *mark_file, size_t len);
/* Raises that mark to `to` (made if missing); after the state's update. */
void kt_registry_raise(const char *dir, const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                       const char *path, uint64_t to);
/* The lock timeout from $FASTSIG_STATE_LOCK_TIMEOUT as the provider reads
 * it (default 5 s): 1, else 0 with a message. */
/* "state file PATH: " and the reason of a failed state call. */
void kt_state_error(const char *path, int err, const fastsig_cause *cause);

/* What a key (--in: a private or a public PEM file) says about its state:
 * key id, parameter set, and for a private key its state path and range
 * [first, end). The providers are loaded by the caller. 1, else 0 with a
 * message. */
typedef struct {
    uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN];
    char param[512], state[4200];
    uint64_t first, end;
    int is_private;
} KT_KEYINFO;
int kt_key_info(const KT_STATE_OPTS *o, KT_KEYINFO *ki);
/* The index a signature of the key's parameter set was made with (XMSS:
 * its first 4 bytes; XMSS^MT: its first ceil(h/8); HSS: the levels' q
 * joined, top first), read from the file sig: 1, else 0 with a message. */
int kt_sig_index(const char *param, const char *sig, uint64_t *idx);

#endif
