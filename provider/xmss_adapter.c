/* xmss_adapter.c - the XMSS and XMSS^MT rows' adapters: crypto/hbs keys
 * (hbs_keyobj.h) with their tree-node cache file (crypto/state/cachefile.h:
 * public nodes, authenticated by the core with a key derived from SK_SEED,
 * rebuilt when missing or bad). The two rows differ only in the kind, which
 * picks the parameter-set oid space; the row's variant says which. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "hbs_keyobj.h"
#include "prov.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"
#include "state/cachefile.h"

/* Per row, by FS_SIGALG.variant (sigalgs.c): the kind and the parameter
 * set generated when none is named. */
static const struct {
    int kind;
    const char *default_param;
} rows[] = {
    [FS_XMSS_VARIANT] = { HBS_KIND_XMSS, "XMSS-SHA2_10_256" },
    [FS_XMSSMT_VARIANT] = { HBS_KIND_XMSSMT, "XMSSMT-SHA2_20/4_256" },
};

static int kind_of(const FS_SIGALG *alg)
{
    return rows[alg->variant].kind;
}

/* ---- tree-node cache file ---- */

/* Best effort, and reported in x->cache_err rather than as a failure: the
 * cache is public and only spares work (a signer without it rebuilds the
 * nodes it needs), so neither key generation nor signing should fail for
 * it. The key shows a failed write in `openssl pkey -text`. */
static void cache_save(HBSA_KEY *x)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int err = hbs_cache_export(x->k, &buf, &len);

    if (err == FASTSIG_OK)
        err = fastsig_cache_save(x->path, buf, len, NULL);
    free(buf);
    x->cache_err = err;
    x->saved = hbs_cache_changes(x->k);
}

/* A missing, mismatching or damaged cache is no error: the core refuses
 * bytes that do not check, then signing rebuilds what it needs and this
 * process rewrites the file when it frees the key (a process that changes
 * nothing, e.g. one that only reads the key or signs inside an XMSS tree
 * kept whole, leaves it alone). */
static void cache_load(HBSA_KEY *x)
{
    uint8_t *buf = NULL;
    size_t len = 0;

    if (fastsig_cache_load(x->path, &buf, &len, NULL) == FASTSIG_OK)
        hbs_cache_import(x->k, buf, len);
    free(buf);
    x->saved = hbs_cache_changes(x->k); /* signing that changes nothing writes nothing */
}

static void xmss_free(void *key)
{
    HBSA_KEY *x = key;
    /* the last write: nobody is left to tell when it fails (the next signer
     * rebuilds) */
    if (x != NULL && x->k != NULL && x->st != NULL && hbs_cache_changes(x->k) != x->saved)
        cache_save(x);
    hbsa_free(x);
}

/* ---- key generation, private key, signing ---- */

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_uint(FASTSIG_PKEY_PARAM_THREADS, NULL),
    OSSL_PARAM_END
};

static int xmss_gen(const FS_SIGALG *alg, const FS_GENOPTS *o, void **key)
{
    const char *name = o->param != NULL ? o->param : rows[alg->variant].default_param;
    const hbs_params *p = hbsa_params(kind_of(alg), name);
    uint8_t seed[3 * HBS_MAX_N];
    HBSA_PROGRESS pg = { o, 0 };
    HBSA_KEY *x;
    int err;

    if (p == NULL)
        fs_err_file_detail(FASTSIG_ERR_UNSUPPORTED, "parameter set", name, 0,
                           "not a name of this algorithm's sets");
    if (p == NULL || o->mode != NULL)
        return FASTSIG_ERR_UNSUPPORTED;
    if ((err = hbsa_seed(o, p, seed)) != FASTSIG_OK)
        return err;
    if ((x = hbsa_new(p)) == NULL) {
        OPENSSL_cleanse(seed, sizeof(seed));
        return FASTSIG_ERR_NOMEM;
    }
    /* a seed some key has is refused before the trees are built */
    if ((err = hbsa_seed_check(x, seed, 3 * (size_t)p->n)) == FASTSIG_OK)
        err = hbs_keygen(p, seed, 3 * (size_t)p->n,
                         o->threads ? o->threads : hbsa_default_threads(), hbsa_progress, &pg,
                         &x->k);
    OPENSSL_cleanse(seed, sizeof(seed));
    if (err == FASTSIG_OK) {
        o->progress(o->progress_arg, 3, 0);
        err = hbs_key_export_pk(x->k, x->pk, x->pklen);
    }
    if (err == FASTSIG_OK)
        err = hbsa_state_new(x, o->state);
    if (err != FASTSIG_OK) {
        xmss_free(x);
        return err;
    }
    cache_save(x); /* so that the first signer process starts warm */
    *key = x;
    return FASTSIG_OK;
}

