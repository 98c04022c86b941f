/* decode.c - DER PrivateKeyInfo / SubjectPublicKeyInfo -> key, one decoder
 * per row and structure. PEM -> DER and EncryptedPrivateKeyInfo ->
 * PrivateKeyInfo are the default provider's decoders; ours finish the chain
 * and hand the key to our keymgmt by reference (keymgmt load). Input that is
 * not ours (another structure or OID) returns "empty-handed" so the next
 * decoder tries; our OID with a bad body is an error. */
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/params.h>
#include <openssl/bio.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"

#define FSP_DEC_MAX_INPUT (1u << 20) /* no key structure of ours comes near */

typedef struct {
    FSP_PROVCTX *provctx;
    const FSP_SIGALG *alg;
    int kind;
} FSP_DECCTX;

const char *const fsp_decoder_props[FSP_DEC_KINDS] = {
    [FSP_DEC_PKI] = "provider=fastsig,input=der,structure=PrivateKeyInfo",
    [FSP_DEC_SPKI] = "provider=fastsig,input=der,structure=SubjectPublicKeyInfo",
};

static void *dec_newctx(void *provctx, const FSP_SIGALG *alg, int kind)
{
    FSP_DECCTX *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL)
        return NULL;
    c->provctx = provctx;
    c->alg = alg;
    c->kind = kind;
    return c;
}

static void dec_freectx(void *vctx)
{
    OPENSSL_free(vctx);
}

/* Reads all of in (at most FSP_DEC_MAX_INPUT bytes); NULL when empty or too long. */
static unsigned char *read_all(BIO *in, size_t *len)
{
    size_t cap = 4096;
    unsigned char *buf = OPENSSL_malloc(cap), *nb;
    int n;

    *len = 0;
    while (buf != NULL && (n = BIO_read(in, buf + *len, (int)(cap - *len))) > 0) {
        *len += (size_t)n;
        if (*len == cap) {
            if (cap >= FSP_DEC_MAX_INPUT || (nb = OPENSSL_realloc(buf, cap * 2)) == NULL) {
                OPENSSL_clear_free(buf, cap);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf != NULL && *len == 0) {
        OPENSSL_free(buf);
        buf = NULL;
    }
    return buf;
}

static int dec_decode(void *vctx, OSSL_CORE_BIO *cin, int selection,
                      OSSL_CALLBACK *data_cb, void *data_cbarg,
                      OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
    FSP_DECCTX *c = vctx;
    BIO *in = BIO_new_from_core_bio(c->provctx->libctx, cin);
    unsigned char *der = NULL;
    size_t len = 0;
    void *core = NULL;
    FSP_KEY *k = NULL;
    OSSL_PARAM params[4];
    FSP_ERRDETAIL detail; /* a refused key's state path and why */
    int objtype = OSSL_OBJECT_PKEY, err, ok;

    if (in == NULL)
        return 0;
    der = read_all(in, &len);
    BIO_free(in);
    if (der == NULL)
        return 1; /* nothing of ours: empty-handed */
    detail.reason = 0;
    err = c->kind == FSP_DEC_PKI ? fsp_der_parse_p8(c->alg, der, len, &core, &detail)
                                : fsp_der_parse_spki(c->alg, der, len, &core);
    OPENSSL_clear_free(der, len);
    if (err == FSP_NOT_MINE)
        return 1;
    if (err != FASTSIG_OK) {
        FSP_ERR_DETAIL_MSG(c->provctx, err, &detail, "decoding a %s key", c->alg->name);
        return 0;
    }
    if ((k = fsp_key_new(c->provctx, c->alg)) == NULL) {
        c->alg->ad->free(core);
        return 0;
    }
    if (!fsp_key_set_core(k, core)) {
        fsp_key_free(k);
        return 0;
    }
    params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &objtype);
    params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE,
                                                 (char *)c->alg->name, 0);
    params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof(k));
    params[3] = OSSL_PARAM_construct_end();
    ok = data_cb(params, data_cbarg);
    fsp_key_free(k); /* NULL when our keymgmt's load took it */
    return ok;
}

/* Levels as in OpenSSL's der2key: private implies public. */
static int dec_selection_ok(int selection, int mask)
{
    if (selection == 0)
        return 1;
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
        return (mask & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
        return (mask & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
    return 0;
}

static int dec_does_pki(void *provctx, int selection)
{
    return dec_selection_ok(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

static int dec_does_spki(void *provctx, int selection)
{
    return dec_selection_ok(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

#define SLOT_FNS(i)                                                               \
    static void *dec_newctx_pki_##i(void *provctx)                                \
    {                                                                             \
        return dec_newctx(provctx, &fsp_sigalgs[i], FSP_DEC_PKI);                   \
    }                                                                             \
    static void *dec_newctx_spki_##i(void *provctx)                               \
    {                                                                             \
        return dec_newctx(provctx, &fsp_sigalgs[i], FSP_DEC_SPKI);                  \
    }                                                                             \
    static const OSSL_DISPATCH dec_pki_##i[] = {                                  \
        { OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec_newctx_pki_##i },         \
        { OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))dec_does_pki },       \
        COMMON_FNS                                                                \
    };                                                                            \
    static const OSSL_DISPATCH dec_spki_##i[] = {                                 \
        { OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec_newctx_spki_##i },        \
        { OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))dec_does_spki },      \
        COMMON_FNS                                                                \
    };

#define COMMON_FNS                                                                \
    { OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx },                   \
    { OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_decode },                     \
    { 0, NULL }

FSP_FOR_EACH_SLOT(SLOT_FNS)

#define PKI_REF(i) dec_pki_##i,
#define SPKI_REF(i) dec_spki_##i,
const OSSL_DISPATCH *const fsp_decoder_dispatch[FSP_DEC_KINDS][FSP_MAX_SIGALGS] = {
    [FSP_DEC_PKI] = { FSP_FOR_EACH_SLOT(PKI_REF) },
    [FSP_DEC_SPKI] = { FSP_FOR_EACH_SLOT(SPKI_REF) },
};
