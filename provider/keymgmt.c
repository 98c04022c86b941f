/* keymgmt.c - the one key-management implementation of every fastsig
 * signature algorithm: a descriptor row (sigalgs.h) plus its adapter.
 * Per-row entry points are generated for each slot by FS_FOR_EACH_SLOT;
 * everything else works on FS_KEY, which names its row. */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/crypto.h>
#include <openssl/bn.h>
#include <limits.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"

#define PARAMS_CAP 32

/* ---- generic parameter lists (adapters' entries appended at init) ---- */

static const OSSL_PARAM generic_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_PARAM, NULL, 0),
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_INDEX, NULL),
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_REMAINING, NULL),
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_MAX, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM generic_keytypes[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM generic_gen_settable[] = {
    OSSL_PARAM_size_t(FASTSIG_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_PARAM, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SEED, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM empty_params[] = { OSSL_PARAM_END };

static OSSL_PARAM gettable[FS_MAX_SIGALGS][PARAMS_CAP];
static OSSL_PARAM keytypes[FS_MAX_SIGALGS][PARAMS_CAP];
static OSSL_PARAM gen_settable[FS_MAX_SIGALGS][PARAMS_CAP];

int fs_params_merge(OSSL_PARAM *dst, size_t cap, const OSSL_PARAM *a,
                    const OSSL_PARAM *b)
{
    size_t n = 0;
    for (const OSSL_PARAM *l = a; l != NULL; l = (l == a ? b : NULL))
        for (const OSSL_PARAM *p = l; p->key != NULL; p++) {
            if (n + 1 >= cap)
                return 0;
            dst[n++] = *p;
        }
    dst[n] = (OSSL_PARAM)OSSL_PARAM_END;
    return 1;
}

int fs_keymgmt_init(void)
{
    for (size_t i = 0; i < fs_nsigalgs; i++) {
        const FS_ADAPTER *ad = fs_sigalgs[i].ad;
        if (ad == NULL)
            continue;
        if (!fs_params_merge(gettable[i], PARAMS_CAP, generic_gettable, ad->gettable)
            || !fs_params_merge(keytypes[i], PARAMS_CAP, generic_keytypes, ad->import_types)
            || !fs_params_merge(gen_settable[i], PARAMS_CAP, generic_gen_settable,
                                ad->gen_settable))
            return 0;
    }
    return 1;
}

/* ---- key objects ---- */

static void km_free(void *keydata)
{
    fs_key_free(keydata);
}

static int km_has(const void *keydata, int selection)
{
    const FS_KEY *k = keydata;
    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1; /* no domain parameters: nothing else to have */
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !fs_key_has_private(k))
        return 0;
    return fs_key_core(k) != NULL;
}

static int km_match(const void *keydata1, const void *keydata2, int selection)
{
    const FS_KEY *a = keydata1, *b = keydata2;
    unsigned char *pa = NULL, *pb = NULL;
    size_t la = 0, lb = 0;
    int ok;

    if (a->alg != b->alg)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    /* The public key is derivable from either half: comparing it decides. */
    ok = fs_key_pub(a, &pa, &la) == FASTSIG_OK && fs_key_pub(b, &pb, &lb) == FASTSIG_OK
         && la == lb && CRYPTO_memcmp(pa, pb, la) == 0;
    OPENSSL_free(pa);
    OPENSSL_free(pb);
    return ok;
}

static int km_validate(const void *keydata, int selection, int checktype)
{
    const FS_KEY *k = keydata;
    void *core = fs_key_core(k);
    int want_priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    int err;

    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (core == NULL || (want_priv && !k->alg->ad->has_private(core))) {
        FS_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    if (k->alg->ad->check != NULL
        && (err = k->alg->ad->check(core, want_priv)) != FASTSIG_OK) {
        FS_ERR(k->provctx, err);
        return 0;
    }
    return 1;
}

static void *km_dup(const void *keydata, int selection)
{
    const FS_KEY *k = keydata;
    FS_KEY *c;
    unsigned char *pub = NULL;
    size_t len = 0;
    void *core = NULL;
    int err;

    /* A copy that keeps the private half shares the core key (one state). */
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) || !fs_key_has_private(k)
        || (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) == 0)
        return fs_key_share(k);
    if ((err = fs_key_pub(k, &pub, &len)) != FASTSIG_OK
        || (err = k->alg->ad->pub_decode(k->alg, pub, len, &core)) != FASTSIG_OK) {
        OPENSSL_free(pub);
        FS_ERR(k->provctx, err);
        return NULL;
    }
    OPENSSL_free(pub);
    if ((c = fs_key_new(k->provctx, k->alg)) == NULL || !fs_key_set_core(c, core)) {
        if (c == NULL)
            k->alg->ad->free(core);
        fs_key_free(c);
        return NULL;
    }
    return c;
}

/* ---- import / export ---- */

/* The raw encoding in octet-string param `name`, if present. */
static int import_octets(const FS_SIGALG *alg, const OSSL_PARAM params[], const char *name,
                         int (*dec)(const FS_SIGALG *, const unsigned char *, size_t, void **),
                         void **core)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);

    if (p == NULL)
        return FASTSIG_OK;
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return FASTSIG_ERR_BAD_PARAM;
    return dec(alg, p->data, p->data_size, core);
}

