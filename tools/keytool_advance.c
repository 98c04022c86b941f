/* keytool_advance.c - `fastsig-keytool state advance STATE --to N | --by N
 * | --past-signature SIG --in KEY`: the state's next index moved forward,
 * never back, in one durable update under the state's lock (a signer
 * updating it makes this wait, then fail after the lock timeout:
 * crypto/state/stateadvance.c), then the registry's high-water mark raised
 * to it. Signers running meanwhile are safe: their blocks lie below. A
 * state rolled back below the mark moves only to the mark + a block or
 * beyond (its repair). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "fastsig_err.h"
#include "keytool_statecmd.h"

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

/* A state below the registry's mark (restored from a copy) moves only to
 * the mark + a block or beyond: the repair of a rollback. 1 when allowed,
 * else 0 with a message. */
static int past_rollback(const KT_STATE_OPTS *o, uint64_t next, uint64_t to, uint64_t mark,
                         const char *mark_file)
{
    if (next >= mark || to >= mark + KT_REPAIR_MARGIN)
        return 1;
    fprintf(stderr, "fastsig-keytool: state file %s was rolled back (next %" PRIu64 " below the"
                    " registry's high-water mark %" PRIu64 ", %s): advance it to at least %" PRIu64
                    " (the mark + %d) or beyond (doc/state.md section 6)\n", o->state, next, mark,
            mark_file, mark + KT_REPAIR_MARGIN, KT_REPAIR_MARGIN);
    return 0;
}

int kt_state_advance(const KT_STATE_OPTS *o)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t next, max, to, from = 0, mark = 0;
    char dir[PATH_MAX], mark_file[PATH_MAX] = "";
    int have_dir = kt_registry_dir(o, dir, sizeof(dir));
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
    if (have_dir)
        mark = kt_registry_mark(dir, id, o->state, max, mark_file, sizeof(mark_file));
    if (!past_rollback(o, next, to, mark, mark_file))
        return KT_FAILED;
    if ((err = fastsig_state_open(o->state, id, &st, &cause)) == FASTSIG_OK)
        err = fastsig_state_advance(st, to, &from, &cause);
    if (err == FASTSIG_ERR_STATE_RANGE)
        fprintf(stderr, "fastsig-keytool: state file %s moved meanwhile (next %" PRIu64 "): %"
                        PRIu64 " would be back; nothing written\n", o->state, from, to);
    else if (err != FASTSIG_OK)
        kt_state_error(o->state, err, &cause);
    if (fastsig_state_close(st) != FASTSIG_OK && err == FASTSIG_OK)
        err = FASTSIG_ERR_STATE_IO;
    if (err != FASTSIG_OK)
        return KT_FAILED;
    if (have_dir) /* after the state's fdatasync: never above its next */
        kt_registry_raise(dir, id, o->state, to);
    printf("state file %s: next %" PRIu64 " -> %" PRIu64 " (%" PRIu64 " indices skipped, %"
           PRIu64 " remaining)\n", o->state, from, to, to - from, max - to);
    return KT_HEALTHY;
}
