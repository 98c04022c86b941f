/* der.c - SubjectPublicKeyInfo and PKCS#8 PrivateKeyInfo for every row:
 * AlgorithmIdentifier = the row's OID with parameters absent (RFC 9802
 * style), the adapter's raw encodings inside. Parsing is exact: right OID,
 * no parameters, no unused bits, no trailing bytes. The SPKI is parsed with
 * a local template: d2i_X509_PUBKEY would call the decoders again. */
#include <string.h>
#include <openssl/asn1t.h>
#include <openssl/x509.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"

typedef struct {
    X509_ALGOR *alg;
    ASN1_BIT_STRING *key;
} FSP_SPKI;

ASN1_SEQUENCE(FSP_SPKI) = {
    ASN1_SIMPLE(FSP_SPKI, alg, X509_ALGOR),
    ASN1_SIMPLE(FSP_SPKI, key, ASN1_BIT_STRING)
} static_ASN1_SEQUENCE_END(FSP_SPKI)

/* 1 if a names alg's OID with absent parameters. */
static int algor_is(const X509_ALGOR *a, const FSP_SIGALG *alg)
{
    const ASN1_OBJECT *obj;
    const void *pval;
    int ptype;
    char txt[128];

    X509_ALGOR_get0(&obj, &ptype, &pval, a);
    return OBJ_obj2txt(txt, sizeof(txt), obj, 1) > 0 && strcmp(txt, alg->oid) == 0;
}

static int algor_params_absent(const X509_ALGOR *a)
{
    const ASN1_OBJECT *obj;
    const void *pval;
    int ptype;

    X509_ALGOR_get0(&obj, &ptype, &pval, a);
    return ptype == V_ASN1_UNDEF;
}

static int encode_raw(const FSP_KEY *k, int priv, unsigned char **out, size_t *len)
{
    void *core = fsp_key_core(k);
    int (*enc)(const void *, unsigned char *, size_t *);
    int err;

    *out = NULL;
    if (core == NULL || (priv && !k->alg->ad->has_private(core)))
        return FASTSIG_ERR_BAD_KEY;
    enc = priv ? k->alg->ad->priv_encode : k->alg->ad->pub_encode;
    if ((err = enc(core, NULL, len)) != FASTSIG_OK)
        return err;
    if ((*out = OPENSSL_secure_malloc(*len ? *len : 1)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = enc(core, *out, len)) != FASTSIG_OK) {
        OPENSSL_secure_clear_free(*out, *len ? *len : 1);
        *out = NULL;
    }
    return err;
}

int fsp_der_spki(const FSP_KEY *k, unsigned char **der, size_t *len)
{
    FSP_SPKI *s = (FSP_SPKI *)ASN1_item_new(ASN1_ITEM_rptr(FSP_SPKI));
    ASN1_OBJECT *oid = OBJ_txt2obj(k->alg->oid, 1);
    unsigned char *pub = NULL;
    size_t publen = 0;
    int n, err = FASTSIG_ERR_NOMEM;

    *der = NULL;
    if (s == NULL || oid == NULL || !X509_ALGOR_set0(s->alg, oid, V_ASN1_UNDEF, NULL))
        goto done;
    oid = NULL;
    if ((err = encode_raw(k, 0, &pub, &publen)) != FASTSIG_OK)
        goto done;
    err = FASTSIG_ERR_NOMEM;
    if (publen > INT_MAX || !ASN1_BIT_STRING_set(s->key, pub, (int)publen))
        goto done;
    s->key->flags &= ~(ASN1_STRING_FLAG_BITS_LEFT | 0x07);
    s->key->flags |= ASN1_STRING_FLAG_BITS_LEFT; /* exactly 0 unused bits */
    if ((n = ASN1_item_i2d((ASN1_VALUE *)s, der, ASN1_ITEM_rptr(FSP_SPKI))) <= 0)
        goto done;
    *len = (size_t)n;
    err = FASTSIG_OK;
done:
    if (pub != NULL)
        OPENSSL_secure_clear_free(pub, publen ? publen : 1);
    ASN1_OBJECT_free(oid);
    ASN1_item_free((ASN1_VALUE *)s, ASN1_ITEM_rptr(FSP_SPKI));
    return err;
}