static int km_import(void *keydata, int selection, const OSSL_PARAM params[])
{
    FS_KEY *k = keydata;
    const FS_ADAPTER *ad = k->alg->ad;
    void *core = NULL;
    int err = FASTSIG_OK;

    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (ad->import != NULL)
        err = ad->import(k->alg, params, selection, &core);
    if (err == FASTSIG_OK && core == NULL && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY))
        err = import_octets(k->alg, params, OSSL_PKEY_PARAM_PRIV_KEY, ad->priv_decode, &core);
    if (err == FASTSIG_OK && core == NULL && (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY))
        err = import_octets(k->alg, params, OSSL_PKEY_PARAM_PUB_KEY, ad->pub_decode, &core);
    if (err != FASTSIG_OK)
        goto fail;
    if (core == NULL) {
        err = FASTSIG_ERR_BAD_KEY;
        goto fail;
    }
    return fs_key_set_core(k, core);
fail:
    FS_ERR(k->provctx, err);
    return 0;
}

#define EXPORT_MAX 16

struct fs_export {
    OSSL_PARAM_BLD *bld;
    void *mem[EXPORT_MAX];
    size_t len[EXPORT_MAX];
    BIGNUM *bn[EXPORT_MAX];
    size_t nmem, nbn;
};

int fs_export_octets(FS_EXPORT *x, const char *name, const unsigned char *b, size_t len)
{
    unsigned char *c;

    if (x->nmem == EXPORT_MAX || (c = OPENSSL_secure_malloc(len ? len : 1)) == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(c, b, len);
    x->mem[x->nmem] = c;
    x->len[x->nmem++] = len ? len : 1;
    return OSSL_PARAM_BLD_push_octet_string(x->bld, name, c, len) ? FASTSIG_OK
                                                                    : FASTSIG_ERR_NOMEM;
}

int fs_export_bn(FS_EXPORT *x, const char *name, const unsigned char *be, size_t len)
{
    BIGNUM *bn;

    if (x->nbn == EXPORT_MAX || len > INT_MAX || (bn = BN_secure_new()) == NULL)
        return FASTSIG_ERR_NOMEM;
    x->bn[x->nbn++] = bn;
    return BN_bin2bn(be, (int)len, bn) != NULL && OSSL_PARAM_BLD_push_BN(x->bld, name, bn)
           ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

static void export_clear(FS_EXPORT *x)
{
    for (size_t i = 0; i < x->nmem; i++)
        OPENSSL_secure_clear_free(x->mem[i], x->len[i]);
    for (size_t i = 0; i < x->nbn; i++)
        BN_clear_free(x->bn[i]);
    OSSL_PARAM_BLD_free(x->bld);
}

static int export_encoding(FS_EXPORT *x, const char *name, const void *core,
                           int (*enc)(const void *, unsigned char *, size_t *))
{
    unsigned char *buf = NULL;
    size_t len = 0;
    int err;

    if ((err = enc(core, NULL, &len)) != FASTSIG_OK)
        return err;
    if ((buf = OPENSSL_secure_malloc(len ? len : 1)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = enc(core, buf, &len)) == FASTSIG_OK)
        err = fs_export_octets(x, name, buf, len);
    OPENSSL_secure_clear_free(buf, len ? len : 1);
    return err;
}

static int km_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    FS_KEY *k = keydata;
    const FS_ADAPTER *ad = k->alg->ad;
    void *core = fs_key_core(k);
    FS_EXPORT x = { 0 };
    OSSL_PARAM *params = NULL;
    int err = FASTSIG_OK, ok = 0;

    if (core == NULL) {
        FS_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    if ((x.bld = OSSL_PARAM_BLD_new()) == NULL) {
        FS_ERR(k->provctx, FASTSIG_ERR_NOMEM);
        return 0;
    }
    if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR)
        err = export_encoding(&x, OSSL_PKEY_PARAM_PUB_KEY, core, ad->pub_encode);
    if (err == FASTSIG_OK && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
        && ad->has_private(core))
        err = export_encoding(&x, OSSL_PKEY_PARAM_PRIV_KEY, core, ad->priv_encode);
    if (err == FASTSIG_OK && ad->export != NULL)
        err = ad->export(core, selection, &x);
    if (err == FASTSIG_OK && (params = OSSL_PARAM_BLD_to_param(x.bld)) == NULL)
        err = FASTSIG_ERR_NOMEM;
    if (err != FASTSIG_OK)
        FS_ERR(k->provctx, err);
    else
        ok = cb(params, cbarg);
    OSSL_PARAM_free(params);
    export_clear(&x);
    return ok;
}

/* ---- key parameters ---- */

static int set_encoded(OSSL_PARAM *p, const FS_KEY *k)
{
    unsigned char *pub = NULL;
    size_t len = 0;
    int ok = fs_key_pub(k, &pub, &len) == FASTSIG_OK
             && OSSL_PARAM_set_octet_string(p, pub, len);
    OPENSSL_free(pub);
    return ok;
}

/* Each sets params[name] when asked for; 0 only when it cannot (wrong type). */
static int put_int(OSSL_PARAM params[], const char *name, int v)
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
    return p == NULL || OSSL_PARAM_set_int(p, v);
}

