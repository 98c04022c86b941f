/* signature_stream.c - the signature implementation's streaming half
 * (signature.c calls it): a row whose adapter has the stream hooks
 * (sigalgs.h; the stateful rows) signs a message as it streams, in
 * constant memory, from the first update on: the index is spent there,
 * before the first byte is hashed, and a context abandoned afterwards
 * burns it. Verification streams when the signature came first (OpenSSL
 * 3.5: the "signature" parameter set before the data); else signature.c
 * holds the message as before. */
#include <stddef.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"

int fsp_stream_begin(const FSP_PROVCTX *pc, const FSP_SIGALG *alg, FSP_KEY *key, FSP_SIGOPTS *o,
                     int signing, const unsigned char *sig, size_t siglen, void **st)
{
    const FSP_ADAPTER *ad = alg->ad;
    void *core = fsp_key_core(key);
    FSP_ERRDETAIL detail;
    int err;

    *st = NULL;
    if (core == NULL || (signing ? ad->stream_sign_init == NULL
                                 : ad->stream_verify_init == NULL || sig == NULL))
        return 1; /* held whole: the final reports what is wrong */
    detail.reason = 0;
    if (signing) {
        o->detail = &detail; /* this call's only, as in signature.c's sign_data */
        err = ad->stream_sign_init(core, o, st);
        o->detail = NULL;
    } else {
        err = ad->stream_verify_init(core, sig, siglen, st);
    }
    if (err == FASTSIG_OK)
        return 1;
    FSP_ERR_DETAIL(pc, err, &detail);
    return 0;
}

int fsp_stream_sign_final(const FSP_PROVCTX *pc, const FSP_SIGALG *alg, FSP_KEY *key,
                          FSP_SIGOPTS *o, void *st, unsigned char *sig, size_t *siglen,
                          size_t sigsize)
{
    void *core = fsp_key_core(key);
    FSP_KEYSIZES sz;
    FSP_ERRDETAIL detail;
    int err;

    if (sig == NULL) { /* size query: nothing signed */
        alg->ad->sizes(core, &sz);
        *siglen = sz.max_sig;
        return 1;
    }
    *siglen = sigsize;
    detail.reason = 0;
    o->detail = &detail;
    err = alg->ad->stream_sign_final(core, o, st, sig, siglen);
    o->detail = NULL;
    if (err == FASTSIG_OK)
        return 1;
    *siglen = 0;
    FSP_ERR_DETAIL(pc, err, &detail);
    return 0;
}

int fsp_stream_verify_final(const FSP_PROVCTX *pc, const FSP_SIGALG *alg, FSP_KEY *key, void *st,
                            const unsigned char *sig, size_t siglen)
{
    int err = alg->ad->stream_verify_final(fsp_key_core(key), st, sig, siglen);
    if (err == FASTSIG_OK)
        return 1;
    if (err == FASTSIG_ERR_BAD_SIGNATURE && sig != NULL)
        FSP_ERR_MSG(pc, err, "not the signature set before the data (the digest started "
                    "from that one)");
    else
        FSP_ERR(pc, err);
    return 0;
}

void fsp_stream_free(const FSP_SIGALG *alg, void **st)
{
    if (*st != NULL)
        alg->ad->stream_free(*st);
    *st = NULL;
}
