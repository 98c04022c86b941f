/* wotsp_stateful.c - WOTS+ (wotsp_scheme.h) behind the stateful contract
 * (stateful.h): one index, no node cache, no range to narrow. The private
 * core lives in secmem.h pages. Signing touches nothing shared (the core is
 * read-only once made); the verify cache is the scheme's. */
#include <stdlib.h>
#include <string.h>
#include "stateful_kinds.h"
#include "fastsig_err.h"
#include "secmem.h"
#include "xmss/xmss_hash.h"
#include "xmss/wotsp_scheme.h"

typedef struct {
    const xmss_params *p;
    uint8_t *sk;             /* secmem.h; NULL: a public key */
    size_t sklen;
    int sk_err;              /* KEY_MISMATCH: its seeds do not give its root */
    uint8_t pk[4 + 2 * XMSS_MAX_N];
    size_t pklen;
    xmss_wotsp_verify_cache vcache; /* its L-tree's masks, made at the first verify */
} wotsp_core;

static wotsp_core *core_new(const xmss_params *p, int with_sk)
{
    wotsp_core *c;
    if (p == NULL || (c = calloc(1, sizeof(*c))) == NULL)
        return NULL;
    c->p = p;
    c->pklen = 4 + 2 * (size_t)p->n;
    c->sklen = xmss_sk_bytes(p);
    if (with_sk && (c->sk = fs_secmem_alloc(c->sklen)) == NULL) {
        free(c);
        return NULL;
    }
    return c;
}

static void w_free(void *core)
{
    wotsp_core *c = core;
    if (c == NULL)
        return;
    xmss_wotsp_verify_cache_clear(&c->vcache);
    fs_secmem_free(c->sk); /* wiped */
    free(c);
}