static int put_u64(OSSL_PARAM params[], const char *name, uint64_t v)
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
    return p == NULL || OSSL_PARAM_set_uint64(p, v);
}

static int put_utf8(OSSL_PARAM params[], const char *name, const char *v)
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
    return p == NULL || v == NULL || OSSL_PARAM_set_utf8_string(p, v);
}

static int put_pub(OSSL_PARAM params[], const char *name, const FS_KEY *k)
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
    return p == NULL || set_encoded(p, k);
}

static int km_get_params(void *keydata, OSSL_PARAM params[])
{
    FS_KEY *k = keydata;
    const FS_ADAPTER *ad = k->alg->ad;
    void *core = fs_key_core(k);
    FS_KEYSIZES sz;
    FS_STATEINFO st;
    int err;

    if (core == NULL) {
        FS_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    ad->sizes(core, &sz);
    /* MANDATORY_DIGEST "": no digest, the message is signed whole (as Ed25519). */
    if (!put_int(params, OSSL_PKEY_PARAM_BITS, sz.bits)
        || !put_int(params, OSSL_PKEY_PARAM_SECURITY_BITS, sz.security_bits)
        || !put_int(params, OSSL_PKEY_PARAM_MAX_SIZE, (int)sz.max_sig)
        || !put_utf8(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST, "")
        || !put_pub(params, OSSL_PKEY_PARAM_PUB_KEY, k)
        || !put_pub(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, k)
        || !put_utf8(params, FASTSIG_PKEY_PARAM_PARAM,
                     ad->param_name != NULL ? ad->param_name(core) : NULL))
        goto bad_param;
    if ((k->alg->flags & FS_SIGALG_STATEFUL) && ad->state != NULL
        && (OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_INDEX) != NULL
            || OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_REMAINING) != NULL
            || OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_MAX) != NULL)) {
        /* Asked for state the key cannot vouch for: say why. */
        if ((err = ad->state(core, &st)) != FASTSIG_OK) {
            FS_ERR(k->provctx, err);
            return 0;
        }
        if (!put_u64(params, FASTSIG_PKEY_PARAM_INDEX, st.index)
            || !put_u64(params, FASTSIG_PKEY_PARAM_REMAINING, st.remaining)
            || !put_u64(params, FASTSIG_PKEY_PARAM_MAX, st.max))
            goto bad_param;
    }
    if (ad->get_params != NULL && (err = ad->get_params(core, params)) != FASTSIG_OK) {
        FS_ERR(k->provctx, err);
        return 0;
    }
    return 1;
bad_param:
    FS_ERR(k->provctx, FASTSIG_ERR_BAD_PARAM);
    return 0;
}

