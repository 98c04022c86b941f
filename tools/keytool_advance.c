/* keytool_advance.c - `fastsig-keytool state advance STATE --to N | --by N
 * | --past-signature SIG --in KEY`: the state's next index moved forward,
 * never back, in one durable update under the state's lock (a signer
 * updating it makes this wait, then fail after the lock timeout), the
 * registry's high-water mark raised with it (crypto/state/stateadvance.c).
 * Signers running meanwhile are safe: their blocks lie below. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "fastsig_err.h"
#include "keytool_state.h"

/* The file's current slot, when the file is healthy: 1, else 0 with a
 * message. */
static int healthy(const char *path, uint8_t id[FASTSIG_STATE_KEY_ID_LEN], uint64_t *next,
                   uint64_t *max)
{
    fastsig_state_info info;
    fastsig_cause cause;
    int err = fastsig_state_inspect(path, &info, &cause), cur;
    if (err != FASTSIG_OK) {
        kt_state_error(path, err, &cause);
        return 0;
    }
    if (!info.file_ok) {
        fprintf(stderr, "fastsig-keytool: state file %s is not healthy (see `fastsig-keytool state"
                        " inspect`): advance moves a healthy state only; repair it with `state"
                        " recreate` (doc/state.md section 6)\n", path);
        return 0;
    }
    cur = info.seq[0] > info.seq[1] ? 0 : 1;
    memcpy(id, info.key_id[cur], FASTSIG_STATE_KEY_ID_LEN);
    *next = info.next[cur];
    *max = info.max[cur];
    return 1;
}

/* Where to go: --to, --by, or past SIG's index. *past: the target came
 * from a signature (already past it is no error). 1, else 0 with a message. */
static int target(const KT_STATE_OPTS *o, const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                  uint64_t next, uint64_t *to, int *past)
{
    KT_KEYINFO ki;
    uint64_t idx;
    *past = 0;
    if (o->has_to) {
        *to = o->to;
    } else if (o->has_by) {
        if (o->by > UINT64_MAX - next) {
            fprintf(stderr, "fastsig-keytool: --by %" PRIu64 ": too large\n", o->by);
            return 0;
        }
        *to = next + o->by;
    } else {
        if (!kt_key_info(o, &ki) || !kt_sig_index(ki.param, o->sig, &idx))
            return 0;
        if (memcmp(ki.key_id, id, FASTSIG_STATE_KEY_ID_LEN) != 0) {
            fprintf(stderr, "fastsig-keytool: state file %s belongs to another key than %s\n",
                    o->state, o->in);
            return 0;
        }
        printf("signature %s: index %" PRIu64 "\n", o->sig, idx);
        *to = idx + 1;
        *past = 1;
    }
    return 1;
}

int kt_state_advance(const KT_STATE_OPTS *o)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t next, max, to, from = 0;
    char dir[PATH_MAX];
    fastsig_state *st = NULL;
    fastsig_cause cause;
    int err, past;

    if (!healthy(o->state, id, &next, &max) || !target(o, id, next, &to, &past))
        return KT_FAILED;
    if (past && to <= next) {
        printf("state file %s: next %" PRIu64 " is already past it: nothing to do\n", o->state,
               next);
        return KT_HEALTHY;
    }
    if (to < next || to > max) {
        fprintf(stderr, "fastsig-keytool: state file %s: next %" PRIu64 " cannot go to %" PRIu64
                        ": %s\n", o->state, next, to,
                to < next ? "a state never moves back (the indices below it may have signed)"
                          : "beyond the last index (max)");
        return KT_FAILED;
    }
    err = fastsig_state_open(o->state, id, &st, &cause);
    /* a state the registry says was rolled back is not moved either */
    if (err == FASTSIG_OK && kt_registry_dir(o, dir, sizeof(dir)))
        err = fastsig_state_use_registry(st, dir, &cause);
    if (err == FASTSIG_OK)
        err = fastsig_state_advance(st, to, &from, &cause);
    if (err == FASTSIG_ERR_STATE_ROLLED_BACK) {
        uint64_t seen = 0, mark = 0;
        fastsig_state_rollback(st, &seen, &mark, NULL);
        fprintf(stderr, "fastsig-keytool: state file %s was rolled back (next %" PRIu64 " below the"
                        " registry's high-water mark %" PRIu64 "): recreate it above the mark"
                        " (doc/state.md section 6)\n", o->state, seen, mark);
    } else if (err == FASTSIG_ERR_STATE_RANGE) {
        fprintf(stderr, "fastsig-keytool: state file %s moved meanwhile (next %" PRIu64 "): %"
                        PRIu64 " would be back; nothing written\n", o->state, from, to);
    } else if (err != FASTSIG_OK) {
        kt_state_error(o->state, err, &cause);
    }
    if (fastsig_state_close(st) != FASTSIG_OK && err == FASTSIG_OK)
        err = FASTSIG_ERR_STATE_IO;
    if (err != FASTSIG_OK)
        return KT_FAILED;
    printf("state file %s: next %" PRIu64 " -> %" PRIu64 " (%" PRIu64 " indices skipped, %"
           PRIu64 " remaining)\n", o->state, from, to, to - from, max - to);
    return KT_HEALTHY;
}
