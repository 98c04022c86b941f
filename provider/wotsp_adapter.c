/* wotsp_adapter.c - WOTS+ as a one-time signature algorithm (row WOTSP),
 * on the batched WOTS+ core of crypto/hbs and a state file of one index.
 *
 * Key: SK_SEED, SK_PRF, PUB_SEED (3n seed bytes, as XMSS); the one OTS key
 * sits at ADRS layer 0, tree 0, OTS address 0. Public key: oid || root ||
 * PUB_SEED, root = the RFC 8391 L-tree of the WOTS+ public key (ADRS layer 0,
 * tree 0, L-tree address 0), i.e. an XMSS leaf: 4 + 2n bytes instead of
 * len * n.
 * Signature of a message M (any length), XMSS's randomized H_msg at idx 0:
 *   r  = PRF(SK_PRF, toByte(0, 32))
 *   M' = H_msg(r || root || toByte(0, n), M)
 *   sig = r || WOTS_sign(M')                      (n + len * n bytes)
 * Verification recomputes M', the WOTS+ public key from the signature, its
 * L-tree root, and compares with the key's root.
 * One-time: the state file has max = 1; the index is spent durably before
 * the signature leaves; a second attempt (any process, after a crash) gets
 * FASTSIG_ERR_OTS_USED. */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "fastsig/provider.h"
#include "hbs_keyobj.h"
#include "fastsig_err.h"
#include "hbs/adrs.h"
#include "hbs/hbs_hash.h"
#include "hbs/tree.h"
#include "hbs/wots.h"

#define W_CORE(p) (4 + 4 * (size_t)(p)->n) /* oid || SK_SEED || SK_PRF || root || PUB_SEED */

static size_t sig_bytes(const hbs_params *p)
{
    return (size_t)p->n + hbs_wots_sig_bytes(p);
}

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

static void ots_adrs(hbs_adrs *ots, hbs_adrs *lt)
{
    hbs_adrs_init(ots, 0, 0, HBS_ADRS_OTS);
    hbs_adrs_set_ots(ots, 0);
    hbs_adrs_init(lt, 0, 0, HBS_ADRS_LTREE);
    hbs_adrs_set_ltree(lt, 0);
}

/* root = L-tree(WOTS+ pk): from the key (sig == NULL) or from a signature of
 * M', with the L-tree's keys and bitmasks km (NULL: made here). */
static int wots_root(const hbs_ctx *c, uint8_t *root, const uint8_t *sig, const uint8_t *mp,
                     const uint8_t *km)
{
    uint8_t pk[HBS_MAX_LEN * HBS_MAX_N];
    hbs_adrs ots, lt;
    int err;

    ots_adrs(&ots, &lt);
    err = sig == NULL ? hbs_wots_pkgen(c, pk, &ots, 1) : hbs_wots_pk_from_sig(c, pk, sig, mp, &ots);
    if (err == FASTSIG_OK)
        err = km != NULL ? hbs_ltree_with(c, root, pk, km) : hbs_ltree(c, root, pk, &lt, 1);
    return err;
}

/* The keys and bitmasks of x's L-tree: public, the same for every signature,
 * so made once per key object (first verify) instead of 3 (len - 1) PRF
 * calls per verify. Threads may race to make them: the first one published
 * stays. NULL when out of memory. */
