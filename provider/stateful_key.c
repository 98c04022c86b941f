/* stateful_key.c - the key object of every stateful row (stateful_key.h):
 * making and freeing it over a core of the contract (crypto/stateful.h),
 * the private-key framing, taking an index and signing, the node cache
 * file's one lifecycle, the public key. */
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "stateful_key.h"
#include "cpu.h"
#include "fastsig_err.h"
#include "bytes.h"
#include "xmss/xmss_hash.h" /* xmss_key_id */
#include "state/cachefile.h"

STATEFUL_KEY *stateful_new(const fs_stateful_ops *ops, void *core)
{
    STATEFUL_KEY *x = OPENSSL_zalloc(sizeof(*x));
    if (x == NULL || (x->st_lock = CRYPTO_THREAD_lock_new()) == NULL) {
        OPENSSL_free(x);
        ops->free(core);
        return NULL;
    }
    x->ops = ops;
    x->core = core;
    x->pk = ops->pk(core, &x->pklen);
    x->st_err = FASTSIG_ERR_BAD_KEY;
    x->batch = FASTSIG_STATE_DEFAULT_BATCH;
    return x;
}

void stateful_range(const STATEFUL_KEY *x, uint64_t *first, uint64_t *end)
{
    x->ops->range(x->core, first, end);
}

const xmss_params *stateful_params(int kind, const char *name)
{
    const xmss_params *p = xmss_params_by_name(name);
    return p != NULL && p->kind == kind ? p : NULL;
}

int stateful_seed(const FSP_GENOPTS *o, const xmss_params *p, uint8_t *seed)
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

unsigned stateful_default_threads(void)
{
    return fs_cpu_threads();
}

/* ---- node cache file: one lifecycle for every kind ---- */

/* Best effort, and reported in x->cache_err rather than as a failure: the
 * cache is public and only spares work (a signer without it rebuilds the
 * nodes it needs), so neither key generation nor signing should fail for
 * it. The key shows a failed write in `openssl pkey -text`. */
static void cache_write(STATEFUL_KEY *x)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int err = x->ops->cache_export(x->core, &buf, &len);

    if (err == FASTSIG_OK)
        err = fastsig_cache_save(x->path, buf, len, NULL);
    free(buf);
    x->cache_err = err;
}

void stateful_cache_read(STATEFUL_KEY *x)
{
    uint8_t *buf = NULL;
    size_t len = 0;

    if (x->ops->cache_import == NULL || __atomic_load_n(&x->cache_read, __ATOMIC_ACQUIRE))
        return;
    if (!CRYPTO_THREAD_write_lock(x->st_lock))
        return;
    if (!x->cache_read && fastsig_cache_load(x->path, &buf, &len, NULL) == FASTSIG_OK)
        x->ops->cache_import(x->core, buf, len);
    free(buf);
    __atomic_store_n(&x->cache_read, 1, __ATOMIC_RELEASE);
    CRYPTO_THREAD_unlock(x->st_lock);
}

int stateful_gen_done(STATEFUL_KEY *x, int err, const FSP_GENOPTS *o, void **key)
{
    if (err == FASTSIG_OK) {
        o->progress(o->progress_arg, 3, 0);
        x->pk = x->ops->pk(x->core, &x->pklen);
        x->cache_read = 1; /* the core is the cache */
        err = stateful_state_new(x, o->state, o->detail);
    }
    if (err != FASTSIG_OK) {
        stateful_free(x);
        return err;
    }
    if (x->ops->cache_export != NULL)
        cache_write(x); /* so that the first signer process starts warm */
    *key = x;
    return FASTSIG_OK;
}

void stateful_free(void *key)
{
    STATEFUL_KEY *x = key;
    if (x == NULL)
        return;
    /* the last write, when this process changed the cache (or carved a
     * shard): nobody is left to tell when it fails (the next signer
     * rebuilds) */
    if (x->st != NULL && x->ops->cache_dirty != NULL && x->ops->cache_dirty(x->core))
        cache_write(x);
    fastsig_state_close(x->st);
    CRYPTO_THREAD_lock_free(x->st_lock);
    x->ops->free(x->core); /* secrets wiped */
    OPENSSL_free(x->path);
    OPENSSL_free(x);
}

