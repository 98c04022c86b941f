/* staterollback.c - rollback detection (doc/state.md section 7): the
 * handle's mark, the registry's high-water mark (statemark.h), and the
 * poisoned handle. */
#define _GNU_SOURCE /* cpu_set_t in statefile_internal.h */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "statefile_internal.h"
#include "fileio.h"
#include "statemark.h"

/* Poisons the handle (first sighting kept): every call fails from now on. */
int fs_state_poison(fastsig_state *st, uint64_t next, uint64_t mark, int registry)
{
    pthread_mutex_lock(&st->wmu);
    if (!__atomic_load_n(&st->poisoned, __ATOMIC_RELAXED)) {
        st->rb_next = next;
        st->rb_mark = mark;
        st->rb_registry = registry;
        __atomic_store_n(&st->poisoned, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&st->wmu);
    errno = 0;
    return FASTSIG_ERR_STATE_ROLLED_BACK;
}

/* The handle's verdict on a slot it read: rolled back (poisoned from now
 * on) when its next is below what this handle reserved itself, or when it
 * was poisoned before. */
int fs_state_check_rollback(fastsig_state *st, const fs_state_slot *cur)
{
    if (__atomic_load_n(&st->poisoned, __ATOMIC_ACQUIRE))
        return errno = 0, FASTSIG_ERR_STATE_ROLLED_BACK;
    uint64_t mark = __atomic_load_n(&st->mark, __ATOMIC_ACQUIRE);
    return cur->next < mark ? fs_state_poison(st, cur->next, mark, 0) : FASTSIG_OK;
}

/* After a durable reservation ending at end: raises the handle's mark and
 * the registry's, which must never be above the file's next, hence only
 * now, after the fdatasync. A failed registry write only lets it lag. */
void fs_state_raise_marks(fastsig_state *st, uint64_t end)
{
    int e = errno;
    uint64_t m = __atomic_load_n(&st->mark, __ATOMIC_RELAXED);
    while (m < end && !__atomic_compare_exchange_n(&st->mark, &m, end, 0, __ATOMIC_RELEASE,
                                                   __ATOMIC_RELAXED))
        ;
    const char *mp = __atomic_load_n(&st->mark_path, __ATOMIC_ACQUIRE);
    if (mp != NULL)
        fs_mark_raise(mp, st->key_id, st->path, end);
    errno = e;
}

/* ---- the registry's high-water mark (statemark.h) ----------------------- */

int fastsig_state_use_registry(fastsig_state *st, const char *state_dir, fastsig_cause *cause)
{
    char mp[PATH_MAX];
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (st == NULL || state_dir == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = fs_mark_path(state_dir, st->key_id, st->path, mp, sizeof(mp));
    if (rc != FASTSIG_OK)
        return fs_cause_end(c, rc, st->path, "state file", "state directory");
    char *dup = strdup(mp);
    if (dup == NULL)
        return FASTSIG_ERR_NOMEM;
    pthread_mutex_lock(&st->mu);
    fs_state_slot cur;
    if (st->mark_path != NULL)
        rc = FASTSIG_ERR_BAD_PARAM; /* once, right after open */
    else if ((rc = fs_state_own_process(st, fs_state_current_pid(), c)) == FASTSIG_OK
             && (rc = fs_state_lock_path_file(st, &st->fd, F_RDLCK, c)) == FASTSIG_OK) {
        /* under the state's lock: a release lowers both under it */
        rc = fs_state_read_checked(st->fd, st->key_id, st->max, &cur, st->path, c);
        uint64_t mark = rc == FASTSIG_OK ? fs_mark_read(dup, st->key_id, st->path, st->max) : 0;
        if (rc == FASTSIG_OK && cur.next < mark)
            rc = fs_state_poison(st, cur.next, mark, 1);
        else if (rc == FASTSIG_OK)
            fs_mark_init(dup, st->key_id, st->path); /* best effort, like a raise */
        fs_file_unlock(st->fd);
    }
    if (rc == FASTSIG_OK || rc == FASTSIG_ERR_STATE_ROLLED_BACK)
        __atomic_store_n(&st->mark_path, dup, __ATOMIC_RELEASE);
    else
        free(dup);
    pthread_mutex_unlock(&st->mu);
    return fs_cause_end(c, rc, st->path, "state file", "state directory");
}

int fastsig_state_rollback(fastsig_state *st, uint64_t *next, uint64_t *mark,
                           const char **mark_file)
{
    if (st == NULL || !__atomic_load_n(&st->poisoned, __ATOMIC_ACQUIRE))
        return 0;
    if (next)
        *next = st->rb_next;
    if (mark)
        *mark = st->rb_mark;
    if (mark_file)
        *mark_file = st->rb_registry ? st->mark_path : NULL;
    return 1;
}