static const uint8_t *ltree_masks(HBSA_KEY *x, const hbs_ctx *c)
{
    uint8_t *km = __atomic_load_n(&x->ltkm, __ATOMIC_ACQUIRE), *mine;
    hbs_adrs ots, lt;

    if (km != NULL)
        return km;
    ots_adrs(&ots, &lt);
    if ((mine = OPENSSL_malloc(hbs_ltree_masks_bytes(x->p))) == NULL
        || hbs_ltree_masks(c, mine, &lt) != FASTSIG_OK) {
        OPENSSL_free(mine);
        return NULL;
    }
    if (__atomic_compare_exchange_n(&x->ltkm, &km, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return mine;
    OPENSSL_free(mine); /* another thread's came first: km holds it */
    return km;
}

static int gen(const FS_SIGALG *alg, const FS_GENOPTS *o, void **key)
{
    const hbs_params *p = pick(o);
    uint8_t seed[3 * HBS_MAX_N];
    hbs_ctx c;
    HBSA_KEY *x;
    size_t n;
    int err;

    if (p == NULL)
        return FASTSIG_ERR_UNSUPPORTED;
    n = p->n;
    if ((err = hbsa_seed(o, p, seed)) != FASTSIG_OK)
        return err;
    if ((x = hbsa_new(p)) == NULL || (x->sk = OPENSSL_secure_zalloc(W_CORE(p))) == NULL) {
        OPENSSL_cleanse(seed, sizeof(seed));
        hbsa_free(x);
        return FASTSIG_ERR_NOMEM;
    }
    x->sklen = W_CORE(p);
    /* sk = oid || SK_SEED || SK_PRF || root || PUB_SEED */
    hbs_put_be(x->sk, 4, p->oid);
    memcpy(x->sk + 4, seed, 2 * n);
    memcpy(x->sk + 4 + 3 * n, seed + 2 * n, n);
    err = hbs_ctx_init(&c, p, seed + 2 * n, seed, NULL);
    OPENSSL_cleanse(seed, sizeof(seed));
    if (err == FASTSIG_OK)
        err = wots_root(&c, x->sk + 4 + 2 * n, NULL, NULL, NULL);
    hbs_ctx_clear(&c);
    if (err == FASTSIG_OK) {
        memcpy(x->pk, x->sk, 4);
        memcpy(x->pk + 4, x->sk + 4 + 2 * n, 2 * n); /* root || PUB_SEED */
        o->progress(o->progress_arg, 3, 0);
        err = hbsa_state_new(x, o->state, 1);
    }
    if (err != FASTSIG_OK) {
        hbsa_free(x);
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
    const hbs_params *p;
    uint8_t root[HBS_MAX_N];
    hbs_ctx c;
    HBSA_KEY *x;
    size_t n;
    int err;

    if (len < 4 || (p = hbs_params_by_oid(HBS_KIND_WOTSP, hbsa_be32(in))) == NULL)
        return FASTSIG_ERR_BAD_KEY;
    n = p->n;
    if ((x = hbsa_new(p)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = hbsa_priv_split(in, len, W_CORE(p), &x->path)) != FASTSIG_OK)
        goto fail;
    /* the stored root must be the seeds' (a wrong one would make every
     * signature fail to verify only after the one index was spent) */
    if ((err = hbs_ctx_init(&c, p, in + 4 + 3 * n, in + 4, NULL)) != FASTSIG_OK)
        goto fail;
    err = wots_root(&c, root, NULL, NULL, NULL);
    hbs_ctx_clear(&c);
    if (err == FASTSIG_OK && CRYPTO_memcmp(root, in + 4 + 2 * n, n) != 0)
        err = FASTSIG_ERR_BAD_KEY;
    if (err != FASTSIG_OK)
        goto fail;
    if ((x->sk = OPENSSL_secure_malloc(W_CORE(p))) == NULL) {
        err = FASTSIG_ERR_NOMEM;
        goto fail;
    }
    x->sklen = W_CORE(p);
    memcpy(x->sk, in, x->sklen);
    memcpy(x->pk, in, 4);
    memcpy(x->pk + 4, in + 4 + 2 * n, 2 * n);
    hbsa_attach(x); /* an unusable state still gives a key (verify, public export) */
    *key = x;
    return FASTSIG_OK;
fail:
    hbsa_free(x);
    return err;
}

static void sizes(const void *key, FS_KEYSIZES *out)
{
    const HBSA_KEY *x = key;
    out->bits = 8 * x->p->n;
    out->security_bits = 8 * x->p->n;
    out->max_sig = sig_bytes(x->p);
}

/* M' = H_msg(r || root || toByte(0, n), msg) */
static int msg_digest(const hbs_ctx *c, uint8_t *mp, const uint8_t *r, const uint8_t *root,
                      const unsigned char *msg, size_t msglen)
{
    return hbs_hash_msg(c, mp, r, root, 0, msg, msglen);
}

static int sign(void *key, const FS_SIGOPTS *o, unsigned char *sig, size_t *siglen,
                const unsigned char *msg, size_t msglen)
{
    HBSA_KEY *x = key;
    const hbs_params *p = x->p;
    size_t n = p->n, need = sig_bytes(p);
    uint8_t mp[HBS_MAX_N];
    hbs_adrs ots, lt;
    hbs_ctx c;
    uint64_t idx;
    int err;

    if (x->sk == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (*siglen < need)
        return FASTSIG_ERR_BAD_LENGTH;
    if ((err = hbsa_take(x, o, &idx)) != FASTSIG_OK)
        return err; /* OTS_USED once the one index is spent */
    ots_adrs(&ots, &lt);
    err = hbs_ctx_init(&c, p, x->sk + 4 + 3 * n, x->sk + 4, x->sk + 4 + n);
    if (err == FASTSIG_OK)
        err = hbs_prf_msg(&c, sig, 0);
    if (err == FASTSIG_OK)
        err = msg_digest(&c, mp, sig, x->sk + 4 + 2 * n, msg, msglen);
    if (err == FASTSIG_OK)
        err = hbs_wots_sign(&c, sig + n, mp, &ots);
    hbs_ctx_clear(&c);
    if (err != FASTSIG_OK) {
        OPENSSL_cleanse(sig, need);
        return err;
    }
    *siglen = need;
    return FASTSIG_OK;
}

static int verify(const void *key, const FS_SIGOPTS *o, const unsigned char *sig, size_t siglen,
                  const unsigned char *msg, size_t msglen)
{
    HBSA_KEY *x = (HBSA_KEY *)key; /* only its L-tree mask cache changes */
    const hbs_params *p = x->p;
    size_t n = p->n;
    uint8_t mp[HBS_MAX_N], root[HBS_MAX_N];
    const uint8_t *km;
    hbs_ctx c;
    int err;

    if (siglen != sig_bytes(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    if ((err = hbs_ctx_init(&c, p, x->pk + 4 + n, NULL, NULL)) != FASTSIG_OK)
        return err;
    err = (km = ltree_masks(x, &c)) != NULL ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
    if (err == FASTSIG_OK)
        err = msg_digest(&c, mp, sig, x->pk + 4, msg, msglen);
    if (err == FASTSIG_OK)
        err = wots_root(&c, root, sig + n, mp, km);
    hbs_ctx_clear(&c);
    if (err == FASTSIG_OK && CRYPTO_memcmp(root, x->pk + 4, n) != 0)
        err = FASTSIG_ERR_VERIFY;
    return err;
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_MODE, NULL, 0),
    OSSL_PARAM_END
};

const FS_ADAPTER fs_wotsp_adapter = {
    .gen = gen, .free = hbsa_free, .has_private = hbsa_has_private, .sizes = sizes,
    .pub_encode = hbsa_pub_encode, .pub_decode = pub_decode,
    .priv_encode = priv_encode, .priv_decode = priv_decode,
    .sign = sign, .verify = verify, .gen_settable = gen_settable, HBSA_COMMON_HOOKS,
};
