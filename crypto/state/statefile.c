/* statefile.c - state handles and their public calls: open, close, take,
 * reserve, release, query, peek, inspect, spend a shard's range. The
 * contract is in statefile.h; the handle's parts are in statefile_internal.h
 * (the update in stateupdate.c, the worker in stateworker.c, fork handling
 * in statefork.c, rollback marks in staterollback.c). */
#define _GNU_SOURCE /* secure_getenv */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "statefile_internal.h"
#include "fileio.h"
#include "statemark.h"

/* ---- handles ------------------------------------------------------------- */

int fastsig_state_open(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                       fastsig_state **out, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (path == NULL || key_id == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    fs_state_slot cur;
    int fd;
    int rc = fs_state_open_checked(path, O_RDWR, key_id, &fd, &cur, c);
    if (rc != FASTSIG_OK)
        return fs_state_end(c, rc, path);
    fastsig_state *st = calloc(1, sizeof(*st));
    char *abs = realpath(path, NULL);
    if (st != NULL && (abs != NULL || (abs = strdup(path)) != NULL)) {
        pthread_mutex_init(&st->mu, NULL);
        pthread_mutex_init(&st->wmu, NULL);
        pthread_cond_init(&st->cv, NULL);
        const char *pf = secure_getenv("FASTSIG_STATE_PREFETCH");
        st->prefetch = pf == NULL || strcmp(pf, "0") != 0;
        st->wfd = -1;
        st->refs = 1;
        st->fd = fd;
        st->fd_pid = fs_state_current_pid();
        st->path = abs;
        memcpy(st->key_id, key_id, FASTSIG_STATE_KEY_ID_LEN);
        st->max = cur.max;
        st->batch = FASTSIG_STATE_DEFAULT_BATCH;
        st->first_block = 1;
        st->pool_pid = st->fd_pid;
        *out = st;
        return FASTSIG_OK;
    }
    free(st);
    free(abs);
    close(fd);
    return fs_state_end(c, FASTSIG_ERR_NOMEM, path);
}

fastsig_state *fastsig_state_ref(fastsig_state *st)
{
    if (st != NULL)
        __atomic_add_fetch(&st->refs, 1, __ATOMIC_RELAXED);
    return st;
}

/* ---- giving back --------------------------------------------------------- */

/* Ranges to give back, the highest first: each one is given back only if
 * the file's `next` is its end by then, i.e. nobody reserved beyond. */
struct release_arg {
    fastsig_state *st;
    uint64_t from[2], end[2];
};

static int release_step(const fs_state_slot *cur, uint64_t *next, void *arg)
{
    const struct release_arg *a = arg;
    uint64_t n = cur->next;
    for (int i = 0; i < 2; i++)
        if (n == a->end[i])
            n = a->from[i];
    if (n == cur->next)
        return 1; /* someone reserved beyond our blocks: they stay burnt */
    /* the registry's mark goes down first, durably (a crash in between must
     * not leave it above the file's next), else the blocks stay burnt; this
     * handle's mark is what it writes (lower on a failed write: safe) */
    const char *mp = __atomic_load_n(&a->st->mark_path, __ATOMIC_ACQUIRE);
    if (mp != NULL && fs_mark_lower(mp, a->st->key_id, a->st->path, n) != 0)
        return 1;
    __atomic_store_n(&a->st->mark, n, __ATOMIC_RELEASE);
    *next = n;
    return 0;
}

static int release_locked(fastsig_state *st, fastsig_cause *c)
{
    if (st->pool_pid != fs_state_current_pid())
        return FASTSIG_OK; /* nothing of ours (a child never gives back the parent's) */
    struct release_arg a = { st, { st->pool_next, st->pool_next },
                             { st->pool_end, st->pool_end } };
    if (fs_state_settle_ahead(st, 1) == AHEAD_DONE && st->ahead_rc == FASTSIG_OK && st->ahead_count > 0) {
        a.from[0] = st->ahead_first;
        a.end[0] = st->ahead_first + st->ahead_count;
    }
    if (a.from[0] == a.end[0] && a.from[1] == a.end[1])
        return FASTSIG_OK;
    st->pool_end = st->pool_next; /* empty from now on, whatever happens */
    st->first_block = 1;
    return fs_state_update(st, &st->fd, release_step, &a, c);
}

int fastsig_state_close(fastsig_state *st)
{
    if (st == NULL || __atomic_sub_fetch(&st->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return FASTSIG_OK;
    pthread_mutex_lock(&st->mu);
    fs_state_drop_parents_blocks(st, fs_state_current_pid()); /* a child's close: no worker to wait for */
    fastsig_cause ignored; /* the handle is gone: its code is all a caller can use */
    int rc = release_locked(st, &ignored);
    pthread_mutex_unlock(&st->mu);
    fs_state_stop_worker(st);
    close(st->fd);
    pthread_cond_destroy(&st->cv);
    pthread_mutex_destroy(&st->wmu);
    pthread_mutex_destroy(&st->mu);
    free(st->mark_path);
    free(st->path);
    free(st);
    return rc;
}

int fastsig_state_set_batch(fastsig_state *st, uint64_t batch)
{
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (batch == 0)
        return FASTSIG_ERR_BAD_PARAM;
    pthread_mutex_lock(&st->mu);
    st->batch = batch;
    pthread_mutex_unlock(&st->mu);
    return FASTSIG_OK;
}

int fastsig_state_set_prefetch(fastsig_state *st, int on)
{
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    st->prefetch = on != 0;
    pthread_mutex_unlock(&st->mu);
    return FASTSIG_OK;
}

int fastsig_state_take(fastsig_state *st, uint64_t *idx, fastsig_cause *cause)
{
    return fastsig_state_take_batch(st, 0, idx, cause);
}

/* Makes the empty block non-empty (st->mu held): the block reserved ahead,
 * else one reserved now. *ask: the worker is to reserve the one after it
 * (from the second block on: a process that signs once reserves one index
 * and starts no thread). */
static int refill(fastsig_state *st, uint64_t want, int *ask, fastsig_cause *c)
{
    *ask = 0;
    if (fs_state_settle_ahead(st, 1) == AHEAD_DONE) {
        int rc = fs_state_collect_ahead(st, c);
        *ask = rc == FASTSIG_OK;
        return rc;
    }
    /* the first block is one index (a process that signs once reserves
     * exactly one), every later one a whole batch */
    int first = st->first_block;
    int rc = fs_state_reserve_locked(st, first ? 1 : want, NULL, NULL, c);
    if (rc == FASTSIG_OK)
        st->first_block = 0;
    *ask = rc == FASTSIG_OK && !first;
    return rc;
}

int fastsig_state_take_batch(fastsig_state *st, uint64_t batch, uint64_t *idx,
                             fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (st == NULL || idx == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    uint64_t want = batch != 0 ? batch : st->batch;
    int ask = 0;
    int rc = fs_state_own_process(st, fs_state_current_pid(), c);
    if (__atomic_load_n(&st->poisoned, __ATOMIC_ACQUIRE)) /* its block too */
        rc = fs_cause_set(c, FASTSIG_ERR_STATE_ROLLED_BACK, st->path, 0);
    if (rc == FASTSIG_OK && st->pool_next == st->pool_end)
        rc = refill(st, want, &ask, c);
    if (rc == FASTSIG_OK)
        *idx = st->pool_next++;
    if (ask) /* at a block's first take: the whole block's time to reserve the next */
        fs_state_ask_ahead(st, want);
    pthread_mutex_unlock(&st->mu);
    return rc == FASTSIG_OK ? rc : fs_state_end(c, rc, st->path);
}

int fastsig_state_reserve(fastsig_state *st, uint64_t want, uint64_t *first,
                          uint64_t *count, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (st == NULL || first == NULL || count == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (want == 0)
        return FASTSIG_ERR_BAD_PARAM;
    pthread_mutex_lock(&st->mu);
    int rc = fs_state_own_process(st, fs_state_current_pid(), c);
    if (rc == FASTSIG_OK)
        rc = fs_state_reserve_locked(st, want, first, count, c);
    pthread_mutex_unlock(&st->mu);
    return fs_state_end(c, rc, st->path);
}

int fastsig_state_release(fastsig_state *st, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    int rc = release_locked(st, c);
    pthread_mutex_unlock(&st->mu);
    return fs_state_end(c, rc, st->path);
}

static void put_counts(const fs_state_slot *cur, uint64_t pool_left, uint64_t pool_next,
                       uint64_t *next, uint64_t *remaining, uint64_t *max)
{
    if (next)
        *next = pool_left ? pool_next : cur->next;
    if (remaining)
        *remaining = cur->max - cur->next + pool_left;
    if (max)
        *max = cur->max;
}

int fastsig_state_query(fastsig_state *st, uint64_t *next, uint64_t *remaining,
                        uint64_t *max, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (st == NULL)
        return FASTSIG_ERR_NULL_ARG;
    pthread_mutex_lock(&st->mu);
    fs_state_slot cur;
    int rc = fs_state_own_process(st, fs_state_current_pid(), c);
    int ahead = fs_state_settle_ahead(st, 0); /* its block is ours once it is written */
    if (rc == FASTSIG_OK
        && (rc = fs_state_lock_path_file(st, &st->fd, F_RDLCK, c)) == FASTSIG_OK) {
        rc = fs_state_read_checked(st->fd, st->key_id, st->max, &cur, st->path, c);
        fs_file_unlock(st->fd);
    }
    if (rc == FASTSIG_OK && (rc = fs_state_check_rollback(st, &cur)) != FASTSIG_OK)
        fs_cause_set(c, rc, st->path, 0);
    uint64_t own = st->pool_end - st->pool_next, own_next = st->pool_next;
    if (ahead == AHEAD_DONE && st->ahead_rc == FASTSIG_OK) {
        if (own == 0)
            own_next = st->ahead_first;
        own += st->ahead_count;
    }
    if (rc == FASTSIG_OK)
        put_counts(&cur, own, own_next, next, remaining, max);
    pthread_mutex_unlock(&st->mu);
    return fs_state_end(c, rc, st->path);
}

int fastsig_state_peek(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                       uint64_t *next, uint64_t *remaining, uint64_t *max,
                       fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (path == NULL || key_id == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_state_slot cur;
    int fd;
    int rc = fs_state_open_checked(path, O_RDONLY, key_id, &fd, &cur, c);
    if (rc != FASTSIG_OK)
        return fs_state_end(c, rc, path);
    close(fd);
    put_counts(&cur, 0, 0, next, remaining, max);
    return FASTSIG_OK;
}

int fastsig_state_inspect(const char *path, fastsig_state_info *info, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (path == NULL || info == NULL)
        return FASTSIG_ERR_NULL_ARG;
    memset(info, 0, sizeof(*info));
    int fd = fs_file_open(path, O_RDONLY, 0, c);
    if (fd < 0)
        return fs_state_end(c, c->code, path);
    uint8_t img[FS_STATE_FILE_SIZE + 1];
    int rc = fs_file_lock(fd, F_RDLCK, 1) == 0 ? FASTSIG_OK : fs_file_lock_failed(c, path);
    if (rc == FASTSIG_OK) {
        /* a short file reads as zeros: invalid slots */
        rc = fs_state_read_image(fd, img, path, c);
        fs_file_unlock(fd);
    }
    close(fd);
    if (rc == FASTSIG_ERR_STATE_IO || rc == FASTSIG_ERR_STATE_LOCKED)
        return fs_state_end(c, rc, path);
    fs_cause_clear(c); /* corrupt or not, the file was read */
    fs_state_slot s;
    int pos;
    info->file_ok = rc == FASTSIG_OK && fs_state_image_decode(img, &s, &pos) == 0;
    for (int i = 0; i < 2; i++) {
        if (fs_state_slot_decode(img + i * FS_STATE_SLOT_STRIDE, &s) != 0)
            continue;
        info->valid[i] = 1;
        info->seq[i] = s.seq;
        info->max[i] = s.max;
        info->next[i] = s.next;
        memcpy(info->key_id[i], s.key_id, FASTSIG_STATE_KEY_ID_LEN);
    }
    return FASTSIG_OK;
}

/* ---- spending a range for a shard (shard.c) ------------------------------- */

struct spend_arg {
    uint64_t first, count;
};

static int spend_step(const fs_state_slot *cur, uint64_t *next, void *arg)
{
    struct spend_arg *a = arg;
    if (a->first == FASTSIG_STATE_FROM_NEXT)
        a->first = cur->next;
    /* only unspent indices: [first, first + count) inside [next, max) */
    if (a->first < cur->next || a->first >= cur->max || a->count > cur->max - a->first)
        return FASTSIG_ERR_STATE_RANGE;
    *next = a->first + a->count;
    return 0;
}

int fastsig_state_spend_range(fastsig_state *st, uint64_t first, uint64_t count,
                              uint64_t *got_first, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (st == NULL || got_first == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (count == 0)
        return FASTSIG_ERR_BAD_PARAM;
    struct spend_arg a = { first, count };
    pthread_mutex_lock(&st->mu);
    int rc = fs_state_own_process(st, fs_state_current_pid(), c);
    if (rc == FASTSIG_OK)
        rc = fs_state_update(st, &st->fd, spend_step, &a, c);
    if (rc == FASTSIG_OK)
        *got_first = a.first;
    pthread_mutex_unlock(&st->mu);
    return fs_state_end(c, rc, st->path);
}
