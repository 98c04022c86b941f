/* wotsp_adapter.c - WOTS+ as a one-time signature algorithm (row WOTSP):
 * the scheme of crypto/hbs/wotsp_scheme.h (keys, signatures, encodings)
 * behind the generic glue, with a state file of one index.
 * One-time: the state file has max = 1; the index is spent durably before
 * the signature leaves; a second attempt (any process, after a crash) gets
 * FASTSIG_ERR_OTS_USED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "fastsig/provider.h"
#include "hbs_keyobj.h"
#include "fastsig_err.h"
#include "hbs/wotsp_scheme.h"

/* The row from param (hash family, default SHA2_256) and mode (w16, w4, w256). */
static const hbs_params *pick(const FS_GENOPTS *o)
{
    const char *base = o->param != NULL ? o->param : "WOTSP-SHA2_256";
    const char *m = o->mode;
    char name[64];

    if (m == NULL || strcmp(m, "w16") == 0 || strcmp(m, "W16") == 0)
        return hbsa_params(HBS_KIND_WOTSP, base);
    if (strcmp(m, "w4") != 0 && strcmp(m, "W4") != 0 && strcmp(m, "w256") != 0
        && strcmp(m, "W256") != 0)
        return NULL;
    if ((size_t)snprintf(name, sizeof(name), "%s_W%s", base, m + 1) >= sizeof(name))
        return NULL;
    return hbsa_params(HBS_KIND_WOTSP, name);
}

/* A private key object with room for the sk core (out of core dumps). */
static HBSA_KEY *new_private(const hbs_params *p)
{
    HBSA_KEY *x = hbsa_new(p);
    if (x != NULL && (x->sk = fs_secmem_alloc(hbs_sk_bytes(p))) == NULL) {
        hbsa_free(x);
        return NULL;
    }
    if (x != NULL)
        x->sklen = hbs_sk_bytes(p);
    return x;
}

static void wotsp_free(void *key)
{
    HBSA_KEY *x = key;
    if (x != NULL)
        hbs_wotsp_verify_cache_clear(&x->vcache);
    hbsa_free(x);
}

static int gen(const FS_SIGALG *alg, const FS_GENOPTS *o, void **key)
{
    const hbs_params *p = pick(o);
    uint8_t seed[3 * HBS_MAX_N];
    HBSA_KEY *x;
    int err;

    if (p == NULL)
        return FASTSIG_ERR_UNSUPPORTED;
    if ((err = hbsa_seed(o, p, seed)) != FASTSIG_OK)
        return err;
    if ((x = new_private(p)) == NULL) {
        OPENSSL_cleanse(seed, sizeof(seed));
        return FASTSIG_ERR_NOMEM;
    }
    if ((err = hbsa_seed_check(x, seed, 3 * (size_t)p->n)) == FASTSIG_OK)
        err = hbs_wotsp_keygen(p, seed, 3 * (size_t)p->n, x->sk, x->sklen, x->pk, x->pklen);
    OPENSSL_cleanse(seed, sizeof(seed));
    if (err == FASTSIG_OK) {
        o->progress(o->progress_arg, 3, 0);
        err = hbsa_state_new(x, o->state);
    }
    if (err != FASTSIG_OK) {
        wotsp_free(x);
        return err;
    }
    *key = x;
    return FASTSIG_OK;
}

static int pub_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len, void **key)
{
    return hbsa_pub_decode(HBS_KIND_WOTSP, in, len, key);
}

static int priv_encode(const void *key, unsigned char *out, size_t *len)
{
    const HBSA_KEY *x = key;
    if (x->sk == NULL)
        return FASTSIG_ERR_BAD_KEY;
    return hbsa_priv_frame(x, x->sk, x->sklen, out, len);
}

static int priv_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len, void **key)
{
    HBSA_KEY *x;
    int err;

    if ((err = hbsa_priv_begin(HBS_KIND_WOTSP, in, len, &x)) != FASTSIG_OK)
        return err;
    x->sklen = hbs_sk_bytes(x->p);
    /* the stored root must be the seeds' (a wrong one would make every
     * signature fail to verify only after the one index was spent): the
     * core checks it. A mismatch still gives a key, refused when it is
     * asked to sign (hbsa_sign, before the index is spent): OpenSSL's
     * decoders drop a decoder's reason, the signer's error keeps it. */
    err = (x->sk = fs_secmem_alloc(x->sklen)) == NULL
          ? FASTSIG_ERR_NOMEM : hbs_wotsp_pk_from_sk(in, x->sklen, x->pk, x->pklen);
    if (err == FASTSIG_ERR_KEY_MISMATCH) { /* the public key it claims: oid || root || PUB_SEED */
        x->sk_err = err;
        memcpy(x->pk, in, 4);
        memcpy(x->pk + 4, in + 4 + 2 * (size_t)x->p->n, 2 * (size_t)x->p->n);
        err = FASTSIG_OK;
    }
    if (err != FASTSIG_OK) {
        wotsp_free(x);
        return err;
    }
    memcpy(x->sk, in, x->sklen);
    hbsa_attach(x); /* an unusable state still gives a key (verify, public export) */
    *key = x;
    return FASTSIG_OK;
}

/* The one index (idx is 0) is spent by now. */
static int verify(const void *key, const FS_SIGOPTS *o, int prehashed,
                  const unsigned char *sig, size_t siglen, const unsigned char *msg,
                  size_t msglen)
{
    HBSA_KEY *x = (HBSA_KEY *)key; /* only its verify cache changes */
    return hbs_wotsp_verify_cached(&x->vcache, x->pk, x->pklen, msg, msglen, sig, siglen);
}

/* ---- the key object's operations (hbs_keyobj.h) ---- */

/* The seeds were checked against the root at decode (a mismatch kept). */
static int check(HBSA_KEY *x)
{
    return x->sk_err;
}

/* Its one index, whatever a state says. */
static int sign(HBSA_KEY *x, uint64_t idx, int verify, const unsigned char *msg,
                size_t msglen, unsigned char *sig, size_t siglen)
{
    return idx != 0 ? FASTSIG_ERR_OTS_USED
           : verify ? hbs_wotsp_sign_verified(x->sk, x->sklen, msg, msglen, sig, siglen)
                    : hbs_wotsp_sign(x->sk, x->sklen, msg, msglen, sig, siglen);
}

static void free_core(HBSA_KEY *x)
{
    (void)x; /* x->sk is the key object's */
}

static uint64_t shard_align(const HBSA_KEY *x)
{
    (void)x;
    return 1;
}

/* No set_range: a one-time key has no shards. */
const HBSA_OPS hbsa_wotsp_ops = {
    .max = hbsa_row_max, .sig_bytes = hbsa_row_sig_bytes, .n = hbsa_row_n,
    .name = hbsa_row_name, .check = check, .sign = sign, .free = free_core,
    .shard_align = shard_align, .seed_fp = hbsa_row_seed_fp,
};

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_MODE, NULL, 0),
    OSSL_PARAM_END
};

const FS_ADAPTER fs_wotsp_adapter = {
    .gen = gen, .free = wotsp_free, .has_private = hbsa_has_private, .sizes = hbsa_sizes,
    .pub_encode = hbsa_pub_encode, .pub_decode = pub_decode,
    .priv_encode = priv_encode, .priv_decode = priv_decode,
    .sign = hbsa_sign, .verify = verify, .gen_settable = gen_settable, HBSA_COMMON_HOOKS,
};