int fs_stateful_wotsp_new(const xmss_params *p, void **out)
{
    return (*out = core_new(p, 1)) != NULL ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

int fs_stateful_wotsp_keygen(void *core, const uint8_t *seed, size_t seedlen)
{
    wotsp_core *c = core;
    return xmss_wotsp_keygen(c->p, seed, seedlen, c->sk, c->sklen, c->pk, c->pklen);
}

/* The stored root must be the seeds' (a wrong one would make every
 * signature fail to verify only after the one index was spent). A mismatch
 * still gives a core, refused at check (before the index is spent). */
static int from_sk(const uint8_t *in, size_t len, size_t *corelen, void **out)
{
    const xmss_params *p = xmss_wotsp_params_of(in, len);
    wotsp_core *c;
    int err;
    if (p == NULL || len < xmss_sk_bytes(p))
        return FASTSIG_ERR_BAD_KEY;
    if ((c = core_new(p, 1)) == NULL)
        return FASTSIG_ERR_NOMEM;
    *corelen = c->sklen;
    err = xmss_wotsp_pk_from_sk(in, c->sklen, c->pk, c->pklen);
    if (err == FASTSIG_ERR_KEY_MISMATCH) { /* the public key it claims: oid || root || PUB_SEED */
        c->sk_err = err;
        memcpy(c->pk, in, 4);
        memcpy(c->pk + 4, in + 4 + 2 * (size_t)p->n, 2 * (size_t)p->n);
        err = FASTSIG_OK;
    }
    if (err != FASTSIG_OK) {
        w_free(c);
        return err;
    }
    memcpy(c->sk, in, c->sklen);
    *out = c;
    return FASTSIG_OK;
}

static int from_pk(const uint8_t *in, size_t len, void **out)
{
    const xmss_params *p = xmss_wotsp_params_of(in, len);
    wotsp_core *c;
    if (p == NULL || len != 4 + 2 * (size_t)p->n)
        return FASTSIG_ERR_BAD_KEY;
    if ((c = core_new(p, 0)) == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(c->pk, in, len);
    *out = c;
    return FASTSIG_OK;
}

static int export_sk(void *core, uint64_t next, uint8_t *out, size_t *len)
{
    wotsp_core *c = core;
    (void)next; /* no index in a one-time key */
    return fs_stateful_put_sk(c->sk, c->sklen, out, len);
}

static int has_sk(const void *core)
{
    return ((const wotsp_core *)core)->sk != NULL;
}

static const uint8_t *pk(const void *core, size_t *pklen)
{
    const wotsp_core *c = core;
    *pklen = c->pklen;
    return c->pk;
}

/* The seeds were checked against the root when the core was made. */
static int check(void *core)
{
    return ((wotsp_core *)core)->sk_err;
}

/* Its one index, whatever a state says. */
static int sign(void *core, uint64_t idx, int verify, const uint8_t *msg, size_t msglen,
                uint8_t *sig, size_t siglen)
{
    wotsp_core *c = core;
    return idx != 0 ? FASTSIG_ERR_OTS_USED
           : verify ? xmss_wotsp_sign_verified(c->sk, c->sklen, msg, msglen, sig, siglen)
                    : xmss_wotsp_sign(c->sk, c->sklen, msg, msglen, sig, siglen);
}

static int verify(void *core, const uint8_t *msg, size_t msglen, const uint8_t *sig,
                  size_t siglen)
{
    wotsp_core *c = core;
    return xmss_wotsp_verify_cached(&c->vcache, c->pk, c->pklen, msg, msglen, sig, siglen);
}

/* ---- a message that streams (wotsp_stream.c) ---- */

static int msg_sign_init(void *core, uint64_t idx, fs_stateful_msg *m)
{
    wotsp_core *c = core;
    m->idx = idx;
    return idx != 0 ? FASTSIG_ERR_OTS_USED : xmss_wotsp_sign_begin(c->sk, c->sklen, &m->h);
}

static int msg_sign_final(void *core, fs_stateful_msg *m, int verify, uint8_t *sig,
                          size_t siglen)
{
    wotsp_core *c = core;
    return m->idx != 0 ? FASTSIG_ERR_OTS_USED
                       : xmss_wotsp_sign_end(c->sk, c->sklen, &m->h, verify, sig, siglen);
}

static int msg_verify_init(void *core, const uint8_t *sig, size_t siglen, fs_stateful_msg *m)
{
    wotsp_core *c = core;
    return xmss_wotsp_verify_begin(c->pk, c->pklen, sig, siglen, &m->h);
}

static int msg_verify_final(void *core, fs_stateful_msg *m, const uint8_t *sig, size_t siglen)
{
    wotsp_core *c = core;
    return xmss_wotsp_verify_end(&c->vcache, c->pk, c->pklen, &m->h, sig, siglen);
}

static void range(void *core, uint64_t *first, uint64_t *end)
{
    (void)core;
    *first = 0;
    *end = 1;
}

static uint64_t max(const void *core)
{
    (void)core;
    return 1;
}

static size_t sig_bytes(const void *core)
{
    return xmss_sig_bytes(((const wotsp_core *)core)->p);
}

static unsigned n(const void *core)
{
    return ((const wotsp_core *)core)->p->n;
}

static const char *name(const void *core)
{
    return ((const wotsp_core *)core)->p->name;
}

static uint64_t shard_align(const void *core)
{
    (void)core;
    return 1;
}

static int seed_fp(const void *core, const uint8_t *seed, size_t seedlen,
                   uint8_t fp[FS_STATEFUL_SEED_FP_LEN])
{
    return xmss_seed_fp(((const wotsp_core *)core)->p, seed, seedlen, fp);
}

/* No cache ops, no set_range: a one-time key keeps no trees, has no shards. */
const fs_stateful_ops fs_stateful_wotsp = {
    .from_sk = from_sk, .from_pk = from_pk, .export_sk = export_sk, .has_sk = has_sk,
    .pk = pk, .check = check, .sign = sign, .verify = verify, .range = range, .max = max,
    .sig_bytes = sig_bytes, .n = n, .name = name, .shard_align = shard_align,
    .seed_fp = seed_fp, .free = w_free, .msg_sign_init = msg_sign_init,
    .msg_sign_final = msg_sign_final, .msg_verify_init = msg_verify_init,
    .msg_verify_final = msg_verify_final,
};
