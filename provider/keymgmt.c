/* keymgmt.c - the one key-management implementation of every fastsig
 * signature algorithm: a descriptor row (sigalgs.h) plus its adapter. This
 * file: key objects, their parameters, the dispatch tables; generation in
 * keymgmt_gen.c, import/export in keymgmt_io.c.
 * Per-row entry points are generated for each slot by FSP_FOR_EACH_SLOT;
 * everything else works on FSP_KEY, which names its row. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/crypto.h>
#include <openssl/bn.h>
#include <limits.h>
#include "prov.h"
#include "keymgmt.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"

/* ---- generic parameter lists (adapters' entries appended at init) ---- */

static const OSSL_PARAM generic_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
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

static const OSSL_PARAM empty_params[] = { OSSL_PARAM_END };

static OSSL_PARAM gettable[FSP_MAX_SIGALGS][FSP_KM_PARAMS_CAP];
static OSSL_PARAM keytypes[FSP_MAX_SIGALGS][FSP_KM_PARAMS_CAP];

/* dst gets a's entries then b's (either may be NULL), END-terminated. */
static int merge(OSSL_PARAM *dst, size_t cap, const OSSL_PARAM *a, const OSSL_PARAM *b)
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

int fsp_params_merge_rows(OSSL_PARAM *dst, size_t cap, const OSSL_PARAM *generic, size_t list)
{
    for (size_t i = 0; i < fsp_nsigalgs; i++) {
        const char *ad = (const char *)fsp_sigalgs[i].ad;
        const OSSL_PARAM *own = *(const OSSL_PARAM *const *)(ad + list);
        if (!merge(dst + i * cap, cap, generic, own))
            return 0;
    }
    return 1;
}

int fsp_keymgmt_init(void)
{
    return fsp_params_merge_rows(gettable[0], FSP_KM_PARAMS_CAP, generic_gettable,
                                offsetof(FSP_ADAPTER, gettable))
           && fsp_params_merge_rows(keytypes[0], FSP_KM_PARAMS_CAP, generic_keytypes,
                                   offsetof(FSP_ADAPTER, import_types))
           && fsp_km_gen_tables_init();
}

/* ---- key objects ---- */

static void km_free(void *keydata)
{
    fsp_key_free(keydata);
}

static int km_has(const void *keydata, int selection)
{
    const FSP_KEY *k = keydata;
    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1; /* no domain parameters: nothing else to have */
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !fsp_key_has_private(k))
        return 0;
    return fsp_key_core(k) != NULL;
}

static int km_match(const void *keydata1, const void *keydata2, int selection)
{
    const FSP_KEY *a = keydata1, *b = keydata2;
    unsigned char *pa = NULL, *pb = NULL;
    size_t la = 0, lb = 0;
    int ok;

    if (a->alg != b->alg)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    /* The public key is derivable from either half: comparing it decides. */
    ok = fsp_key_pub(a, &pa, &la) == FASTSIG_OK && fsp_key_pub(b, &pb, &lb) == FASTSIG_OK
         && la == lb && CRYPTO_memcmp(pa, pb, la) == 0;
    OPENSSL_free(pa);
    OPENSSL_free(pb);
    return ok;
}

static int km_validate(const void *keydata, int selection, int checktype)
{
    const FSP_KEY *k = keydata;
    void *core = fsp_key_core(k);
    int want_priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    int err;

    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (core == NULL || (want_priv && !k->alg->ad->has_private(core))) {
        FSP_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    if (k->alg->ad->check != NULL
        && (err = k->alg->ad->check(core, want_priv)) != FASTSIG_OK) {
        FSP_ERR(k->provctx, err);
        return 0;
    }
    return 1;
}

static void *km_dup(const void *keydata, int selection)
{
    const FSP_KEY *k = keydata;
    FSP_KEY *c;
    unsigned char *pub = NULL;
    size_t len = 0;
    void *core = NULL;
    int err;

    /* A copy that keeps the private half shares the core key (one state). */
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) || !fsp_key_has_private(k)
        || (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) == 0)
        return fsp_key_share(k);
    if ((err = fsp_key_pub(k, &pub, &len)) != FASTSIG_OK
        || (err = k->alg->ad->pub_decode(k->alg, pub, len, &core)) != FASTSIG_OK) {
        OPENSSL_free(pub);
        FSP_ERR(k->provctx, err);
        return NULL;
    }
    OPENSSL_free(pub);
    if ((c = fsp_key_new(k->provctx, k->alg)) == NULL || !fsp_key_set_core(c, core)) {
        if (c == NULL)
            k->alg->ad->free(core);
        fsp_key_free(c);
        return NULL;
    }
    return c;
}

/* ---- key parameters ---- */

static int set_encoded(OSSL_PARAM *p, const FSP_KEY *k)
{
    unsigned char *pub = NULL;
    size_t len = 0;
    int ok = fsp_key_pub(k, &pub, &len) == FASTSIG_OK
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

static int put_pub(OSSL_PARAM params[], const char *name, const FSP_KEY *k)
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
    return p == NULL || set_encoded(p, k);
}

