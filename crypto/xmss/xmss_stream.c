/* xmss_stream.c - XMSS / XMSS^MT signatures of a message that streams (see
 * xmss.h): r = PRF(SK_PRF, idx) needs only the index, so H_msg starts before
 * the first byte and the message is never held. */
#include <pthread.h>
#include <string.h>
#include "bytes.h"
#include "ctgrind.h"
#include "fastsig_err.h"
#include "xmss/xmss.h"
#include "xmss/xmss_key.h"

int xmss_sign_begin(xmss_key *k, uint64_t idx, uint8_t *r, fs_hash_stream *h)
{
    if (k == NULL || r == NULL || h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (idx < k->first || idx > k->last)
        return FASTSIG_ERR_KEY_EXHAUSTED;
    pthread_mutex_lock(&k->lock);
    int rc = xmss_prf_msg(&k->ctx, r, idx);
    if (rc == FASTSIG_OK)
        rc = xmss_hash_msg_begin(&k->ctx, h, r, k->root, idx);
    pthread_mutex_unlock(&k->lock);
    return rc;
}

int xmss_sign_end(xmss_key *k, uint64_t idx, const uint8_t *r, fs_hash_stream *h, int verify,
                  uint8_t *sig, size_t siglen)
{
    uint8_t digest[XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    if (k == NULL || h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_hash_stream_final(h, digest);
    int rc = xmss_sign_digest(k, idx, r, digest, sig, siglen);
    if (rc == FASTSIG_OK && verify) {
        /* verify-after-sign from the digest: the message is gone */
        rc = xmss_key_export_pk(k, pk, xmss_pk_bytes(&k->p));
        FS_DECLASSIFY(sig, siglen); /* as in xmss_sign_verified */
        if (rc == FASTSIG_OK
            && xmss_verify_digest(&k->p, pk, xmss_pk_bytes(&k->p), digest, sig, siglen)
                   != FASTSIG_OK)
            rc = FASTSIG_ERR_FAULT;
        if (rc != FASTSIG_OK)
            explicit_bzero(sig, siglen);
    }
    return rc;
}

int xmss_verify_end(const xmss_params *p, const uint8_t *pk, size_t pklen, fs_hash_stream *h,
                    const uint8_t *sig, size_t siglen)
{
    uint8_t digest[XMSS_MAX_N];
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    fs_hash_stream_final(h, digest);
    return xmss_verify_digest(p, pk, pklen, digest, sig, siglen);
}