static int xmss_priv_encode(const void *key, unsigned char *out, size_t *len)
{
    const HBSA_KEY *x = key;
    uint8_t core[4 + 8 + 4 * HBS_MAX_N];
    size_t sk = hbs_sk_bytes(x->p);
    uint64_t next = 0;
    int err;

    if (x->k == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (out == NULL)
        return hbsa_priv_frame(x, core, sk, NULL, len);
    /* informational only (never read back): the state's next index */
    if (x->st == NULL || fastsig_state_query(x->st, &next, NULL, NULL, NULL) != FASTSIG_OK
        || next > hbs_last_index(x->p))
        next = 0;
    if ((err = hbs_key_export_sk(x->k, next, core, sk)) == FASTSIG_OK)
        err = hbsa_priv_frame(x, core, sk, out, len);
    OPENSSL_cleanse(core, sizeof(core));
    return err;
}

static int xmss_priv_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len,
                            void **key)
{
    int kind = kind_of(alg);
    uint64_t idx;
    HBSA_KEY *x;
    int err;

    if ((err = hbsa_priv_begin(kind, in, len, &x)) != FASTSIG_OK)
        return err;
    if ((err = hbs_key_from_sk(kind, in, hbs_sk_bytes(x->p), &idx, &x->k)) != FASTSIG_OK
        || (err = hbs_key_set_range(x->k, x->first, x->end)) != FASTSIG_OK /* a shard's */
        || (err = hbs_key_export_pk(x->k, x->pk, x->pklen)) != FASTSIG_OK) {
        xmss_free(x);
        return err == FASTSIG_ERR_BAD_LENGTH ? FASTSIG_ERR_BAD_KEY : err;
    }
    hbsa_attach(x); /* an unusable state still gives a key (verify, public export) */
    cache_load(x);  /* public nodes, read-only: the state opens at the first signature */
    *key = x;
    return FASTSIG_OK;
}

static int xmss_verify(const void *key, const FS_SIGOPTS *o, int prehashed,
                       const unsigned char *sig, size_t siglen, const unsigned char *msg,
                       size_t msglen)
{
    const HBSA_KEY *x = key;
    return hbs_verify_p(x->p, x->pk, x->pklen, msg, msglen, sig, siglen);
}

static int xmss_pub_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len,
                           void **key)
{
    return hbsa_pub_decode(kind_of(alg), in, len, key);
}

/* ---- the key object's operations (hbs_keyobj.h) ---- */

static int xmss_check(HBSA_KEY *x)
{
    return hbs_key_check(x->k); /* once per key object */
}

static int xmss_sign(HBSA_KEY *x, uint64_t idx, int verify, const unsigned char *msg,
                     size_t msglen, unsigned char *sig, size_t siglen)
{
    return verify ? hbs_sign_verified(x->k, idx, msg, msglen, sig, siglen)
                  : hbs_sign(x->k, idx, msg, msglen, sig, siglen);
}

static void xmss_free_core(HBSA_KEY *x)
{
    hbs_key_free(x->k);
}

static int xmss_set_range(HBSA_KEY *x, int carved)
{
    int err = hbs_key_set_range(x->k, x->first, x->end);
    /* a new shard: its node cache goes to the shard's cache file when the
     * object is freed (xmss_free writes it when the count moved), so that
     * the shard's first signer starts warm */
    if (err == FASTSIG_OK && carved)
        x->saved = hbs_cache_changes(x->k) - 1;
    return err;
}

static uint64_t xmss_shard_align(const HBSA_KEY *x)
{
    unsigned b = x->p->tree_h < HBS_BOTTOM_H ? x->p->tree_h : HBS_BOTTOM_H;
    return UINT64_C(1) << b;
}

const HBSA_OPS hbsa_xmss_ops = {
    .max = hbsa_row_max, .sig_bytes = hbsa_row_sig_bytes, .n = hbsa_row_n,
    .name = hbsa_row_name, .check = xmss_check, .sign = xmss_sign, .free = xmss_free_core,
    .set_range = xmss_set_range, .shard_align = xmss_shard_align,
    .seed_fp = hbsa_row_seed_fp,
};

/* Two tables (not one shared by both rows): the glue lets a key serve a
 * row whose adapter is its own, and an XMSS key must not pass for XMSS^MT. */
#define XMSS_HOOKS                                                                       \
    .gen = xmss_gen, .free = xmss_free, .has_private = hbsa_has_private,                 \
    .sizes = hbsa_sizes, .pub_encode = hbsa_pub_encode, .pub_decode = xmss_pub_decode,   \
    .priv_encode = xmss_priv_encode, .priv_decode = xmss_priv_decode,                    \
    .sign = hbsa_sign, .verify = xmss_verify, .gen_settable = gen_settable,              \
    HBSA_COMMON_HOOKS
const FS_ADAPTER fs_xmss_adapter = { XMSS_HOOKS };
const FS_ADAPTER fs_xmssmt_adapter = { XMSS_HOOKS };
