/* hbs_keyobj.c - the key object of the stateful hash-based adapters (WOTSP,
 * XMSS, XMSS^MT; hbs_keyobj.h): making and freeing it, where its state file
 * lives, the private-key framing, taking an index, the public key. */
#define _GNU_SOURCE /* CPU_COUNT */
#include <errno.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "hbs_keyobj.h"
#include "fastsig_err.h"

/* Row of kind named by the oid in a key encoding's first 4 bytes, or NULL. */
static const hbs_params *params_of_key(int kind, const unsigned char *in, size_t len)
{
    return len < 4 ? NULL : hbs_params_by_oid(kind, (uint32_t)hbs_get_be(in, 4));
}

HBSA_KEY *hbsa_new_ops(const HBSA_OPS *ops)
{
    HBSA_KEY *x = OPENSSL_zalloc(sizeof(*x));
    if (x == NULL)
        return NULL;
    x->ops = ops;
    x->st_err = FASTSIG_ERR_BAD_KEY;
    x->batch = FASTSIG_STATE_DEFAULT_BATCH;
    if ((x->st_lock = CRYPTO_THREAD_lock_new()) == NULL) {
        OPENSSL_free(x);
        return NULL;
    }
    return x;
}

HBSA_KEY *hbsa_new(const hbs_params *p)
{
    HBSA_KEY *x = hbsa_new_ops(p->kind == HBS_KIND_WOTSP ? &hbsa_wotsp_ops : &hbsa_xmss_ops);
    if (x == NULL)
        return NULL;
    x->p = p;
    x->pklen = 4 + 2 * (size_t)p->n;
    x->end = hbs_last_index(p) + 1;
    return x;
}

uint64_t hbsa_row_max(const HBSA_KEY *x)
{
    return hbs_last_index(x->p) + 1;
}

size_t hbsa_row_sig_bytes(const HBSA_KEY *x)
{
    return hbs_sig_bytes(x->p);
}

unsigned hbsa_row_n(const HBSA_KEY *x)
{
    return x->p->n;
}

const char *hbsa_row_name(const HBSA_KEY *x)
{
    return x->p->name;
}

int hbsa_row_seed_fp(const HBSA_KEY *x, const uint8_t *seed, size_t seedlen,
                     uint8_t fp[HBSA_SEED_FP_LEN])
{
    return hbs_seed_fp(x->p, seed, seedlen, fp);
}

const hbs_params *hbsa_params(int kind, const char *name)
{
    const hbs_params *p = hbs_params_by_name(name);
    return p != NULL && p->kind == kind ? p : NULL;
}

int hbsa_seed(const FS_GENOPTS *o, const hbs_params *p, uint8_t *seed)
{
    size_t len = 3 * (size_t)p->n;
    if (o->bits != 0)
        return FASTSIG_ERR_UNSUPPORTED;
    if (o->seed != NULL) {
        if (o->seedlen != len)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(seed, o->seed, len);
        return FASTSIG_OK;
    }
    return o->rng(o->rng_arg, seed, len) ? FASTSIG_OK : FASTSIG_ERR_RNG;
}

/* The default state directory (made if missing), absolute and resolved:
 * where keys without state: keep their states, and the key-id registry. A
 * failure names the directory. */
int hbsa_default_state_dir(char *real, size_t len)
{
    char dir[4096];
    fastsig_cause cause;
    int err;
    if ((err = fastsig_state_default_dir(fs_config_state_dir(), dir, sizeof(dir))) != FASTSIG_OK)
        return err;
    if ((err = fastsig_state_make_dir(dir, &cause)) != FASTSIG_OK
        || (err = fastsig_state_resolve_dir(dir, real, len, &cause)) != FASTSIG_OK)
        fs_err_file_detail(err, "state directory", dir, cause.sys_errno, NULL);
    return err;
}

/* The state path stored in the key: absolute, so the key works from any
 * working directory, and the same file from every one (a relative
 * FASTSIG_STATE_DIR or state_dir is resolved once, here: copies of a
 * directory of keys used from two places must not get two states). */
