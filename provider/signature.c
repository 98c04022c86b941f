/* signature.c - the one signature implementation of every fastsig algorithm;
 * messages are signed whole (no pre-hash). Stateful rows hash a streamed one
 * as it comes, the index spent at the first update (signature_stream.c); other
 * rows, and a verification given its signature last, buffer it. */
#include <stddef.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"

#define PARAMS_CAP 16

typedef struct {
    FSP_PROVCTX *provctx;
    const FSP_SIGALG *alg;   /* the slot this context was made for */
    FSP_KEY *key;            /* shares the core key of the EVP_PKEY */
    FSP_SIGOPTS opts;
    unsigned char *msg;     /* streaming: the message so far */
    size_t msglen, msgcap;
    int digest_param; /* a "digest" ctx param was accepted: one-shot data is prehashed */
    int message;      /* initialised for message signing: one-shot data is the message */
    unsigned char *sig; /* verify_message_final's signature ("signature" ctx param) */
    size_t siglen;
    int signing;        /* initialised to sign (1) or to verify (0) */
    void *stream;       /* a message that streams (signature_stream.c), or NULL */
} FSP_SIGCTX;

static const OSSL_PARAM generic_gettable[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_END
};
#ifdef OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT
#define FSP_HAVE_MESSAGE_API 1 /* OpenSSL 3.5 headers */
#endif
static const OSSL_PARAM generic_settable[] = {
#ifdef FSP_HAVE_MESSAGE_API
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE, NULL, 0),
#endif
    OSSL_PARAM_END
};
static OSSL_PARAM ctx_gettable[FSP_MAX_SIGALGS][PARAMS_CAP];
static OSSL_PARAM ctx_settable[FSP_MAX_SIGALGS][PARAMS_CAP];

int fsp_signature_init(void)
{
    return fsp_params_merge_rows(ctx_gettable[0], PARAMS_CAP, generic_gettable,
                                offsetof(FSP_ADAPTER, ctx_gettable))
           && fsp_params_merge_rows(ctx_settable[0], PARAMS_CAP, generic_settable,
                                   offsetof(FSP_ADAPTER, ctx_settable));
}

static void *sig_newctx(void *provctx, const FSP_SIGALG *alg)
{
    FSP_SIGCTX *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL)
        return NULL;
    c->provctx = provctx;
    c->alg = alg;
    if (alg->ad->sigopts_default != NULL)
        alg->ad->sigopts_default(alg, &c->opts);
    return c;
}

static void sig_freectx(void *vctx)
{
    FSP_SIGCTX *c = vctx;
    if (c == NULL)
        return;
    fsp_stream_free(c->alg, &c->stream); /* an unsigned index stays spent */
    fsp_key_free(c->key);
    OPENSSL_clear_free(c->msg, c->msgcap);
    OPENSSL_free(c->sig);
    OPENSSL_free(c);
}

static void *sig_dupctx(void *vctx)
{
    FSP_SIGCTX *src = vctx, *c = OPENSSL_memdup(src, sizeof(*src));
    if (c == NULL)
        return NULL;
    c->key = NULL;
    c->msg = NULL;
    c->sig = NULL; /* c->stream: NULL as src's, or src's copy below */
    if ((src->stream != NULL && (c->stream = src->alg->ad->stream_dup(src->stream)) == NULL)
        || (src->key != NULL && (c->key = fsp_key_share(src->key)) == NULL)
        || (src->msgcap != 0 && (c->msg = OPENSSL_memdup(src->msg, src->msgcap)) == NULL)
        || (src->sig != NULL && (c->sig = OPENSSL_memdup(src->sig, src->siglen)) == NULL)) {
        sig_freectx(c);
        return NULL;
    }
    return c;
}

static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    FSP_SIGCTX *c = vctx;
    const OSSL_PARAM *p;
    int err;
    if (params == NULL)
        return 1;
#ifdef FSP_HAVE_MESSAGE_API
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_SIGNATURE)) != NULL) {
        OPENSSL_free(c->sig);
        c->sig = NULL;
        c->siglen = 0;
        if (!OSSL_PARAM_get_octet_string(p, (void **)&c->sig, 0, &c->siglen)) {
            FSP_ERR(c->provctx, FASTSIG_ERR_BAD_PARAM);
            return 0;
        }
    }