int fsp_der_p8(const FSP_KEY *k, PKCS8_PRIV_KEY_INFO **p8)
{
    ASN1_OBJECT *oid = OBJ_txt2obj(k->alg->oid, 1);
    unsigned char *priv = NULL, *owned;
    size_t privlen = 0;
    int err;

    *p8 = NULL;
    if (oid == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = encode_raw(k, 1, &priv, &privlen)) != FASTSIG_OK)
        goto fail;
    /* PKCS8_pkey_set0 takes a plain OPENSSL_malloc buffer (and cleanses it on free). */
    err = FASTSIG_ERR_NOMEM;
    if (privlen > INT_MAX || (owned = OPENSSL_memdup(priv, privlen ? privlen : 1)) == NULL)
        goto fail;
    if ((*p8 = PKCS8_PRIV_KEY_INFO_new()) == NULL
        || !PKCS8_pkey_set0(*p8, oid, 0, V_ASN1_UNDEF, NULL, owned, (int)privlen)) {
        OPENSSL_clear_free(owned, privlen);
        goto fail;
    }
    OPENSSL_secure_clear_free(priv, privlen ? privlen : 1);
    return FASTSIG_OK;
fail:
    if (priv != NULL)
        OPENSSL_secure_clear_free(priv, privlen ? privlen : 1);
    PKCS8_PRIV_KEY_INFO_free(*p8);
    *p8 = NULL;
    ASN1_OBJECT_free(oid);
    return err;
}

int fsp_der_parse_spki(const FSP_SIGALG *alg, const unsigned char *der, size_t len,
                      void **core)
{
    const unsigned char *p = der;
    FSP_SPKI *s;
    int err;

    *core = NULL;
    if (len > LONG_MAX)
        return FSP_NOT_MINE;
    s = (FSP_SPKI *)ASN1_item_d2i(NULL, &p, (long)len, ASN1_ITEM_rptr(FSP_SPKI));
    if (s == NULL)
        return FSP_NOT_MINE;
    if (!algor_is(s->alg, alg))
        err = FSP_NOT_MINE;
    else if ((size_t)(p - der) != len || !algor_params_absent(s->alg)
             || (s->key->flags & 0x07) != 0)
        err = FASTSIG_ERR_BAD_KEY;
    else
        err = alg->ad->pub_decode(alg, s->key->data, (size_t)s->key->length, core);
    ASN1_item_free((ASN1_VALUE *)s, ASN1_ITEM_rptr(FSP_SPKI));
    return err;
}

int fsp_der_parse_p8(const FSP_SIGALG *alg, const unsigned char *der, size_t len,
                    void **core, FSP_ERRDETAIL *detail)
{
    const unsigned char *p = der, *pk;
    PKCS8_PRIV_KEY_INFO *p8;
    const ASN1_OBJECT *obj;
    const X509_ALGOR *palg;
    int pklen, err;

    *core = NULL;
    if (len > LONG_MAX)
        return FSP_NOT_MINE;
    if ((p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len)) == NULL)
        return FSP_NOT_MINE;
    if (!PKCS8_pkey_get0(&obj, &pk, &pklen, &palg, p8) || !algor_is(palg, alg))
        err = FSP_NOT_MINE;
    else if ((size_t)(p - der) != len || !algor_params_absent(palg) || pklen < 0)
        err = FASTSIG_ERR_BAD_KEY;
    else
        err = alg->ad->priv_decode(alg, pk, (size_t)pklen, core, detail);
    PKCS8_PRIV_KEY_INFO_free(p8);
    return err;
}

/* DER AlgorithmIdentifier: the row's OID, parameters absent (RFC 9802). */
int fsp_der_algorithm_id(OSSL_PARAM *p, const FSP_SIGALG *alg)
{
    X509_ALGOR *a = X509_ALGOR_new();
    ASN1_OBJECT *oid = OBJ_txt2obj(alg->oid, 1);
    unsigned char *der = NULL;
    int len = -1, ok = 0;

    if (a != NULL && oid != NULL && X509_ALGOR_set0(a, oid, V_ASN1_UNDEF, NULL)) {
        oid = NULL;
        len = i2d_X509_ALGOR(a, &der);
    }
    if (len > 0)
        ok = OSSL_PARAM_set_octet_string(p, der, (size_t)len);
    OPENSSL_free(der);
    ASN1_OBJECT_free(oid);
    X509_ALGOR_free(a);
    return ok;
}
