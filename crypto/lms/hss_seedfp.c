/* hss_seedfp.c - the fingerprint of an HSS key's top-level (SEED, I): see
 * hss_seed_fp in hss.h. */
#include <string.h>
#include "fastsig_err.h"
#include "lms/hss.h"
#include "lms/lms_chain.h"

int hss_seed_fp(const uint8_t *seed, size_t n, const uint8_t I[LMS_I_BYTES],
                uint8_t fp[HSS_SEED_FP_LEN])
{
    static const char domain[] = "fastsig seed fingerprint v1 lms";
    uint8_t in[sizeof(domain) - 1 + LMS_MAX_N + LMS_I_BYTES];
    size_t d = sizeof(domain) - 1;
    if (seed == NULL || I == NULL || fp == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (n == 0 || n > LMS_MAX_N)
        return FASTSIG_ERR_BAD_LENGTH;
    memcpy(in, domain, d);
    memcpy(in + d, seed, n);
    memcpy(in + d + n, I, LMS_I_BYTES);
    int rc = lms_hash_lanes(FS_HASH_SHA256, HSS_SEED_FP_LEN, fp, in, d + n + LMS_I_BYTES, 1);
    explicit_bzero(in, sizeof(in));
    return rc;
}