/* ---- private and public key encodings ---- */

int stateful_priv_split(const unsigned char *in, size_t len, size_t corelen, char **path,
                    size_t *rangelen, FSP_ERRDETAIL *d)
{
    size_t pl;
    if (len < corelen + 2)
        return FASTSIG_ERR_BAD_KEY;
    pl = fs_load_be16(in + corelen);
    if ((len != corelen + 2 + pl && len != corelen + 2 + pl + STATEFUL_RANGE_LEN) || pl == 0
        || memchr(in + corelen + 2, 0, pl) != NULL)
        return FASTSIG_ERR_BAD_KEY;
    *rangelen = len - (corelen + 2 + pl);
    if ((*path = OPENSSL_strndup((const char *)in + corelen + 2, pl)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((*path)[0] == '/')
        return FASTSIG_OK;
    /* relative: each working directory would give the key another state */
    fsp_detail_state_why(d, FASTSIG_ERR_BAD_KEY, *path, "the key's state path is not absolute");
    OPENSSL_free(*path);
    *path = NULL;
    return FASTSIG_ERR_BAD_KEY;
}

/* The range field of a shard's private key (stateful_key.h). */
static void range_encode(uint64_t first, uint64_t end, unsigned char *out)
{
    out[0] = 1;
    fs_store_be64(out + 1, first);
    fs_store_be64(out + 9, end);
}

static int range_decode(STATEFUL_KEY *x, const unsigned char *in)
{
    uint64_t first = fs_load_be64(in + 1), end = fs_load_be64(in + 9);
    /* a kind without shards (a one-time key has nothing to share out) */
    if (in[0] != 1 || x->ops->set_range == NULL || first >= end
        || end > x->ops->max(x->core))
        return FASTSIG_ERR_BAD_KEY;
    return x->ops->set_range(x->core, first, end) == FASTSIG_OK ? FASTSIG_OK
                                                                  : FASTSIG_ERR_BAD_KEY;
}

int stateful_priv_decode(const fs_stateful_ops *ops, const unsigned char *in, size_t len,
                     void **key, FSP_ERRDETAIL *d)
{
    size_t corelen = 0, rangelen = 0;
    void *core = NULL;
    STATEFUL_KEY *x;
    int err;

    if ((err = ops->from_sk(in, len, &corelen, &core)) != FASTSIG_OK)
        return err;
    if ((x = stateful_new(ops, core)) == NULL)
        return FASTSIG_ERR_NOMEM;
    err = stateful_priv_split(in, len, corelen, &x->path, &rangelen, d);
    if (err == FASTSIG_OK && rangelen > 0)
        err = range_decode(x, in + len - rangelen); /* a shard's */
    if (err != FASTSIG_OK) {
        stateful_free(x);
        return err;
    }
    /* an unusable state still gives a key (verify, public export) */
    x->st_err = xmss_key_id(x->pk, x->pklen, x->key_id);
    *key = x;
    return FASTSIG_OK;
}

int stateful_priv_encode(const void *key, unsigned char *out, size_t *len)
{
    const STATEFUL_KEY *x = key;
    uint8_t core[FS_STATEFUL_SK_MAX];
    uint64_t first, end, next = 0;
    size_t corelen = sizeof(core), pl = x->path != NULL ? strlen(x->path) : 0, need;
    int err;

    if (!x->ops->has_sk(x->core) || x->path == NULL)
        return FASTSIG_ERR_BAD_KEY;
    stateful_range(x, &first, &end);
    /* informational only (never read back): the state's next index */
    if (x->st == NULL || fastsig_state_query(x->st, &next, NULL, NULL, NULL) != FASTSIG_OK)
        next = 0;
    if ((err = x->ops->export_sk(x->core, next, core, &corelen)) != FASTSIG_OK)
        return err;
    need = corelen + 2 + pl + (first == 0 && end == x->ops->max(x->core) ? 0 : STATEFUL_RANGE_LEN);
    if (out != NULL && *len < need)
        err = FASTSIG_ERR_BAD_LENGTH;
    if (out != NULL && err == FASTSIG_OK) {
        memcpy(out, core, corelen);
        fs_store_be16(out + corelen, (uint16_t)pl);
        memcpy(out + corelen + 2, x->path, pl);
        if (need > corelen + 2 + pl)
            range_encode(first, end, out + corelen + 2 + pl);
    }
    OPENSSL_cleanse(core, sizeof(core));
    *len = need;
    return err;
}

int stateful_pub_decode(const fs_stateful_ops *ops, const unsigned char *in, size_t len,
                    void **key)
{
    void *core = NULL;
    int err = ops->from_pk(in, len, &core);
    if (err == FASTSIG_OK && (*key = stateful_new(ops, core)) == NULL)
        err = FASTSIG_ERR_NOMEM;
    return err;
}

int stateful_pub_encode(const void *key, unsigned char *out, size_t *len)
{
    const STATEFUL_KEY *x = key;
    if (out != NULL) {
        if (*len < x->pklen)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(out, x->pk, x->pklen);
    }
    *len = x->pklen;
    return FASTSIG_OK;
}

int stateful_has_private(const void *key)
{
    const STATEFUL_KEY *x = key;
    return x->ops->has_sk(x->core);
}

void stateful_sizes(const void *key, FSP_KEYSIZES *out)
{
    const STATEFUL_KEY *x = key;
    unsigned n = x->ops->n(x->core);
    out->bits = 8 * n;
    out->security_bits = 8 * n;
    out->max_sig = x->ops->sig_bytes(x->core);
}

const char *stateful_param_name(const void *key)
{
    const STATEFUL_KEY *x = key;
    return x->ops->name(x->core);
}

/* ---- signing ---- */

int stateful_take_index(STATEFUL_KEY *x, const FSP_SIGOPTS *o, uint64_t *idx)
{
    /* a signature context's own block size, else the key's */
    uint64_t batch = o != NULL && o->batch > 0 ? o->batch
                                               : __atomic_load_n(&x->batch, __ATOMIC_RELAXED);
    FSP_ERRDETAIL *d = o != NULL ? o->detail : NULL;
    fastsig_state *st;
    fastsig_cause cause;
    int err;

    if (!stateful_has_private(x))
        return FASTSIG_ERR_BAD_KEY;
    stateful_cache_read(x); /* once: the first signature */
    if ((err = x->ops->check(x->core)) != FASTSIG_OK)
        return err; /* a damaged key: nothing spent */
    if ((st = stateful_state_of(x, &err, d)) == NULL)
        return err;
    if ((err = fastsig_state_take_batch(st, batch, idx, &cause)) != FASTSIG_OK)
        return stateful_state_error(x, err, &cause, d); /* WOTSP: OTS_USED once its index is spent */
    return FASTSIG_OK;
}

int stateful_sign(void *key, const FSP_SIGOPTS *o, int prehashed, unsigned char *sig,
              size_t *siglen, const unsigned char *msg, size_t msglen)
{
    STATEFUL_KEY *x = key;
    size_t need = x->ops->sig_bytes(x->core);
    uint64_t idx;
    int err;

    if (!stateful_has_private(x))
        return FASTSIG_ERR_BAD_KEY;
    if (*siglen < need)
        return FASTSIG_ERR_BAD_LENGTH; /* before anything is spent */
    if ((err = stateful_take_index(x, o, &idx)) != FASTSIG_OK)
        return err;
    if ((err = x->ops->sign(x->core, idx, o != NULL && o->verify_after_sign, msg, msglen, sig,
                            need)) != FASTSIG_OK) {
        OPENSSL_cleanse(sig, need);
        /* an index the core refuses names the file too */
        return stateful_state_error(x, err, NULL, o != NULL ? o->detail : NULL);
    }
    *siglen = need;
    stateful_warn_check(x, o, idx);
    return FASTSIG_OK;
}

int stateful_verify(const void *key, const FSP_SIGOPTS *o, int prehashed, const unsigned char *sig,
                size_t siglen, const unsigned char *msg, size_t msglen)
{
    const STATEFUL_KEY *x = key;
    return x->ops->verify(x->core, msg, msglen, sig, siglen);
}
