/* encode.c - the encoders of every row: PrivateKeyInfo (PKCS#8, encrypted
 * when a cipher is set — never silently in the clear), EncryptedPrivateKeyInfo,
 * SubjectPublicKeyInfo, each as DER and PEM, and text. One implementation per
 * kind; the key object names its row. */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/evp.h>
#include <openssl/pkcs12.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"

typedef struct {
    FSP_PROVCTX *provctx;
    int kind;
    EVP_CIPHER *cipher;   /* set: PKCS#8 output is encrypted */
    int cipher_asked;     /* a cipher was named (even if unusable) */
    char *propq;
} FSP_ENCCTX;

const char *const fsp_encoder_props[FSP_ENC_KINDS] = {
    [FSP_ENC_PKI_DER] = "provider=fastsig,output=der,structure=PrivateKeyInfo",
    [FSP_ENC_PKI_PEM] = "provider=fastsig,output=pem,structure=PrivateKeyInfo",
    [FSP_ENC_EPKI_DER] = "provider=fastsig,output=der,structure=EncryptedPrivateKeyInfo",
    [FSP_ENC_EPKI_PEM] = "provider=fastsig,output=pem,structure=EncryptedPrivateKeyInfo",
    [FSP_ENC_SPKI_DER] = "provider=fastsig,output=der,structure=SubjectPublicKeyInfo",
    [FSP_ENC_SPKI_PEM] = "provider=fastsig,output=pem,structure=SubjectPublicKeyInfo",
    [FSP_ENC_TEXT] = "provider=fastsig,output=text",
};

static int is_private_kind(int kind)
{
    return kind <= FSP_ENC_EPKI_PEM;
}

static int is_pem_kind(int kind)
{
    return kind == FSP_ENC_PKI_PEM || kind == FSP_ENC_EPKI_PEM || kind == FSP_ENC_SPKI_PEM;
}

static void *enc_newctx(void *provctx, int kind)
{
    FSP_ENCCTX *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL)
        return NULL;
    c->provctx = provctx;
    c->kind = kind;
    return c;
}

static void enc_freectx(void *vctx)
{
    FSP_ENCCTX *c = vctx;
    if (c == NULL)
        return;
    EVP_CIPHER_free(c->cipher);
    OPENSSL_free(c->propq);
    OPENSSL_free(c);
}

static const OSSL_PARAM enc_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *enc_settable_ctx_params(void *provctx)
{
    return enc_settable;
}

static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    FSP_ENCCTX *c = vctx;
    const OSSL_PARAM *p;
    const char *name = NULL;

    if (params == NULL)
        return 1;
    /* OSSL_ENCODER_CTX_set_cipher passes NULL data for "none" */
    if ((p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_PROPERTIES)) != NULL) {
        OPENSSL_free(c->propq);
        c->propq = NULL;
        if (p->data != NULL && !OSSL_PARAM_get_utf8_string(p, &c->propq, 0))
            return 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER)) != NULL) {
        if (p->data != NULL && !OSSL_PARAM_get_utf8_string_ptr(p, &name))
            return 0;
        EVP_CIPHER_free(c->cipher);
        c->cipher = NULL;
        c->cipher_asked = name != NULL;
        if (name != NULL
            && (c->cipher = EVP_CIPHER_fetch(c->provctx->libctx, name, c->propq)) == NULL) {
            FSP_ERR_MSG(c->provctx, FASTSIG_ERR_UNSUPPORTED, "cipher %s", name);
            return 0;
        }
    }
    return 1;
}

/* The levels of OpenSSL's own key2any: private implies public. */
static int selection_ok(int selection, int mask)
{
    static const int levels[] = { OSSL_KEYMGMT_SELECT_PRIVATE_KEY,
                                  OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
                                  OSSL_KEYMGMT_SELECT_ALL_PARAMETERS };
    if (selection == 0)
        return 1;
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
        if (selection & levels[i])
            return (mask & levels[i]) != 0;
    return 0;
}

static X509_SIG *encrypt_p8(FSP_ENCCTX *c, PKCS8_PRIV_KEY_INFO *p8,
                            OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    char pass[1024];
    size_t passlen = 0;
    X509_SIG *e = NULL;

    if (cb == NULL || !cb(pass, sizeof(pass), &passlen, NULL, cbarg)) {
        FSP_ERR_MSG(c->provctx, FASTSIG_ERR_BAD_PARAM, "no passphrase for the encrypted key");
        return NULL;
    }
    e = PKCS8_encrypt_ex(-1, c->cipher, pass, (int)passlen, NULL, 0, 0, p8,
                         c->provctx->libctx, c->propq);
    OPENSSL_cleanse(pass, sizeof(pass));
    if (e == NULL)
        FSP_ERR_MSG(c->provctx, FASTSIG_ERR_INTERNAL, "PKCS#8 encryption failed");
    return e;
}

