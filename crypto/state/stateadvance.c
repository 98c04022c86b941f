/* stateadvance.c - moving a state file's next forward by hand (the
 * operator's `fastsig-keytool state advance`, doc/state.md section 6):
 * one locked durable update like a reservation, never backwards, and the
 * registry's high-water mark raised after it like after a reservation. */
#define _GNU_SOURCE /* cpu_set_t in statefile_internal.h */
#include <pthread.h>
#include "fastsig_err.h"
#include "statefile_internal.h"

struct advance_arg {
    uint64_t to, from;
};

/* Forward only, inside [next, max]: a lower `to` would hand out spent
 * indices again. Equal: nothing to write. */
static int advance_step(const fs_state_slot *cur, uint64_t *next, void *arg)
{
    struct advance_arg *a = arg;
    a->from = cur->next;
    if (a->to < cur->next || a->to > cur->max)
        return FASTSIG_ERR_STATE_RANGE;
    if (a->to == cur->next)
        return 1;
    *next = a->to;
    return 0;
}

int fastsig_state_advance(fastsig_state *st, uint64_t to, uint64_t *from, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    struct advance_arg a = { to, 0 };
    pthread_mutex_lock(&st->mu);
    int rc = fs_state_own_process(st, fs_state_current_pid(), c);
    if (rc == FASTSIG_OK)
        rc = fs_state_update(st, &st->fd, advance_step, &a, c);
    if (rc == FASTSIG_OK)
        fs_state_raise_marks(st, to); /* after the fdatasync: never above next */
    pthread_mutex_unlock(&st->mu);
    if (from != NULL)
        *from = a.from;
    return fs_state_end(c, rc, st->path);
}
