/* stateful_state.c - the state file of the stateful key object
 * (stateful_key.h): where it lives, opening it at the first signature,
 * making it at key generation, the errors that name it, and what
 * `pkey -text` shows of it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "stateful_key.h"
#include "xmss/xmss_hash.h" /* xmss_key_id */
#include "fastsig_err.h"

/* The default state directory (made if missing), absolute and resolved:
 * where keys without state: keep their states, and the key-id registry. A
 * failure names the directory. */
int stateful_default_state_dir(char *real, size_t len, FSP_ERRDETAIL *d)
{
    char dir[4096];
    fastsig_cause cause;
    int err;
    if ((err = fastsig_state_default_dir(fsp_config_state_dir(), dir, sizeof(dir))) != FASTSIG_OK)
        return err;
    if ((err = fastsig_state_make_dir(dir, &cause)) != FASTSIG_OK
        || (err = fastsig_state_resolve_dir(dir, real, len, &cause)) != FASTSIG_OK)
        fsp_detail_file(d, err, "state directory", dir, cause.sys_errno, NULL);
    return err;
}

int stateful_abs_path(const char *opt, char *buf, size_t len)
{
    char dir[4096];
    if (opt[0] == '/') {
        if (strlen(opt) >= len)
            return FASTSIG_ERR_BAD_PARAM;
        strcpy(buf, opt);
    } else if (getcwd(dir, sizeof(dir)) == NULL
               || (size_t)snprintf(buf, len, "%s/%s", dir, opt) >= len) {
        return FASTSIG_ERR_BAD_PARAM;
    }
    return FASTSIG_OK;
}

/* The state path stored in the key: absolute, so the key works from any
 * working directory, and the same file from every one (a relative
 * FASTSIG_STATE_DIR or state_dir is resolved once, here: copies of a
 * directory of keys used from two places must not get two states). */