#endif
    if (c->alg->ad->ctx_set == NULL)
        return 1;
    if ((err = c->alg->ad->ctx_set(&c->opts, params)) != FASTSIG_OK) {
        const char *md = NULL;
        if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL
            && OSSL_PARAM_get_utf8_string_ptr(p, &md) && c->alg->ad->ctx_digest == NULL)
            FSP_ERR_MSG(c->provctx, err, "%s signs the message itself, never a digest (got %s)%s",
                       c->alg->name, md, fsp_cms_hint());
        else if (p != NULL && md != NULL)
            FSP_ERR_MSG(c->provctx, err, "%s: digest %s refused (this algorithm signs the "
                       "message whole, or takes other digests)", c->alg->name, md);
        else
            FSP_ERR(c->provctx, err);
        return 0;
    }
    if (c->alg->ad->ctx_digest != NULL
        && OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST) != NULL)
        c->digest_param = 1;
    return 1;
}

/* Common to all inits: take the key (keys of another row work when they
 * share the adapter, e.g. an RW key under RW-P1363), reset the message. */
static int sig_init(FSP_SIGCTX *c, void *provkey, const OSSL_PARAM params[], int signing)
{
    FSP_KEY *k = provkey;
    if (k != NULL) {
        if (k->alg->ad != c->alg->ad || fsp_key_core(k) == NULL) {
            FSP_ERR_MSG(c->provctx, FASTSIG_ERR_BAD_KEY, "%s key expected", c->alg->name);
            return 0;
        }
        fsp_key_free(c->key);
        if ((c->key = fsp_key_share(k)) == NULL)
            return 0;
    }
    if (c->key == NULL) {
        FSP_ERR(c->provctx, FASTSIG_ERR_BAD_KEY);
        return 0;
    }
    if (signing && !fsp_key_has_private(c->key)) {
        FSP_ERR_MSG(c->provctx, FASTSIG_ERR_BAD_KEY, "signing needs a private key");
        return 0;
    }
    c->msglen = 0;
    c->digest_param = 0;
    c->message = 0;
    c->signing = signing;
    fsp_stream_free(c->alg, &c->stream); /* an unsigned index stays spent */
    OPENSSL_free(c->sig);
    c->sig = NULL;
    c->siglen = 0;
    return sig_set_ctx_params(c, params);
}

static int sig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
    return sig_init(vctx, provkey, params, 1);
}

static int sig_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
    return sig_init(vctx, provkey, params, 0);
}

/* 1 for FASTSIG_OK, else the error raised (with d's detail when it is
 * about err) and 0 (OpenSSL's convention). */
static int reported_with(const FSP_SIGCTX *c, int err, const FSP_ERRDETAIL *d)
{
    if (err == FASTSIG_OK)
        return 1;
    FSP_ERR_DETAIL(c->provctx, err, d);
    return 0;
}

static int reported(const FSP_SIGCTX *c, int err)
{
    return reported_with(c, err, NULL);
}

static int sign_data(FSP_SIGCTX *c, int prehashed, unsigned char *sig, size_t *siglen,
                     size_t sigsize, const unsigned char *tbs, size_t tbslen)
{
    void *core = fsp_key_core(c->key);
    FSP_KEYSIZES sz;
    FSP_ERRDETAIL detail;
    int err;
    if (core == NULL)
        return reported(c, FASTSIG_ERR_BAD_KEY);
    if (sig == NULL) { /* size query: an upper bound, nothing spent */
        c->alg->ad->sizes(core, &sz);
        *siglen = sz.max_sig;
        return 1;
    }
    *siglen = sigsize;
    detail.reason = 0;
    c->opts.detail = &detail; /* this call's only: a dupctx copy must not share it */
    err = c->alg->ad->sign(core, &c->opts, prehashed, sig, siglen, tbs, tbslen);
    c->opts.detail = NULL;
    if (err != FASTSIG_OK)
        *siglen = 0;
    return reported_with(c, err, &detail);
}

static int verify_data(FSP_SIGCTX *c, int prehashed, const unsigned char *sig, size_t siglen,
                       const unsigned char *tbs, size_t tbslen)
{
    void *core = fsp_key_core(c->key);
    if (core == NULL)
        return reported(c, FASTSIG_ERR_BAD_KEY);
    return reported(c, c->alg->ad->verify(core, &c->opts, prehashed, sig, siglen, tbs, tbslen));
}

