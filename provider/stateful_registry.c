/* stateful_registry.c - a new stateful key's entries in the key-id registry
 * (crypto/state/registry.h) of the default state directory: its key id and
 * the fingerprint of its seeds, each naming the key's one state, so that
 * neither the same key nor the same seed under another parameter set (the
 * same one-time keys, another key id) ever gets a second fresh state; and a
 * shard's state added to its key's entry, so that status finds it. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "prov.h"
#include "stateful_key.h"
#include "state/registry.h"
#include "fastsig_err.h"

_Static_assert(STATEFUL_SEED_FP_LEN == FASTSIG_REGISTRY_FP_LEN, "one fingerprint size");
#define SEED FASTSIG_REGISTRY_SEED /* the seed fingerprints' entries */

/* What an entry's state holds, for the refusal: the key, or the seed. */
typedef struct {
    const char *holds, *rule;
} REGISTRY_WHAT;
static const REGISTRY_WHAT key_entry = { "this key's state", "a key gets one state" };
static const REGISTRY_WHAT seed_entry = {
    "holds this seed's one-time keys", "a seed gets one state, under any parameter set"
};

/* Fills d with why a claim or look-up of entry failed (err; found: the
 * state its entry names) and returns err. */
static int refused(int err, const fastsig_cause *cause, const char *entry, const char *found,
                   const REGISTRY_WHAT *what, FSP_ERRDETAIL *d)
{
    char why[4352];
    struct stat sb;
    if (err == FASTSIG_ERR_STATE_UNTRUSTED) {
        fsp_detail_untrusted(d, cause, "registry entry", "registry directory");
    } else if (err != FASTSIG_ERR_STATE_REGISTERED) {
        fsp_detail_file(d, err, "registry entry", entry, cause->sys_errno, NULL);
    } else if (found[0] == '\0') {
        fsp_detail_file(d, err, "registry entry", entry, 0,
                           "names no state file (damaged): see doc/state.md, section 11");
    } else if (lstat(found, &sb) == 0) {
        snprintf(why, sizeof(why), "%s (registry entry %s): %s", what->holds, entry, what->rule);
        fsp_detail_file(d, err, "state file", found, 0, why);
    } else {
        snprintf(why, sizeof(why), "names state file %s, which is missing (a key generation "
                 "stopped before making it, or it was removed): see doc/state.md, section 11",
                 found);
        fsp_detail_file(d, err, "registry entry", entry, 0, why);
    }
    return err;
}

int stateful_seed_check(STATEFUL_KEY *x, const uint8_t *seed, size_t seedlen,
                        const char *state_opt, int *regen, FSP_ERRDETAIL *d)
{
    char dir[4096], found[4096], entry[4096];
    fastsig_cause cause;
    int err = x->ops->seed_fp(x->core, seed, seedlen, x->seed_fp);
    if (err != FASTSIG_OK || (err = stateful_default_state_dir(dir, sizeof(dir), d)) != FASTSIG_OK)
        return err;
    x->seed_fp_set = 1;
    err = fastsig_registry_holder_as(SEED, dir, x->seed_fp, found, sizeof(found), &cause);
    *regen = err == FASTSIG_ERR_STATE_REGISTERED && stateful_regen_may_hold(x, state_opt, dir, found);
    if (*regen)
        return FASTSIG_OK; /* decided when the key id is known */
    if (err == FASTSIG_OK
        || fastsig_registry_path_as(SEED, dir, x->seed_fp, entry, sizeof(entry)) != FASTSIG_OK)
        return err;
    return refused(err, &cause, entry, found, &seed_entry, d);
}

int stateful_register(const STATEFUL_KEY *x, const char *dir, FSP_ERRDETAIL *d)
{
    char found[4096], entry[4096];
    fastsig_cause cause;
    fastsig_registry_kind which;
    /* one file under both names: a key's entries cost one entry's fsyncs */
    int err = fastsig_registry_claim_key(dir, x->key_id, x->seed_fp, x->path, found,
                                         sizeof(found), &which, &cause);
    if (err == FASTSIG_OK)
        return err;
    /* a seed claimed since stateful_seed_check is refused like a key id */
    return fastsig_registry_path_as(which, dir, which == SEED ? x->seed_fp : x->key_id, entry,
                                    sizeof(entry)) == FASTSIG_OK
           ? refused(err, &cause, entry, found, which == SEED ? &seed_entry : &key_entry, d)
           : err;
}

void stateful_unregister(const STATEFUL_KEY *x, const char *dir)
{
    fastsig_registry_unclaim_as(SEED, dir, x->seed_fp, x->path);
    fastsig_registry_unclaim(dir, x->key_id, x->path);
}

void stateful_register_shard(const STATEFUL_KEY *x)
{
    char dir[4096], real[4096];
    fastsig_cause cause;
    int added, err;
    /* no default directory, or none made yet: no registry to add to */
    if (fastsig_state_default_dir(fsp_config_state_dir(), dir, sizeof(dir)) != FASTSIG_OK
        || fastsig_state_resolve_dir(dir, real, sizeof(real), NULL) != FASTSIG_OK)
        return;
    err = fastsig_registry_add_state(real, x->key_id, x->path, &added, &cause);
    if (err != FASTSIG_OK) /* the shard is made (its parent moved): a warning */
        fprintf(stderr, "fastsig: warning: registry entry %s: shard state %s not added (%s):"
                        " fastsig-keytool status of the public key will not list it\n",
                cause.path[0] ? cause.path : real, x->path, fastsig_strerror(err));
}