static int km_get_params(void *keydata, OSSL_PARAM params[])
{
    FSP_KEY *k = keydata;
    const FSP_ADAPTER *ad = k->alg->ad;
    void *core = fsp_key_core(k);
    FSP_KEYSIZES sz;
    FSP_STATEINFO st;
    FSP_ERRDETAIL detail;
    int err;

    if (core == NULL) {
        FSP_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    ad->sizes(core, &sz);
    /* A row without a digest signs the message whole (as Ed25519): MANDATORY_DIGEST
     * "". A digest-then-sign row answers DEFAULT_DIGEST only, so that a given
     * digest is signed as such (EVP_PKEY_sign, pkeyutl without -rawin). */
    if (!put_int(params, OSSL_PKEY_PARAM_BITS, sz.bits)
        || !put_int(params, OSSL_PKEY_PARAM_SECURITY_BITS, sz.security_bits)
        || !put_int(params, OSSL_PKEY_PARAM_MAX_SIZE, (int)sz.max_sig)
        || (k->alg->md == NULL && !put_utf8(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST, ""))
        || (k->alg->md != NULL && !put_utf8(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST, k->alg->md))
        || !put_pub(params, OSSL_PKEY_PARAM_PUB_KEY, k)
        || !put_pub(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, k)
        || !put_utf8(params, FASTSIG_PKEY_PARAM_PARAM,
                     ad->param_name != NULL ? ad->param_name(core) : NULL))
        goto bad_param;
    if ((k->alg->flags & FSP_SIGALG_STATEFUL) && ad->state != NULL
        && (OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_INDEX) != NULL
            || OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_REMAINING) != NULL
            || OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_MAX) != NULL)) {
        /* Asked for state the key cannot vouch for: say why. */
        detail.reason = 0;
        st.detail = &detail;
        if ((err = ad->state(core, &st)) != FASTSIG_OK) {
            FSP_ERR_DETAIL(k->provctx, err, &detail);
            return 0;
        }
        if (!put_u64(params, FASTSIG_PKEY_PARAM_INDEX, st.index)
            || !put_u64(params, FASTSIG_PKEY_PARAM_REMAINING, st.remaining)
            || !put_u64(params, FASTSIG_PKEY_PARAM_MAX, st.max))
            goto bad_param;
    }
    if (ad->get_params != NULL && (err = ad->get_params(core, params)) != FASTSIG_OK) {
        FSP_ERR(k->provctx, err);
        return 0;
    }
    return 1;
bad_param:
    FSP_ERR(k->provctx, FASTSIG_ERR_BAD_PARAM);
    return 0;
}

static int km_set_params(void *keydata, const OSSL_PARAM params[])
{
    FSP_KEY *k = keydata;
    void *core = fsp_key_core(k);
    FSP_ERRDETAIL detail;
    int err;

    if (params == NULL || k->alg->ad->set_params == NULL)
        return 1;
    if (core == NULL) {
        FSP_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    detail.reason = 0;
    if ((err = k->alg->ad->set_params(core, params, &detail)) != FASTSIG_OK) {
        FSP_ERR_DETAIL(k->provctx, err, &detail);
        return 0;
    }
    return 1;
}

static void *km_load(const void *reference, size_t reference_sz)
{
    FSP_KEY *k;
    if (reference == NULL || reference_sz != sizeof(k))
        return NULL;
    k = *(FSP_KEY *const *)reference;
    *(FSP_KEY **)reference = NULL;
    return k;
}

/* ---- per-slot entry points and dispatch tables ---- */

#define SLOT_FNS(i)                                                             \
    static void *km_new_##i(void *provctx)                                      \
    {                                                                           \
        return fsp_key_new(provctx, &fsp_sigalgs[i]);                             \
    }                                                                           \
    static void *gen_init_##i(void *provctx, int selection, const OSSL_PARAM p[]) \
    {                                                                           \
        return fsp_km_gen_init(provctx, selection, p, &fsp_sigalgs[i]);                 \
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
        return (i) < fsp_nsigalgs && fsp_sigalgs[i].ad->settable != NULL          \
               ? fsp_sigalgs[i].ad->settable : empty_params;                     \
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
    { OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))fsp_km_import },                    \
    { OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))fsp_km_export },                    \
    { OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params },            \
    { OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))km_set_params },            \
    { OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))km_load },                        \
    { OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))fsp_km_gen_set_params },       \
    { OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))fsp_km_gen_settable }, \
    { OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))fsp_km_gen },                             \
    { OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))fsp_km_gen_cleanup },

FSP_FOR_EACH_SLOT(SLOT_FNS)

#define SLOT_REF(i) km_fns_##i,
const OSSL_DISPATCH *const fsp_keymgmt_dispatch[FSP_MAX_SIGALGS] = {
    FSP_FOR_EACH_SLOT(SLOT_REF)
};
