/* xmss_stateful.c - XMSS and XMSS^MT behind the stateful contract
 * (stateful.h): the core is an xmss_key (its own mutex, range, node cache,
 * codec and verify-after-sign are xmss.c's) with its public key and the
 * cache's dirty flag. A public core has no xmss_key. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "stateful_kinds.h"
#include "fastsig_err.h"
#include "xmss/xmss_hash.h"
#include "xmss/xmss_key.h"
#include "xmss/xmss.h"

typedef struct {
    const xmss_params *p;
    xmss_key *k;              /* NULL: a public key */
    uint8_t pk[4 + 2 * XMSS_MAX_N];
    size_t pklen;
    pthread_mutex_t lock;    /* saved, dirty */
    uint64_t saved;          /* xmss_cache_changes at the last export / import */
    int dirty;               /* set by a new range or a fresh key */
} xmss_core;

static xmss_core *core_alloc(const xmss_params *p)
{
    xmss_core *c;
    if (p == NULL || (c = calloc(1, sizeof(*c))) == NULL)
        return NULL;
    c->p = p;
    c->pklen = 4 + 2 * (size_t)p->n;
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

/* A core of the row that the oid in a key's first 4 bytes names. */
static xmss_core *core_new(int kind, const uint8_t *in, size_t len)
{
    return core_alloc(len < 4 ? NULL : xmss_params_by_oid(kind, fs_load_be32(in)));
}

static void x_free(void *core)
{
    xmss_core *c = core;
    if (c == NULL)
        return;
    xmss_key_free(c->k);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static int from_sk(int kind, const uint8_t *in, size_t len, size_t *corelen, void **out)
{
    xmss_core *c = core_new(kind, in, len);
    uint64_t idx; /* informational: the state file decides */
    int err;
    if (c == NULL)
        return len < 4 ? FASTSIG_ERR_BAD_KEY : FASTSIG_ERR_NOMEM;
    *corelen = xmss_sk_bytes(c->p);
    err = len < *corelen ? FASTSIG_ERR_BAD_KEY
                         : xmss_key_from_sk(kind, in, *corelen, &idx, &c->k);
    if (err == FASTSIG_OK)
        err = xmss_key_export_pk(c->k, c->pk, c->pklen);
    if (err != FASTSIG_OK) {
        x_free(c);
        return err == FASTSIG_ERR_BAD_LENGTH ? FASTSIG_ERR_BAD_KEY : err;
    }
    c->saved = xmss_cache_changes(c->k); /* nothing to write until it changes */
    *out = c;
    return FASTSIG_OK;
}

static int xmss_from_sk(const uint8_t *in, size_t len, size_t *corelen, void **out)
{
    return from_sk(XMSS_KIND_XMSS, in, len, corelen, out);
}

static int xmssmt_from_sk(const uint8_t *in, size_t len, size_t *corelen, void **out)
{
    return from_sk(XMSS_KIND_XMSSMT, in, len, corelen, out);
}

static int from_pk(int kind, const uint8_t *in, size_t len, void **out)
{
    xmss_core *c = core_new(kind, in, len);
    if (c == NULL)
        return len < 4 ? FASTSIG_ERR_BAD_KEY : FASTSIG_ERR_NOMEM;
    if (len != c->pklen) {
        x_free(c);
        return FASTSIG_ERR_BAD_KEY;
    }
    memcpy(c->pk, in, len);
    *out = c;
    return FASTSIG_OK;
}

static int xmss_from_pk(const uint8_t *in, size_t len, void **out)
{
    return from_pk(XMSS_KIND_XMSS, in, len, out);
}

static int xmssmt_from_pk(const uint8_t *in, size_t len, void **out)
{
    return from_pk(XMSS_KIND_XMSSMT, in, len, out);
}

int fs_stateful_xmss_new(const xmss_params *p, void **out)
{
    return (*out = core_alloc(p)) != NULL ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

int fs_stateful_xmss_keygen(void *core, const uint8_t *seed, size_t seedlen, unsigned threads,
                            xmss_progress_fn progress, void *parg)
{
    return fs_stateful_xmss_keygen_resume(core, seed, seedlen, threads, progress, parg, NULL);
}

int fs_stateful_xmss_keygen_resume(void *core, const uint8_t *seed, size_t seedlen,
                                   unsigned threads, xmss_progress_fn progress, void *parg,
                                   const fs_keygen_resume *resume)
{
    xmss_core *c = core;
    int err = xmss_keygen_resume(c->p, seed, seedlen, threads, progress, parg, resume, &c->k);
    if (err == FASTSIG_OK)
        err = xmss_key_export_pk(c->k, c->pk, c->pklen);
    c->dirty = 1; /* written at keygen, so that the first signer starts warm */
    return err;
}

int fs_stateful_xmss_resume_plan(const void *core, fs_resume_plan *plan)
{
    const xmss_core *c = core;
    *plan = (fs_resume_plan){ .kind = (uint32_t)c->p->kind, .oid = c->p->oid, .n = c->p->n,
                              .per = 1, .total = xmss_keygen_pieces(c->p),
                              .seedlen = 3 * (size_t)c->p->n };
    return plan->total != 0 ? FASTSIG_OK : FASTSIG_ERR_UNSUPPORTED;
}

static int export_sk(void *core, uint64_t next, uint8_t *out, size_t *len)
{
    xmss_core *c = core;
    size_t need = xmss_sk_bytes(c->p);
    uint8_t sk[FS_STATEFUL_SK_MAX];
    int err = c->k == NULL ? FASTSIG_ERR_BAD_KEY
              : xmss_key_export_sk(c->k, next > xmss_last_index(c->p) ? 0 : next, sk, need);
    if (err == FASTSIG_OK)
        err = fs_stateful_put_sk(sk, need, out, len);
    explicit_bzero(sk, sizeof(sk)); /* secrets */
    return err;
}

static int has_sk(const void *core)
{
    return ((const xmss_core *)core)->k != NULL;
}

static const uint8_t *pk(const void *core, size_t *pklen)
{
    const xmss_core *c = core;
    *pklen = c->pklen;
    return c->pk;
}

static int check(void *core)
{
    return xmss_key_check(((xmss_core *)core)->k); /* once per key */
}

static int sign(void *core, uint64_t idx, int verify, const uint8_t *msg, size_t msglen,
                uint8_t *sig, size_t siglen)
{
    xmss_core *c = core;
    return verify ? xmss_sign_verified(c->k, idx, msg, msglen, sig, siglen)
                  : xmss_sign(c->k, idx, msg, msglen, sig, siglen);
}

static int verify(void *core, const uint8_t *msg, size_t msglen, const uint8_t *sig,
                  size_t siglen)
{
    xmss_core *c = core;
    return xmss_verify_p(c->p, c->pk, c->pklen, msg, msglen, sig, siglen);
}

/* ---- a message that streams (xmss_stream.c) ---- */

static int msg_sign_init(void *core, uint64_t idx, fs_stateful_msg *m)
{
    m->idx = idx;
    return xmss_sign_begin(((xmss_core *)core)->k, idx, m->rand, &m->h);
}

static int msg_sign_final(void *core, fs_stateful_msg *m, int verify, uint8_t *sig,
                          size_t siglen)
{
    return xmss_sign_end(((xmss_core *)core)->k, m->idx, m->rand, &m->h, verify, sig, siglen);
}

static int msg_verify_init(void *core, const uint8_t *sig, size_t siglen, fs_stateful_msg *m)
{
    xmss_core *c = core;
    return xmss_verify_begin(c->p, c->pk, c->pklen, sig, siglen, &m->h);
}

static int msg_verify_final(void *core, fs_stateful_msg *m, const uint8_t *sig, size_t siglen)
{
    xmss_core *c = core;
    return xmss_verify_end(c->p, c->pk, c->pklen, &m->h, sig, siglen);
}

static int cache_export(void *core, uint8_t **out, size_t *outlen)
{
    xmss_core *c = core;
    int err;
    pthread_mutex_lock(&c->lock);
    uint64_t changes = xmss_cache_changes(c->k);
    if ((err = xmss_cache_export(c->k, out, outlen)) == FASTSIG_OK) {
        c->saved = changes;
        c->dirty = 0;
    }
    pthread_mutex_unlock(&c->lock);
    return err;
}

static int cache_import(void *core, const uint8_t *in, size_t inlen)
{
    xmss_core *c = core;
    int err;
    pthread_mutex_lock(&c->lock);
    if ((err = xmss_cache_import(c->k, in, inlen)) == FASTSIG_OK) {
        c->saved = xmss_cache_changes(c->k);
        c->dirty = 0;
    }
    pthread_mutex_unlock(&c->lock);
    return err;
}

static int cache_dirty(void *core)
{
    xmss_core *c = core;
    int dirty;
    pthread_mutex_lock(&c->lock);
    dirty = c->k != NULL && (c->dirty || xmss_cache_changes(c->k) != c->saved);
    pthread_mutex_unlock(&c->lock);
    return dirty;
}

static int set_range(void *core, uint64_t first, uint64_t end)
{
    xmss_core *c = core;
    int err;
    pthread_mutex_lock(&c->lock);
    if ((err = xmss_key_set_range(c->k, first, end)) == FASTSIG_OK)
        c->dirty = 1; /* the cache goes to the new range's file */
    pthread_mutex_unlock(&c->lock);
    return err;
}

static void range(void *core, uint64_t *first, uint64_t *end)
{
    xmss_core *c = core;
    if (c->k == NULL) {
        *first = 0;
        *end = xmss_last_index(c->p) + 1;
        return;
    }
    pthread_mutex_lock(&c->k->lock);
    *first = c->k->first;
    *end = c->k->last + 1;
    pthread_mutex_unlock(&c->k->lock);
}

static uint64_t max(const void *core)
{
    return xmss_last_index(((const xmss_core *)core)->p) + 1;
}

static size_t sig_bytes(const void *core)
{
    return xmss_sig_bytes(((const xmss_core *)core)->p);
}

static unsigned n(const void *core)
{
    return ((const xmss_core *)core)->p->n;
}

static const char *name(const void *core)
{
    return ((const xmss_core *)core)->p->name;
}

static uint64_t shard_align(const void *core)
{
    const xmss_params *p = ((const xmss_core *)core)->p;
    return UINT64_C(1) << (p->tree_h < XMSS_BOTTOM_H ? p->tree_h : XMSS_BOTTOM_H);
}

static int seed_fp(const void *core, const uint8_t *seed, size_t seedlen,
                   uint8_t fp[FS_STATEFUL_SEED_FP_LEN])
{
    return xmss_seed_fp(((const xmss_core *)core)->p, seed, seedlen, fp);
}

#define XMSS_OPS(kind)                                                                   \
    .from_sk = kind##_from_sk, .from_pk = kind##_from_pk, .export_sk = export_sk,        \
    .has_sk = has_sk, .pk = pk, .check = check, .sign = sign, .verify = verify,          \
    .cache_export = cache_export, .cache_import = cache_import,                          \
    .cache_dirty = cache_dirty, .set_range = set_range, .range = range, .max = max,      \
    .sig_bytes = sig_bytes, .n = n, .name = name, .shard_align = shard_align,            \
    .seed_fp = seed_fp, .free = x_free, .msg_sign_init = msg_sign_init,                 \
    .msg_sign_final = msg_sign_final, .msg_verify_init = msg_verify_init,               \
    .msg_verify_final = msg_verify_final
const fs_stateful_ops fs_stateful_xmss = { XMSS_OPS(xmss) };
const fs_stateful_ops fs_stateful_xmssmt = { XMSS_OPS(xmssmt) };