/* One-shot EVP_PKEY_sign/verify: the data is a digest when one was chosen,
 * unless the context was made for message signing. */
static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen)
{
    FSP_SIGCTX *c = vctx;
    return sign_data(c, c->digest_param && !c->message, sig, siglen, sigsize, tbs, tbslen);
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen)
{
    FSP_SIGCTX *c = vctx;
    return verify_data(c, c->digest_param && !c->message, sig, siglen, tbs, tbslen);
}

/* ---- streaming (EVP_DigestSign, EVP_DigestVerify): buffer the message ---- */

static int dsig_init(FSP_SIGCTX *c, const char *mdname, void *provkey,
                     const OSSL_PARAM params[], int signing)
{
    int err;
    if (!sig_init(c, provkey, params, signing))
        return 0;
    if (mdname != NULL && mdname[0] != '\0') {
        if (c->alg->ad->ctx_digest == NULL) {
            FSP_ERR_MSG(c->provctx, FASTSIG_ERR_UNSUPPORTED,
                       "%s signs the message itself: no digest (got %s)%s", c->alg->name, mdname,
                       fsp_cms_hint());
            return 0;
        }
        if ((err = c->alg->ad->ctx_digest(&c->opts, mdname)) != FASTSIG_OK) {
            FSP_ERR_MSG(c->provctx, err, "digest %s", mdname);
            return 0;
        }
    }
    return 1;
}

static int dsig_sign_init(void *vctx, const char *mdname, void *provkey,
                          const OSSL_PARAM params[])
{
    return dsig_init(vctx, mdname, provkey, params, 1);
}

static int dsig_verify_init(void *vctx, const char *mdname, void *provkey,
                            const OSSL_PARAM params[])
{
    return dsig_init(vctx, mdname, provkey, params, 0);
}

static int dsig_update(void *vctx, const unsigned char *data, size_t datalen)
{
    FSP_SIGCTX *c = vctx;
    if (datalen == 0)
        return 1;
    if (c->msglen == 0 && c->stream == NULL /* the first bytes: signing spends its index */
        && !fsp_stream_begin(c->provctx, c->alg, c->key, &c->opts, c->signing, c->sig,
                             c->siglen, &c->stream))
        return 0;
    if (c->stream != NULL)
        return c->alg->ad->stream_update(c->stream, data, datalen) == FASTSIG_OK;
    if (datalen > SIZE_MAX - c->msglen) {
        FSP_ERR(c->provctx, FASTSIG_ERR_BAD_LENGTH);
        return 0;
    }
    if (c->msglen + datalen > c->msgcap) {
        size_t cap = c->msgcap ? c->msgcap : 256;
        unsigned char *m;
        while (cap < c->msglen + datalen)
            cap = cap > SIZE_MAX / 2 ? c->msglen + datalen : cap * 2;
        if ((m = OPENSSL_clear_realloc(c->msg, c->msgcap, cap)) == NULL) {
            FSP_ERR(c->provctx, FASTSIG_ERR_NOMEM);
            return 0;
        }
        c->msg = m;
        c->msgcap = cap;
    }
    memcpy(c->msg + c->msglen, data, datalen);
    c->msglen += datalen;
    return 1;
}

static int dsig_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize)
{
    FSP_SIGCTX *c = vctx;
    if (c->stream != NULL)
        return fsp_stream_sign_final(c->provctx, c->alg, c->key, &c->opts, c->stream, sig, siglen,
                                     sigsize);
    return sign_data(c, 0, sig, siglen, sigsize, c->msg, c->msglen);
}

static int dsig_verify_final(void *vctx, const unsigned char *sig, size_t siglen)
{
    FSP_SIGCTX *c = vctx;
    if (c->stream != NULL)
        return fsp_stream_verify_final(c->provctx, c->alg, c->key, c->stream, sig, siglen);
    return verify_data(c, 0, sig, siglen, c->msg, c->msglen);
}

static int dsig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                     const unsigned char *tbs, size_t tbslen)
{
    return sign_data(vctx, 0, sig, siglen, sigsize, tbs, tbslen);
}

static int dsig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                       const unsigned char *tbs, size_t tbslen)
{
    return verify_data(vctx, 0, sig, siglen, tbs, tbslen);
}

