/* stateful_regen.c - a key generated again where its state already is: a
 * program re-run with the same seed: and the same state path (or the default
 * one) makes the same key, and its existing state is that key's one state:
 * it takes it over as a copy of the key would, never a fresh one (a used
 * index stays used). Any other file at the path is refused, saying whose
 * state it holds and what to do. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "prov.h"
#include "stateful_key.h"
#include "state/registry.h"
#include "fastsig_err.h"

/* path's state file read into *in: the newer of its valid slots, or -1
 * (unreadable, or no valid slot: not a state file). */
static int newer_slot(const char *path, fastsig_state_info *in)
{
    if (fastsig_state_inspect(path, in, NULL) != FASTSIG_OK || !(in->valid[0] || in->valid[1]))
        return -1;
    return in->valid[1] && (!in->valid[0] || in->seq[1] > in->seq[0]);
}

int stateful_regen_may_hold(const STATEFUL_KEY *x, const char *state_opt, const char *dir,
                            const char *found)
{
    char path[4096];
    size_t n = strlen(dir);
    fastsig_state_info in;
    int s = found[0] != '\0' ? newer_slot(found, &in) : -1;
    /* a state of another size is another key's: refused before the trees are built */
    if (s < 0 || in.max[s] != x->ops->max(x->core))
        return 0;
    if (state_opt == NULL) /* the default path, <dir>/<key id>.state: the key id is not known yet */
        return strncmp(found, dir, n) == 0 && found[n] == '/' && strchr(found + n + 1, '/') == NULL;
    return stateful_abs_path(state_opt, path, sizeof(path)) == FASTSIG_OK
           && strcmp(path, found) == 0;
}

int stateful_regen_same_key(const STATEFUL_KEY *x, const char *dir)
{
    char found[4096];
    uint64_t next, left, max;
    /* the registry names this very file as the key's state, and the file is this key's */
    return fastsig_registry_holder_as(FASTSIG_REGISTRY_KEY_ID, dir, x->key_id, found,
                                      sizeof(found), NULL) == FASTSIG_ERR_STATE_REGISTERED
           && strcmp(found, x->path) == 0
           && fastsig_state_peek(x->path, x->key_id, &next, &left, &max, NULL) == FASTSIG_OK;
}

int stateful_regen_exists(const STATEFUL_KEY *x, FSP_ERRDETAIL *d)
{
    fastsig_state_info in;
    char why[512];
    int s = newer_slot(x->path, &in);
    if (s < 0) {
        fsp_detail_state_why(d, FASTSIG_ERR_STATE_EXISTS, x->path,
                             "not a state file: choose another state path");
        return FASTSIG_ERR_STATE_EXISTS;
    }
    if (memcmp(in.key_id[s], x->key_id, sizeof(x->key_id)) == 0)
        snprintf(why, sizeof(why), "this key's state (index %" PRIu64 " of %" PRIu64 "): use the "
                 "key file saved with it", in.next[s], in.max[s]);
    else if (in.next[s] == 0)
        snprintf(why, sizeof(why), "another key's state, index 0 of %" PRIu64 ": that key signed "
                 "nothing; if it was never saved (a generation that stopped), remove the file, "
                 "else choose another state path", in.max[s]);
    else
        snprintf(why, sizeof(why), "another key's state, index %" PRIu64 " of %" PRIu64 ": keep "
                 "it, choose another state path", in.next[s], in.max[s]);
    fsp_detail_state_why(d, FASTSIG_ERR_STATE_EXISTS, x->path, why);
    return FASTSIG_ERR_STATE_EXISTS;
}
