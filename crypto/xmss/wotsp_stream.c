/* wotsp_stream.c - WOTS+ one-time signatures of a message that streams (see
 * wotsp_scheme.h): R = PRF(SK_PRF, toByte(0, 32)) needs no message, so
 * H_msg starts before its first byte and the message is never held. */
#include <string.h>
#include "bytes.h"
#include "ctgrind.h"
#include "fastsig_err.h"
#include "xmss/xmss_hash.h"
#include "xmss/wotsp_scheme.h"

int xmss_wotsp_sign_begin(const uint8_t *sk, size_t sklen, fs_hash_stream *h)
{
    const xmss_params *p = xmss_wotsp_params_of(sk, sklen);
    uint8_t r[XMSS_MAX_N];
    xmss_ctx c;
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (p == NULL || sklen != xmss_sk_bytes(p))
        return FASTSIG_ERR_BAD_KEY;
    size_t n = p->n;
    int rc = xmss_ctx_init(&c, p, sk + 4 + 3 * n, NULL, sk + 4 + n);
    if (rc == FASTSIG_OK)
        rc = xmss_prf_msg(&c, r, 0);
    if (rc == FASTSIG_OK)
        rc = xmss_hash_msg_begin(&c, h, r, sk + 4 + 2 * n, 0);
    xmss_ctx_clear(&c);
    return rc;
}

int xmss_wotsp_sign_end(const uint8_t *sk, size_t sklen, fs_hash_stream *h, int verify,
                        uint8_t *sig, size_t siglen)
{
    uint8_t digest[XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_hash_stream_final(h, digest);
    int rc = xmss_wotsp_sign_digest(sk, sklen, digest, sig, siglen);
    if (rc != FASTSIG_OK || !verify)
        return rc;
    /* verify-after-sign from the digest: the message is gone */
    size_t n = xmss_wotsp_params_of(sk, sklen)->n;
    memcpy(pk, sk, 4);
    memcpy(pk + 4, sk + 4 + 2 * n, 2 * n);
    FS_DECLASSIFY(sig, siglen); /* as in xmss_wotsp_sign_verified */
    if (xmss_wotsp_verify_digest(NULL, pk, 4 + 2 * n, digest, sig, siglen) != FASTSIG_OK) {
        memset(sig, 0, siglen);
        return FASTSIG_ERR_FAULT;
    }
    return FASTSIG_OK;
}

int xmss_wotsp_verify_begin(const uint8_t *pk, size_t pklen, const uint8_t *sig, size_t siglen,
                            fs_hash_stream *h)
{
    const xmss_params *p = xmss_wotsp_params_of(pk, pklen);
    xmss_ctx c;
    if (pk == NULL || sig == NULL || h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (p == NULL)
        return pklen < 4 ? FASTSIG_ERR_BAD_LENGTH : FASTSIG_ERR_BAD_KEY;
    if (pklen != xmss_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (siglen != xmss_sig_bytes(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    int rc = xmss_ctx_init(&c, p, pk + 4 + p->n, NULL, NULL);
    if (rc == FASTSIG_OK)
        rc = xmss_hash_msg_begin(&c, h, sig, pk + 4, 0);
    xmss_ctx_clear(&c);
    return rc;
}

int xmss_wotsp_verify_end(xmss_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                          fs_hash_stream *h, const uint8_t *sig, size_t siglen)
{
    uint8_t digest[XMSS_MAX_N];
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_hash_stream_final(h, digest);
    return xmss_wotsp_verify_digest(cache, pk, pklen, digest, sig, siglen);
}