static int write_private(FSP_ENCCTX *c, BIO *out, const FSP_KEY *k,
                         OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    int encrypted = c->kind == FSP_ENC_EPKI_DER || c->kind == FSP_ENC_EPKI_PEM
                    || c->cipher_asked;
    int pem = is_pem_kind(c->kind), ok = 0, err;
    PKCS8_PRIV_KEY_INFO *p8 = NULL;
    X509_SIG *e = NULL;

    if (encrypted && c->cipher == NULL) { /* asked for, not usable: write nothing */
        FSP_ERR_MSG(c->provctx, FASTSIG_ERR_BAD_PARAM, "encryption asked for but no cipher");
        return 0;
    }
    if ((err = fsp_der_p8(k, &p8)) != FASTSIG_OK) {
        FSP_ERR(c->provctx, err);
        return 0;
    }
    if (encrypted) {
        if ((e = encrypt_p8(c, p8, cb, cbarg)) != NULL)
            ok = pem ? PEM_write_bio_PKCS8(out, e) : i2d_PKCS8_bio(out, e);
    } else {
        ok = pem ? PEM_write_bio_PKCS8_PRIV_KEY_INFO(out, p8)
                 : i2d_PKCS8_PRIV_KEY_INFO_bio(out, p8);
    }
    X509_SIG_free(e);
    PKCS8_PRIV_KEY_INFO_free(p8);
    return ok > 0;
}

static int write_public(FSP_ENCCTX *c, BIO *out, const FSP_KEY *k)
{
    unsigned char *der = NULL;
    size_t len = 0;
    int ok, err;

    if ((err = fsp_der_spki(k, &der, &len)) != FASTSIG_OK) {
        FSP_ERR(c->provctx, err);
        return 0;
    }
    ok = is_pem_kind(c->kind) ? PEM_write_bio(out, PEM_STRING_PUBLIC, "", der, (long)len) > 0
                              : BIO_write(out, der, (int)len) == (int)len;
    OPENSSL_free(der);
    return ok;
}

static int enc_encode(void *vctx, OSSL_CORE_BIO *cout, const void *obj_raw,
                      const OSSL_PARAM obj_abstract[], int selection,
                      OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    FSP_ENCCTX *c = vctx;
    const FSP_KEY *k = obj_raw;
    BIO *out;
    int ok = 0;

    if (k == NULL || fsp_key_core(k) == NULL) { /* only our own key objects */
        FSP_ERR(c->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    if ((out = BIO_new_from_core_bio(c->provctx->libctx, cout)) == NULL)
        return 0;
    if (c->kind == FSP_ENC_TEXT)
        ok = fsp_key_to_text(out, k, selection);
    else if (is_private_kind(c->kind))
        ok = write_private(c, out, k, cb, cbarg);
    else
        ok = write_public(c, out, k);
    BIO_free(out);
    return ok;
}

/* ---- per-kind entry points ---- */

#define KIND_FNS(kind, mask)                                                   \
    static void *enc_newctx_##kind(void *provctx)                              \
    {                                                                          \
        return enc_newctx(provctx, kind);                                      \
    }                                                                          \
    static int enc_does_##kind(void *provctx, int selection)                   \
    {                                                                          \
        return selection_ok(selection, mask);                                  \
    }                                                                          \
    static const OSSL_DISPATCH enc_fns_##kind[] = {                            \
        { OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_newctx_##kind },       \
        { OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))enc_does_##kind }, \
        { OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx },            \
        { OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))enc_set_ctx_params }, \
        { OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, (void (*)(void))enc_settable_ctx_params }, \
        { OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))enc_encode },              \
        { 0, NULL }                                                            \
    };

#define PRIV OSSL_KEYMGMT_SELECT_PRIVATE_KEY
#define PUB OSSL_KEYMGMT_SELECT_PUBLIC_KEY
KIND_FNS(FSP_ENC_PKI_DER, PRIV)
KIND_FNS(FSP_ENC_PKI_PEM, PRIV)
KIND_FNS(FSP_ENC_EPKI_DER, PRIV)
KIND_FNS(FSP_ENC_EPKI_PEM, PRIV)
KIND_FNS(FSP_ENC_SPKI_DER, PUB)
KIND_FNS(FSP_ENC_SPKI_PEM, PUB)
KIND_FNS(FSP_ENC_TEXT, PRIV | PUB)

const OSSL_DISPATCH *const fsp_encoder_dispatch[FSP_ENC_KINDS] = {
    [FSP_ENC_PKI_DER] = enc_fns_FSP_ENC_PKI_DER,
    [FSP_ENC_PKI_PEM] = enc_fns_FSP_ENC_PKI_PEM,
    [FSP_ENC_EPKI_DER] = enc_fns_FSP_ENC_EPKI_DER,
    [FSP_ENC_EPKI_PEM] = enc_fns_FSP_ENC_EPKI_PEM,
    [FSP_ENC_SPKI_DER] = enc_fns_FSP_ENC_SPKI_DER,
    [FSP_ENC_SPKI_PEM] = enc_fns_FSP_ENC_SPKI_PEM,
    [FSP_ENC_TEXT] = enc_fns_FSP_ENC_TEXT,
};