static int state_path(HBSA_KEY *x, const char *opt)
{
    char buf[4096], dir[4096], real[4096];
    int err;

    if (opt == NULL || opt[0] == '\0') {
        if ((err = hbsa_default_state_dir(real, sizeof(real))) != FASTSIG_OK
            || (err = fastsig_state_key_path(real, x->key_id, buf, sizeof(buf))) != FASTSIG_OK)
            return err;
    } else if (opt[0] == '/') {
        if (strlen(opt) >= sizeof(buf))
            return FASTSIG_ERR_BAD_PARAM;
        strcpy(buf, opt);
    } else {
        if (getcwd(dir, sizeof(dir)) == NULL
            || (size_t)snprintf(buf, sizeof(buf), "%s/%s", dir, opt) >= sizeof(buf))
            return FASTSIG_ERR_BAD_PARAM;
    }
    if (strlen(buf) > 0xffff)
        return FASTSIG_ERR_BAD_PARAM;
    return (x->path = OPENSSL_strdup(buf)) != NULL ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

/* What x's poisoned state handle saw (fastsig_state_rollback). */
static void rollback_why(const HBSA_KEY *x, char *why, size_t len)
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

/* Notes x's state file and the cause beside a state error (see
 * fs_err_state_detail) and returns err. The state call's cause (NULL: none)
 * holds errno of the failing system call for these codes; for the others
 * (corrupt, another key's, not a regular file, ...) the reason says it all. */
static int state_error(const HBSA_KEY *x, int err, const fastsig_cause *cause)
{
    int sys_errno = cause != NULL ? cause->sys_errno : 0;
    switch (err) {
    case FASTSIG_ERR_STATE_IO:
    case FASTSIG_ERR_STATE_MISSING:
    case FASTSIG_ERR_STATE_NO_DIR:
        fs_err_state_detail(err, x->path, sys_errno);
        break;
    case FASTSIG_ERR_STATE_CORRUPT:
    case FASTSIG_ERR_STATE_WRONG_KEY:
    case FASTSIG_ERR_STATE_EXISTS:
    case FASTSIG_ERR_STATE_NOT_FILE:
        fs_err_state_detail(err, x->path, 0);
        break;
    case FASTSIG_ERR_STATE_UNTRUSTED:
        if (cause != NULL) /* the refused path and why are the cause's */
            fs_err_untrusted(cause, "state file", "state directory");
        break;
    case FASTSIG_ERR_STATE_LOCKED: {
        unsigned ms = fastsig_state_lock_timeout();
        char why[96];
        snprintf(why, sizeof(why), "locked by another process (waited %u.%03u s)", ms / 1000,
                 ms % 1000);
        fs_err_state_why(err, x->path, why);
        break;
    }
    case FASTSIG_ERR_STATE_ROLLED_BACK: {
        char why[4352];
        rollback_why(x, why, sizeof(why));
        fs_err_state_says(err, x->path, why);
        break;
    }
    case FASTSIG_ERR_STATE_MAX:
    case FASTSIG_ERR_KEY_EXHAUSTED:
    case FASTSIG_ERR_OTS_USED: {
        char why[128];
        hbsa_state_why(x, err, why, sizeof(why));
        fs_err_state_why(err, x->path, why);
        break;
    }
    }
    return err;
}

int hbsa_state_error(const HBSA_KEY *x, int err, const fastsig_cause *cause)
{
    return state_error(x, err, cause);
}

void hbsa_attach(HBSA_KEY *x)
{
    x->st_err = hbs_key_id(x->pk, x->pklen, x->key_id);
}

/* Keeps st's high-water mark in the registry of the default state
 * directory and checks the file against it (a state file restored alone
 * from a backup is refused). No default directory (none known, or it does
 * not exist): no mark, as for older keys. */
static int use_registry(fastsig_state *st, fastsig_cause *cause)
{
    char dir[4096], real[4096];
    if (fastsig_state_default_dir(fs_config_state_dir(), dir, sizeof(dir)) != FASTSIG_OK
        || fastsig_state_resolve_dir(dir, real, sizeof(real), NULL) != FASTSIG_OK)
        return FASTSIG_OK;
    return fastsig_state_use_registry(st, real, cause);
}

/* Opens x's state read-write (x->st_lock held, x->st NULL); the failure
 * stays in st_err, its cause in *cause. */
static void open_state(HBSA_KEY *x, fastsig_cause *cause)
{
    fastsig_state *st = NULL;
    uint64_t max, next;

    cause->sys_errno = 0;
    if ((x->st_err = hbs_key_id(x->pk, x->pklen, x->key_id)) != FASTSIG_OK)
        return;
    x->st_err = fastsig_state_open(x->path, x->key_id, &st, cause);
    if (x->st_err != FASTSIG_OK)
        return;
    if ((x->st_err = use_registry(st, cause)) == FASTSIG_ERR_STATE_ROLLED_BACK) {
        /* kept, poisoned: every signature says what it saw */
        __atomic_store_n(&x->st, st, __ATOMIC_RELEASE);
        return;
    }
    /* max and next checked against the key's range (hbsa_range_check) */
    if (x->st_err == FASTSIG_OK
        && (x->st_err = fastsig_state_query(st, &next, NULL, &max, cause)) == FASTSIG_OK
        && (x->st_err = hbsa_range_check(x, max, next)) != FASTSIG_OK) {
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
fastsig_state *hbsa_state_of(HBSA_KEY *x, int *err)
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
            *err = state_error(x, x->st_err, &cause);
    }
    CRYPTO_THREAD_unlock(x->st_lock);
    return st;
}

int hbsa_progress(void *arg, uint64_t done, uint64_t total)
{
    HBSA_PROGRESS *g = arg;
    uint64_t step = total > 0 ? done * 40 / total : 40;
    int go = 1;
    for (; g->shown < step && go; g->shown++)
        go = g->o->progress(g->o->progress_arg, 0, (int)g->shown);
    return !go; /* cores: nonzero = stop; FS_GENOPTS: 0 = stop */
}

unsigned hbsa_default_threads(void)
{
    /* the affinity mask, so taskset and cpusets count; at most 8 */
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
                                                          : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

int hbsa_state_new(HBSA_KEY *x, const char *state_opt)
{
    char dir[4096];
    struct stat sb;
    fastsig_cause cause;
    int err;
    if (!x->seed_fp_set)
        return FASTSIG_ERR_INTERNAL; /* every kind checks its seed first */
    if ((err = hbs_key_id(x->pk, x->pklen, x->key_id)) != FASTSIG_OK
        || (err = state_path(x, state_opt)) != FASTSIG_OK
        || (err = hbsa_default_state_dir(dir, sizeof(dir))) != FASTSIG_OK
        || (err = hbsa_register(x, dir)) != FASTSIG_OK)
        return err;
    if ((err = fastsig_state_create(x->path, x->key_id, x->ops->max(x), 0, 0, &cause))
        != FASTSIG_OK) {
        /* no state was made (a file already at the path is not this
         * generation's): the key may be generated again */
        if (err == FASTSIG_ERR_STATE_EXISTS || lstat(x->path, &sb) != 0)
            hbsa_unregister(x, dir);
        return state_error(x, err, &cause);
    }
    err = FASTSIG_OK;
    return hbsa_state_of(x, &err) != NULL ? FASTSIG_OK : err;
}

int hbsa_priv_split(const unsigned char *in, size_t len, size_t corelen, char **path,
                    size_t *rangelen)
{
    size_t pl;
    if (len < corelen + 2)
        return FASTSIG_ERR_BAD_KEY;
    pl = (size_t)in[corelen] << 8 | in[corelen + 1];
    if ((len != corelen + 2 + pl && len != corelen + 2 + pl + HBSA_RANGE_LEN) || pl == 0
        || memchr(in + corelen + 2, 0, pl) != NULL)
        return FASTSIG_ERR_BAD_KEY;
    *rangelen = len - (corelen + 2 + pl);
    if ((*path = OPENSSL_strndup((const char *)in + corelen + 2, pl)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((*path)[0] == '/')
        return FASTSIG_OK;
    /* relative: each working directory would give the key another state */
    fs_err_state_why(FASTSIG_ERR_BAD_KEY, *path, "the key's state path is not absolute");
    OPENSSL_free(*path);
    *path = NULL;
    return FASTSIG_ERR_BAD_KEY;
}

/* The range field of a shard's private key (hbs_keyobj.h). */
static void range_encode(const HBSA_KEY *x, unsigned char *out)
{
    out[0] = 1;
    for (int i = 0; i < 8; i++) {
        out[1 + i] = (unsigned char)(x->first >> (56 - 8 * i));
        out[9 + i] = (unsigned char)(x->end >> (56 - 8 * i));
    }
}

static int range_decode(HBSA_KEY *x, const unsigned char *in)
{
    uint64_t first = hbs_get_be(in + 1, 8), end = hbs_get_be(in + 9, 8);
    /* a kind without shards (a one-time key has nothing to share out) */
    if (in[0] != 1 || x->ops->set_range == NULL || first >= end || end > x->ops->max(x))
        return FASTSIG_ERR_BAD_KEY;
    x->first = first;
    x->end = end;
    return FASTSIG_OK;
}

int hbsa_priv_tail(HBSA_KEY *x, const unsigned char *in, size_t len, size_t corelen)
{
    size_t rangelen = 0;
    int err = hbsa_priv_split(in, len, corelen, &x->path, &rangelen);
    return err == FASTSIG_OK && rangelen > 0 ? range_decode(x, in + len - rangelen) : err;
}

int hbsa_priv_begin(int kind, const unsigned char *in, size_t len, HBSA_KEY **out)
{
    const hbs_params *p = params_of_key(kind, in, len);
    HBSA_KEY *x;
    int err;

    if (p == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if ((x = hbsa_new(p)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = hbsa_priv_tail(x, in, len, hbs_sk_bytes(p))) != FASTSIG_OK) {
        hbsa_free(x);
        return err;
    }
    *out = x;
    return FASTSIG_OK;
}

int hbsa_priv_frame(const HBSA_KEY *x, const uint8_t *core, size_t corelen,
                    unsigned char *out, size_t *len)
{
    int whole = x->first == 0 && x->end == x->ops->max(x);
    size_t pl = x->path != NULL ? strlen(x->path) : 0;
    size_t need = corelen + 2 + pl + (whole ? 0 : HBSA_RANGE_LEN);
    if (x->path == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (out != NULL) {
        if (*len < need)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(out, core, corelen);
        out[corelen] = (unsigned char)(pl >> 8);
        out[corelen + 1] = (unsigned char)pl;
        memcpy(out + corelen + 2, x->path, pl);
        if (!whole)
            range_encode(x, out + corelen + 2 + pl);
    }
    *len = need;
    return FASTSIG_OK;
}

static int take(HBSA_KEY *x, const FS_SIGOPTS *o, uint64_t *idx)
{
    /* a signature context's own block size, else the key's */
    uint64_t batch = o != NULL && o->batch > 0 ? o->batch
                                               : __atomic_load_n(&x->batch, __ATOMIC_RELAXED);
    int err = FASTSIG_OK;
    fastsig_cause cause;
    fastsig_state *st = hbsa_state_of(x, &err);
    if (st == NULL)
        return err;
    err = fastsig_state_take_batch(st, batch, idx, &cause);
    return err == FASTSIG_OK ? err : state_error(x, err, &cause);
}

int hbsa_sign(void *key, const FS_SIGOPTS *o, int prehashed, unsigned char *sig,
              size_t *siglen, const unsigned char *msg, size_t msglen)
{
    HBSA_KEY *x = key;
    size_t need = x->ops->sig_bytes(x);
    uint64_t idx;
    int err;

    if (!hbsa_has_private(x))
        return FASTSIG_ERR_BAD_KEY;
    if (*siglen < need)
        return FASTSIG_ERR_BAD_LENGTH; /* before anything is spent */
    if ((err = x->ops->check(x)) != FASTSIG_OK)
        return err; /* a damaged key: nothing spent */
    if ((err = take(x, o, &idx)) != FASTSIG_OK)
        return err; /* WOTSP: OTS_USED once the one index is spent */
    if ((err = x->ops->sign(x, idx, o != NULL && o->verify_after_sign, msg, msglen, sig,
                            need)) != FASTSIG_OK) {
        OPENSSL_cleanse(sig, need);
        return state_error(x, err, NULL); /* an index the core refuses names the file too */
    }
    *siglen = need;
    return FASTSIG_OK;
}

int hbsa_pub_decode(int kind, const unsigned char *in, size_t len, void **key)
{
    const hbs_params *p;
    HBSA_KEY *x;

    if ((p = params_of_key(kind, in, len)) == NULL
        || len != 4 + 2 * (size_t)p->n)
        return FASTSIG_ERR_BAD_KEY;
    if ((x = hbsa_new(p)) == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(x->pk, in, len);
    *key = x;
    return FASTSIG_OK;
}

void hbsa_free(void *key)
{
    HBSA_KEY *x = key;
    if (x == NULL)
        return;
    fastsig_state_close(x->st);
    CRYPTO_THREAD_lock_free(x->st_lock);
    x->ops->free(x);
    fs_secmem_free(x->sk); /* wiped */
    OPENSSL_free(x->path);
    OPENSSL_free(x);
}

int hbsa_has_private(const void *key)
{
    const HBSA_KEY *x = key;
    return x->k != NULL || x->sk != NULL;
}

int hbsa_pub_encode(const void *key, unsigned char *out, size_t *len)
{
    const HBSA_KEY *x = key;
    if (out != NULL) {
        if (*len < x->pklen)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(out, x->pk, x->pklen);
    }
    *len = x->pklen;
    return FASTSIG_OK;
}

void hbsa_sizes(const void *key, FS_KEYSIZES *out)
{
    const HBSA_KEY *x = key;
    unsigned n = x->ops->n(x);
    out->bits = 8 * n;
    out->security_bits = 8 * n;
    out->max_sig = x->ops->sig_bytes(x);
}

const char *hbsa_param_name(const void *key)
{
    const HBSA_KEY *x = key;
    return x->ops->name(x);
}

/* Before the first signature the state is only looked at: read-only, the
 * lock waited for a bounded time (`pkey -text` must not take a state). */
int hbsa_state(const void *key, FS_STATEINFO *out)
{
    const HBSA_KEY *x = key;
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_state *st;
    fastsig_cause cause;
    int err;

    if (!hbsa_has_private(x))
        return FASTSIG_ERR_BAD_KEY;
    if ((st = __atomic_load_n(&x->st, __ATOMIC_ACQUIRE)) != NULL) {
        if ((err = fastsig_state_query(st, &out->index, &out->remaining, &out->max, NULL))
            == FASTSIG_OK)
            out->max -= x->first; /* a shard's total is its range */
        return err;
    }
    if ((err = hbs_key_id(x->pk, x->pklen, id)) != FASTSIG_OK)
        return err;
    err = fastsig_state_peek(x->path, id, &out->index, &out->remaining, &out->max, &cause);
    if (err == FASTSIG_OK && (err = hbsa_range_check(x, out->max, out->index)) != FASTSIG_OK) {
        char why[128];
        hbsa_range_why(x, out->max, out->index, why, sizeof(why));
        snprintf(out->why, sizeof(out->why), "state file %s: %s", x->path, why);
    } else if (err == FASTSIG_OK) {
        out->max -= x->first;
    } else {
        state_error(x, err, &cause);
    }
    return err;
}