#ifdef FSP_HAVE_MESSAGE_API
/* ---- message signing (OpenSSL 3.5): the message whole, in one piece or streamed ---- */

static int msig_init(FSP_SIGCTX *c, void *provkey, const OSSL_PARAM params[], int signing)
{
    if (!sig_init(c, provkey, params, signing))
        return 0;
    c->message = 1;
    return 1;
}

static int msig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
    return msig_init(vctx, provkey, params, 1);
}

static int msig_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
    return msig_init(vctx, provkey, params, 0);
}

/* The signature came through the "signature" parameter (EVP_PKEY_CTX_set_signature). */
static int msig_verify_final(void *vctx)
{
    FSP_SIGCTX *c = vctx;
    if (c->sig == NULL) {
        FSP_ERR_MSG(c->provctx, FASTSIG_ERR_BAD_PARAM, "no signature to verify was set");
        return 0;
    }
    if (c->stream != NULL) /* it was set before the data: it started the digest */
        return fsp_stream_verify_final(c->provctx, c->alg, c->key, c->stream, NULL, 0);
    return verify_data(c, 0, c->sig, c->siglen, c->msg, c->msglen);
}

#define MESSAGE_FNS                                                              \
    { OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT, (void (*)(void))msig_sign_init },   \
    { OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE, (void (*)(void))dsig_update },    \
    { OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL, (void (*)(void))dsig_sign_final }, \
    { OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT, (void (*)(void))msig_verify_init }, \
    { OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE, (void (*)(void))dsig_update },  \
    { OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL, (void (*)(void))msig_verify_final },
#else
#define MESSAGE_FNS
#endif

/* ---- context parameters ---- */

static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    FSP_SIGCTX *c = vctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) != NULL) {
        if (c->alg->flags & FSP_SIGALG_OID_OF_ANOTHER) {
            /* its signatures are not the OID's (the LMS row's lack HSS's u32str(0)) */
            FSP_ERR_MSG(c->provctx, FASTSIG_ERR_UNSUPPORTED,
                        "%s keys sign no certificate or CMS message (HSS keys do)", c->alg->name);
            return 0;
        }
        if (!fsp_der_algorithm_id(p, c->alg))
            return 0;
    }
    return c->alg->ad->ctx_get == NULL || c->alg->ad->ctx_get(&c->opts, params) == FASTSIG_OK;
}

/* ---- per-slot entry points and dispatch tables ---- */

#define SLOT_FNS(i)                                                              \
    static void *sig_newctx_##i(void *provctx, const char *propq)                \
    {                                                                            \
        return sig_newctx(provctx, &fsp_sigalgs[i]);                              \
    }                                                                            \
    static const OSSL_PARAM *sig_gettable_##i(void *vctx, void *provctx)         \
    {                                                                            \
        return ctx_gettable[i];                                                  \
    }                                                                            \
    static const OSSL_PARAM *sig_settable_##i(void *vctx, void *provctx)         \
    {                                                                            \
        return ctx_settable[i];                                                  \
    }                                                                            \
    static const OSSL_DISPATCH sig_fns_##i[] = {                                 \
        { OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx_##i },          \
        { OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))sig_gettable_##i }, \
        { OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))sig_settable_##i }, \
        COMMON_FNS                                                               \
        { 0, NULL }                                                              \
    };

#define COMMON_FNS                                                               \
    { OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx },                \
    { OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx },                  \
    { OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init },            \
    { OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign },                      \
    { OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init },        \
    { OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify },                  \
    { OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))dsig_sign_init },    \
    { OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))dsig_update },     \
    { OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))dsig_sign_final },  \
    { OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))dsig_sign },              \
    { OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))dsig_verify_init }, \
    { OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))dsig_update },   \
    { OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))dsig_verify_final }, \
    { OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))dsig_verify },          \
    { OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sig_get_ctx_params },  \
    { OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sig_set_ctx_params }, \
    MESSAGE_FNS

FSP_FOR_EACH_SLOT(SLOT_FNS)

#define SLOT_REF(i) sig_fns_##i,
const OSSL_DISPATCH *const fsp_signature_dispatch[FSP_MAX_SIGALGS] = {
    FSP_FOR_EACH_SLOT(SLOT_REF)
};