static int km_set_params(void *keydata, const OSSL_PARAM params[])
{
    FS_KEY *k = keydata;
    void *core = fs_key_core(k);
    int err;

    if (params == NULL || k->alg->ad->set_params == NULL)
        return 1;
    if (core == NULL) {
        FS_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    if ((err = k->alg->ad->set_params(core, params)) != FASTSIG_OK) {
        FS_ERR(k->provctx, err);
        return 0;
    }
    return 1;
}

/* ---- generation ---- */

typedef struct {
    FS_PROVCTX *provctx;
    const FS_SIGALG *alg;
    int selection;
    size_t bits;
    char *param, *state, *mode;
    unsigned char *seed;
    size_t seedlen;
    unsigned threads;
    OSSL_CALLBACK *cb;
    void *cbarg;
} FS_GENCTX;

/* "threads": an unsigned integer or decimal text, 1..FS_GEN_MAX_THREADS,
 * only for rows whose adapter offers it. */
static int get_threads(FS_GENCTX *g, const OSSL_PARAM *p)
{
    const char *s = p->data;
    char *end = NULL;
    uint64_t v = 0;
    int ok;

    if (OSSL_PARAM_locate_const(g->alg->ad->gen_settable, FASTSIG_PKEY_PARAM_THREADS) == NULL) {
        FS_ERR_MSG(g->provctx, FASTSIG_ERR_UNSUPPORTED, "%s key generation has no threads option",
                   g->alg->name);
        return 0;
    }
    if (p->data_type == OSSL_PARAM_UTF8_STRING)
        ok = s != NULL && s[0] >= '0' && s[0] <= '9' && (v = strtoull(s, &end, 10), *end == '\0');
    else
        ok = OSSL_PARAM_get_uint64(p, &v);
    if (!ok || v < 1 || v > FS_GEN_MAX_THREADS) {
        FS_ERR_MSG(g->provctx, FASTSIG_ERR_BAD_PARAM, "threads: a whole number from 1 to %d",
                   FS_GEN_MAX_THREADS);
        return 0;
    }
    g->threads = (unsigned)v;
    return 1;
}

static int gen_set_params(void *genctx, const OSSL_PARAM params[])
{
    FS_GENCTX *g = genctx;
    const OSSL_PARAM *p;
    int err = FASTSIG_ERR_BAD_PARAM;

    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_BITS)) != NULL
        && !OSSL_PARAM_get_size_t(p, &g->bits)) {
        /* also "bits" as decimal text */
        char *end = NULL;
        unsigned long long v;
        if (p->data_type != OSSL_PARAM_UTF8_STRING || p->data == NULL)
            goto fail;
        v = strtoull(p->data, &end, 10);
        if (end == p->data || *end != '\0' || v > SIZE_MAX)
            goto fail;
        g->bits = (size_t)v;
    }
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_PARAM)) != NULL) {
        OPENSSL_free(g->param);
        g->param = NULL;
        if (!OSSL_PARAM_get_utf8_string(p, &g->param, 0))
            goto fail;
    }
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_MODE)) != NULL) {
        OPENSSL_free(g->mode);
        g->mode = NULL;
        if (!OSSL_PARAM_get_utf8_string(p, &g->mode, 0))
            goto fail;
    }
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_THREADS)) != NULL
        && !get_threads(g, p))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_STATE)) != NULL) {
        OPENSSL_free(g->state);
        g->state = NULL;
        if (!OSSL_PARAM_get_utf8_string(p, &g->state, 0))
            goto fail;
    }
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_SEED)) != NULL) {
        OPENSSL_clear_free(g->seed, g->seedlen);
        g->seed = NULL;
        g->seedlen = 0;
        if (p->data_type == OSSL_PARAM_OCTET_STRING) {
            if (!OSSL_PARAM_get_octet_string(p, (void **)&g->seed, 0, &g->seedlen))
                goto fail;
        } else if (p->data_type == OSSL_PARAM_UTF8_STRING) {
            const char *hex = p->data;
            size_t n = strlen(hex) / 2;
            if (strlen(hex) % 2 != 0 || n == 0 || (g->seed = OPENSSL_malloc(n)) == NULL
                || !OPENSSL_hexstr2buf_ex(g->seed, n, &g->seedlen, hex, '\0')) {
                err = FASTSIG_ERR_BAD_HEX;
                goto fail;
            }
        } else {
            goto fail;
        }
    }
    return 1;
fail:
    FS_ERR(g->provctx, err);
    return 0;
}

static void *gen_init(void *provctx, int selection, const OSSL_PARAM params[],
                      const FS_SIGALG *alg)
{
    FS_GENCTX *g = OPENSSL_zalloc(sizeof(*g));
    if (g == NULL)
        return NULL;
    g->provctx = provctx;
    g->alg = alg;
    g->selection = selection;
    if (!gen_set_params(g, params)) {
        OPENSSL_free(g);
        return NULL;
    }
    return g;
}

static void gen_cleanup(void *genctx)
{
    FS_GENCTX *g = genctx;
    if (g == NULL)
        return;
    OPENSSL_free(g->param);
    OPENSSL_free(g->state);
    OPENSSL_free(g->mode);
    OPENSSL_clear_free(g->seed, g->seedlen);
    OPENSSL_free(g);
}