static int state_path(STATEFUL_KEY *x, const char *opt, FSP_ERRDETAIL *d)
{
    char buf[4096], real[4096];
    int err;

    if (opt == NULL) {
        if ((err = stateful_default_state_dir(real, sizeof(real), d)) != FASTSIG_OK
            || (err = fastsig_state_key_path(real, x->key_id, buf, sizeof(buf))) != FASTSIG_OK)
            return err;
    } else if ((err = stateful_abs_path(opt, buf, sizeof(buf))) != FASTSIG_OK) {
        return err;
    }
    if (strlen(buf) > 0xffff)
        return FASTSIG_ERR_BAD_PARAM;
    return (x->path = OPENSSL_strdup(buf)) != NULL ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

/* What x's poisoned state handle saw (fastsig_state_rollback). */
static void rollback_why(const STATEFUL_KEY *x, char *why, size_t len)
{
    uint64_t next, mark;
    const char *reg;
    fastsig_state *st = __atomic_load_n(&x->st, __ATOMIC_ACQUIRE);
    if (st == NULL || !fastsig_state_rollback(st, &next, &mark, &reg))
        snprintf(why, len, "was rolled back");
    else if (reg != NULL)
        snprintf(why, len, "was rolled back (next %" PRIu64 " below the registry's high-water "
                 "mark %" PRIu64 ", registry file %s): see doc/state.md, section 7", next, mark,
                 reg);
    else
        snprintf(why, len, "was rolled back (next %" PRIu64 " below the %" PRIu64 " this "
                 "process already reserved)", next, mark);
}

/* Fills d with x's state file and the cause of a state error and returns
 * err. The state call's cause (NULL: none)
 * holds errno of the failing system call for these codes; for the others
 * (corrupt, another key's, not a regular file, ...) the reason says it all. */
static int state_error(const STATEFUL_KEY *x, int err, const fastsig_cause *cause,
                       FSP_ERRDETAIL *d)
{
    int sys_errno = cause != NULL ? cause->sys_errno : 0;
    switch (err) {
    case FASTSIG_ERR_STATE_IO:
    case FASTSIG_ERR_STATE_MISSING:
    case FASTSIG_ERR_STATE_NO_DIR:
        fsp_detail_state(d, err, x->path, sys_errno);
        break;
    case FASTSIG_ERR_STATE_CORRUPT:
    case FASTSIG_ERR_STATE_WRONG_KEY:
    case FASTSIG_ERR_STATE_EXISTS:
    case FASTSIG_ERR_STATE_NOT_FILE:
        fsp_detail_state(d, err, x->path, 0);
        break;
    case FASTSIG_ERR_STATE_UNTRUSTED:
        if (cause != NULL) /* the refused path and why are the cause's */
            fsp_detail_untrusted(d, cause, "state file", "state directory");
        break;
    case FASTSIG_ERR_STATE_LOCKED: {
        unsigned ms = fastsig_state_lock_timeout();
        char why[96];
        snprintf(why, sizeof(why), "locked by another process (waited %u.%03u s)", ms / 1000,
                 ms % 1000);
        fsp_detail_state_why(d, err, x->path, why);
        break;
    }
    case FASTSIG_ERR_STATE_ROLLED_BACK: {
        char why[4352];
        rollback_why(x, why, sizeof(why));
        fsp_detail_state_says(d, err, x->path, why);
        break;
    }
    case FASTSIG_ERR_STATE_MAX:
    case FASTSIG_ERR_KEY_EXHAUSTED:
    case FASTSIG_ERR_OTS_USED: {
        char why[128];
        stateful_state_why(x, err, why, sizeof(why));
        fsp_detail_state_why(d, err, x->path, why);
        break;
    }
    }
    return err;
}

int stateful_state_error(const STATEFUL_KEY *x, int err, const fastsig_cause *cause,
                     FSP_ERRDETAIL *d)
{
    return state_error(x, err, cause, d);
}


/* Keeps st's high-water mark in the registry of the default state
 * directory and checks the file against it (a state file restored alone
 * from a backup is refused). No default directory (none known, or it does
 * not exist): no mark, as for older keys. */
static int use_registry(fastsig_state *st, fastsig_cause *cause)
{
    char dir[4096], real[4096];
    if (fastsig_state_default_dir(fsp_config_state_dir(), dir, sizeof(dir)) != FASTSIG_OK
        || fastsig_state_resolve_dir(dir, real, sizeof(real), NULL) != FASTSIG_OK)
        return FASTSIG_OK;
    return fastsig_state_use_registry(st, real, cause);
}

/* Opens x's state read-write (x->st_lock held, x->st NULL); the failure
 * stays in st_err, its cause in *cause. */
static void open_state(STATEFUL_KEY *x, fastsig_cause *cause)
{
    fastsig_state *st = NULL;
    uint64_t max, next;

    cause->sys_errno = 0;
    if ((x->st_err = xmss_key_id(x->pk, x->pklen, x->key_id)) != FASTSIG_OK)
        return;
    x->st_err = fastsig_state_open(x->path, x->key_id, &st, cause);
    if (x->st_err != FASTSIG_OK)
        return;
    if ((x->st_err = use_registry(st, cause)) == FASTSIG_ERR_STATE_ROLLED_BACK) {
        /* kept, poisoned: every signature says what it saw */
        __atomic_store_n(&x->st, st, __ATOMIC_RELEASE);
        return;
    }
    /* max and next checked against the key's range (stateful_range_check) */
    if (x->st_err == FASTSIG_OK
        && (x->st_err = fastsig_state_query(st, &next, NULL, &max, cause)) == FASTSIG_OK
        && (x->st_err = stateful_range_check(x, max, next)) != FASTSIG_OK) {
        x->st_max = max;
        x->st_next = next;
        cause->sys_errno = 0;
    }
    if (x->st_err != FASTSIG_OK) {
        fastsig_state_close(st);
        return;
    }
    __atomic_store_n(&x->st, st, __ATOMIC_RELEASE);
}

/* x's state handle, opened by the first caller: threads signing with one
 * key object (and its copies, which share it) share one handle. A failed
 * open is tried again by the next signature (a lock held elsewhere may be
 * gone by then); NULL with the cause noted (state_error) when it fails. */
fastsig_state *stateful_state_of(STATEFUL_KEY *x, int *err, FSP_ERRDETAIL *d)
{
    fastsig_state *st = __atomic_load_n(&x->st, __ATOMIC_ACQUIRE);
    if (st != NULL)
        return st;
    if (!CRYPTO_THREAD_write_lock(x->st_lock)) {
        *err = FASTSIG_ERR_INTERNAL;
        return NULL;
    }
    if ((st = x->st) == NULL) {
        fastsig_cause cause;
        open_state(x, &cause);
        if ((st = x->st) == NULL)
            *err = state_error(x, x->st_err, &cause, d);
    }
    CRYPTO_THREAD_unlock(x->st_lock);
    return st;
}

int stateful_state_new(STATEFUL_KEY *x, const char *state_opt, FSP_ERRDETAIL *d)
{
    char dir[4096];
    struct stat sb;
    fastsig_cause cause;
    int err;
    if (!x->seed_fp_set)
        return FASTSIG_ERR_INTERNAL; /* every kind checks its seed first */
    if ((err = xmss_key_id(x->pk, x->pklen, x->key_id)) != FASTSIG_OK
        || (err = state_path(x, state_opt, d)) != FASTSIG_OK
        || (err = stateful_default_state_dir(dir, sizeof(dir), d)) != FASTSIG_OK)
        return err;
    /* the same key again finds its one state there (stateful_regen.c) */
    if (!stateful_regen_same_key(x, dir)) {
        if ((err = stateful_register(x, dir, d)) != FASTSIG_OK)
            return err;
        err = fastsig_state_create(x->path, x->key_id, x->ops->max(x->core), 0, 0, &cause);
        if (err != FASTSIG_OK) {
            /* no state was made (a file already at the path is not this
             * generation's): the key may be generated again */
            if (err == FASTSIG_ERR_STATE_EXISTS || lstat(x->path, &sb) != 0)
                stateful_unregister(x, dir);
            return err == FASTSIG_ERR_STATE_EXISTS ? stateful_regen_exists(x, d)
                                                   : state_error(x, err, &cause, d);
        }
    }
    err = FASTSIG_OK;
    return stateful_state_of(x, &err, d) != NULL ? FASTSIG_OK : err;
}

/* Before the first signature the state is only looked at: read-only, the
 * lock waited for a bounded time (`pkey -text` must not take a state). */
int stateful_state(const void *key, FSP_STATEINFO *out)
{
    const STATEFUL_KEY *x = key;
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t first, end;
    fastsig_state *st;
    fastsig_cause cause;
    int err;

    if (!stateful_has_private(x))
        return FASTSIG_ERR_BAD_KEY;
    stateful_range(x, &first, &end);
    if ((st = __atomic_load_n(&x->st, __ATOMIC_ACQUIRE)) != NULL) {
        if ((err = fastsig_state_query(st, &out->index, &out->remaining, &out->max, NULL))
            == FASTSIG_OK)
            out->max -= first; /* a shard's total is its range */
        return err;
    }
    if ((err = xmss_key_id(x->pk, x->pklen, id)) != FASTSIG_OK)
        return err;
    err = fastsig_state_peek(x->path, id, &out->index, &out->remaining, &out->max, &cause);
    if (err == FASTSIG_OK && (err = stateful_range_check(x, out->max, out->index)) != FASTSIG_OK) {
        char why[128];
        stateful_range_why(x, out->max, out->index, why, sizeof(why));
        snprintf(out->why, sizeof(out->why), "state file %s: %s", x->path, why);
    } else if (err == FASTSIG_OK) {
        out->max -= first;
    } else {
        state_error(x, err, &cause, out->detail);
    }
    return err;
}
