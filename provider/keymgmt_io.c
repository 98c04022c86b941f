/* keymgmt_io.c - import and export of every fastsig key (keymgmt.h): the
 * raw PUB_KEY / PRIV_KEY octet strings, or the adapter's own terms (e.g.
 * RW's n, p, q), and the export collector adapters fill (sigalgs.h). */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/crypto.h>
#include <openssl/bn.h>
#include "prov.h"
#include "keymgmt.h"
#include "fastsig_err.h"

/* The raw encoding in octet-string param PRIV_KEY (priv) or PUB_KEY, if
 * present; a private key's refusal detail in d. */
static int import_octets(const FSP_SIGALG *alg, const OSSL_PARAM params[], int priv,
                         void **core, FSP_ERRDETAIL *d)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, priv ? OSSL_PKEY_PARAM_PRIV_KEY
                                                               : OSSL_PKEY_PARAM_PUB_KEY);

    if (p == NULL)
        return FASTSIG_OK;
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return FASTSIG_ERR_BAD_PARAM;
    return priv ? alg->ad->priv_decode(alg, p->data, p->data_size, core, d)
                : alg->ad->pub_decode(alg, p->data, p->data_size, core);
}

int fsp_km_import(void *keydata, int selection, const OSSL_PARAM params[])
{
    FSP_KEY *k = keydata;
    const FSP_ADAPTER *ad = k->alg->ad;
    void *core = NULL;
    FSP_ERRDETAIL detail;
    int err = FASTSIG_OK;

    detail.reason = 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (ad->import != NULL)
        err = ad->import(k->alg, params, selection, &core);
    if (err == FASTSIG_OK && core == NULL && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY))
        err = import_octets(k->alg, params, 1, &core, &detail);
    if (err == FASTSIG_OK && core == NULL && (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY))
        err = import_octets(k->alg, params, 0, &core, &detail);
    if (err != FASTSIG_OK)
        goto fail;
    if (core == NULL) {
        err = FASTSIG_ERR_BAD_KEY;
        goto fail;
    }
    return fsp_key_set_core(k, core);
fail:
    FSP_ERR_DETAIL(k->provctx, err, &detail);
    return 0;
}

#define EXPORT_MAX 16

struct fsp_export {
    OSSL_PARAM_BLD *bld;
    void *mem[EXPORT_MAX];
    size_t len[EXPORT_MAX];
    BIGNUM *bn[EXPORT_MAX];
    size_t nmem, nbn;
};

int fsp_export_octets(FSP_EXPORT *x, const char *name, const unsigned char *b, size_t len)
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

int fsp_export_bn(FSP_EXPORT *x, const char *name, const unsigned char *be, size_t len)
{
    BIGNUM *bn;

    if (x->nbn == EXPORT_MAX || len > INT_MAX || (bn = BN_secure_new()) == NULL)
        return FASTSIG_ERR_NOMEM;
    x->bn[x->nbn++] = bn;
    return BN_bin2bn(be, (int)len, bn) != NULL && OSSL_PARAM_BLD_push_BN(x->bld, name, bn)
           ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

static void export_clear(FSP_EXPORT *x)
{
    for (size_t i = 0; i < x->nmem; i++)
        OPENSSL_secure_clear_free(x->mem[i], x->len[i]);
    for (size_t i = 0; i < x->nbn; i++)
        BN_clear_free(x->bn[i]);
    OSSL_PARAM_BLD_free(x->bld);
}

static int export_encoding(FSP_EXPORT *x, const char *name, const void *core,
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
        err = fsp_export_octets(x, name, buf, len);
    OPENSSL_secure_clear_free(buf, len ? len : 1);
    return err;
}

int fsp_km_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    FSP_KEY *k = keydata;
    const FSP_ADAPTER *ad = k->alg->ad;
    void *core = fsp_key_core(k);
    FSP_EXPORT x = { 0 };
    OSSL_PARAM *params = NULL;
    int err = FASTSIG_OK, ok = 0;

    if (core == NULL) {
        FSP_ERR(k->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    if ((x.bld = OSSL_PARAM_BLD_new()) == NULL) {
        FSP_ERR(k->provctx, FASTSIG_ERR_NOMEM);
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
        FSP_ERR(k->provctx, err);
    else
        ok = cb(params, cbarg);
    /* OSSL_PARAM_free clears only the secure part (the BIGNUMs): the
     * octets (a private key encoding, RW's PRF key) are in the other */
    for (OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++)
        OPENSSL_cleanse(p->data, p->data_size);
    OSSL_PARAM_free(params);
    export_clear(&x);
    return ok;
}