static int gen_progress(void *arg, int potential, int iteration)
{
    FS_GENCTX *g = arg;
    OSSL_PARAM p[3];

    if (g->cb == NULL)
        return 1;
    p[0] = OSSL_PARAM_construct_int(OSSL_GEN_PARAM_POTENTIAL, &potential);
    p[1] = OSSL_PARAM_construct_int(OSSL_GEN_PARAM_ITERATION, &iteration);
    p[2] = OSSL_PARAM_construct_end();
    return g->cb(p, g->cbarg);
}

static void *gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
    FS_GENCTX *g = genctx;
    FS_GENOPTS o = { g->bits, g->param, g->seed, g->seedlen, g->state,
                     fs_rng_bytes, g->provctx, gen_progress, g, g->mode, g->threads };
    FS_KEY *k;
    void *core = NULL;
    int err;

    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
        FS_ERR(g->provctx, FASTSIG_ERR_UNSUPPORTED); /* no domain parameters */
        return NULL;
    }
    g->cb = cb;
    g->cbarg = cbarg;
    if ((err = g->alg->ad->gen(g->alg, &o, &core)) != FASTSIG_OK) {
        FS_ERR(g->provctx, err);
        return NULL;
    }
    if ((k = fs_key_new(g->provctx, g->alg)) == NULL) {
        g->alg->ad->free(core);
        return NULL;
    }
    if (!fs_key_set_core(k, core)) {
        fs_key_free(k);
        return NULL;
    }
    return k;
}

/* reference: the FS_KEY * a decoder of this provider made; ownership moves. */
static void *km_load(const void *reference, size_t reference_sz)
{
    FS_KEY *k;
    if (reference == NULL || reference_sz != sizeof(k))
        return NULL;
    k = *(FS_KEY *const *)reference;
    *(FS_KEY **)reference = NULL;
    return k;
}

static const OSSL_PARAM *km_gen_settable(void *genctx, void *provctx)
{
    FS_GENCTX *g = genctx;
    return g != NULL ? gen_settable[g->alg - fs_sigalgs] : generic_gen_settable;
}

/* ---- per-slot entry points and dispatch tables ---- */

#define SLOT_FNS(i)                                                             \
    static void *km_new_##i(void *provctx)                                      \
    {                                                                           \
        return fs_key_new(provctx, &fs_sigalgs[i]);                             \
    }                                                                           \
    static void *gen_init_##i(void *provctx, int selection, const OSSL_PARAM p[]) \
    {                                                                           \
        return gen_init(provctx, selection, p, &fs_sigalgs[i]);                 \
    }                                                                           \
    static const OSSL_PARAM *km_types_##i(int selection)                        \
    {                                                                           \
        return keytypes[i];                                                     \
    }                                                                           \
    static const OSSL_PARAM *km_gettable_##i(void *provctx)                     \
    {                                                                           \
        return gettable[i];                                                     \
    }                                                                           \
    static const OSSL_PARAM *km_settable_##i(void *provctx)                     \
    {                                                                           \
        return (i) < fs_nsigalgs && fs_sigalgs[i].ad != NULL                    \
               && fs_sigalgs[i].ad->settable != NULL                            \
               ? fs_sigalgs[i].ad->settable : empty_params;                     \
    }                                                                           \
    static const OSSL_DISPATCH km_fns_##i[] = {                                 \
        { OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))km_new_##i },                  \
        { OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))gen_init_##i },           \
        { OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))km_types_##i },       \
        { OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))km_types_##i },       \
        { OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))km_gettable_##i }, \
        { OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))km_settable_##i }, \
        COMMON_FNS                                                              \
        { 0, NULL }                                                             \
    };

#define COMMON_FNS                                                              \
    { OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))km_free },                        \
    { OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))km_has },                          \
    { OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match },                      \
    { OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))km_validate },                \
    { OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))km_dup },                          \
    { OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import },                    \
    { OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export },                    \
    { OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params },            \
    { OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))km_set_params },            \
    { OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))km_load },                        \
    { OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))gen_set_params },       \
    { OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))km_gen_settable }, \
    { OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))gen },                             \
    { OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))gen_cleanup },

FS_FOR_EACH_SLOT(SLOT_FNS)

#define SLOT_REF(i) km_fns_##i,
const OSSL_DISPATCH *const fs_keymgmt_dispatch[FS_MAX_SIGALGS] = {
    FS_FOR_EACH_SLOT(SLOT_REF)
};
