/* keytool_recreate.c - `fastsig-keytool state recreate --in KEY --at N
 * [--state-lost]`: KEY's state file written anew at next = N, for a file
 * torn by a power loss or unreadable (doc/state.md section 6). Refused when
 * the file is healthy (nothing to repair: `state advance` skips indices),
 * another key's, or missing without --state-lost (a moved file is not a lost
 * one), and when N is below the highest index the file's valid slots or the
 * registry's high-water mark show plus --margin (default 64: a block).
 * The new file appears atomically (fsync, rename, directory fsync) and the
 * registry's mark follows it; a key without a registry entry gets one. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "keytool_statecmd.h"
#include "state/registry.h"

/* The lowest next the file allows (its valid slots of this key), and
 * whether it exists: 1, else 0 with a message (healthy, another key's,
 * missing without --state-lost, unreadable). */
static int file_floor(const KT_STATE_OPTS *o, const KT_KEYINFO *ki, uint64_t *floor, int *exists)
{
    fastsig_state_info info;
    fastsig_cause cause;
    int err = fastsig_state_inspect(ki->state, &info, &cause), foreign = 0;
    const char *path = ki->state;

    *floor = 0;
    *exists = err == FASTSIG_OK;
    if (err == FASTSIG_ERR_STATE_MISSING && o->lost)
        return 1;
    if (err == FASTSIG_ERR_STATE_MISSING) {
        fprintf(stderr, "fastsig-keytool: state file %s is missing: if it is lost (not moved),"
                        " add --state-lost, with --at above every index the key ever used"
                        " (doc/state.md section 6)\n", path);
        return 0;
    }
    if (err != FASTSIG_OK) {
        kt_state_error(path, err, &cause);
        return 0;
    }
    for (int i = 0; i < 2; i++) {
        if (!info.valid[i])
            continue;
        if (memcmp(info.key_id[i], ki->key_id, FASTSIG_STATE_KEY_ID_LEN) != 0)
            foreign = 1;
        else if (info.next[i] > *floor)
            *floor = info.next[i];
    }
    if (info.file_ok && !foreign) {
        fprintf(stderr, "fastsig-keytool: state file %s is healthy (next %" PRIu64 "): nothing to"
                        " recreate (to skip indices, or past a rollback: fastsig-keytool state"
                        " advance)\n", path, *floor);
        return 0;
    }
    if (foreign) {
        fprintf(stderr, "fastsig-keytool: state file %s holds another key's state: not replaced\n",
                path);
        return 0;
    }
    return 1;
}

/* The registry's mark for the key's state raised to n; an entry made for a
 * key that has none (a registry that never saw it). */
static void registry_follow(const char *dir, const KT_KEYINFO *ki, uint64_t n)
{
    char found[PATH_MAX];
    kt_registry_raise(dir, ki->key_id, ki->state, n);
    if (fastsig_registry_holder_as(FASTSIG_REGISTRY_KEY_ID, dir, ki->key_id, found,
                                   sizeof(found), NULL) == FASTSIG_OK
        && fastsig_registry_claim(dir, ki->key_id, ki->state, found, sizeof(found), NULL)
               == FASTSIG_OK)
        printf("registry %s: entry made for this key (it had none)\n", dir);
}

int kt_state_recreate(const KT_STATE_OPTS *o)
{
    KT_KEYINFO ki;
    char dir[PATH_MAX], mark_file[PATH_MAX];
    uint64_t floor, mark = 0;
    int exists, have_dir, err;
    fastsig_cause cause;

    if (!kt_key_info(o, &ki))
        return KT_FAILED;
    if (!ki.is_private) {
        fprintf(stderr, "fastsig-keytool: %s: recreate needs the private key (its state path"
                        " and range)\n", o->in);
        return KT_FAILED;
    }
    if (o->at < ki.first || o->at > ki.end) {
        fprintf(stderr, "fastsig-keytool: --at %" PRIu64 " is outside the key's indices %" PRIu64
                        "-%" PRIu64 "\n", o->at, ki.first, ki.end);
        return KT_FAILED;
    }
    if (!file_floor(o, &ki, &floor, &exists))
        return KT_FAILED;
    if ((have_dir = kt_registry_dir(o, dir, sizeof(dir))))
        mark = kt_registry_mark(dir, ki.key_id, ki.state, ki.end, mark_file, sizeof(mark_file));
    if (mark > floor)
        floor = mark;
    /* the torn update, or a raise of the mark lost, may have reserved a
     * block beyond what is seen: the margin */
    if (floor > 0 && (o->at < floor || o->at - floor < o->margin)) {
        fprintf(stderr, "fastsig-keytool: --at %" PRIu64 " is below %" PRIu64 " + %" PRIu64
                        ": index %" PRIu64 " is what %s shows, and a signer may have reserved"
                        " up to --margin (its batch, default %d) beyond it (doc/state.md"
                        " section 6)\n", o->at, floor, o->margin, floor,
                floor == mark && mark > 0 ? "the registry's high-water mark" : "a valid slot",
                KT_REPAIR_MARGIN);
        return KT_FAILED;
    }
    err = fastsig_state_create(ki.state, ki.key_id, ki.end, o->at,
                               exists ? FASTSIG_STATE_OVERWRITE : 0, &cause);
    if (err != FASTSIG_OK) {
        kt_state_error(ki.state, err, &cause);
        return KT_FAILED;
    }
    if (have_dir)
        registry_follow(dir, &ki, o->at);
    printf("state file %s: recreated at next %" PRIu64 " (max %" PRIu64 ", %" PRIu64
           " remaining)\n", ki.state, o->at, ki.end, ki.end - o->at);
    return KT_HEALTHY;
}
