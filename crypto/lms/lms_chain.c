/* lms_chain.c - see lms_chain.h. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/lms_chain.h"

#define HDR 23 /* I || q || i || j */

int lms_chains(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const lms_chain_job *jobs,
               size_t count, const uint8_t *in, size_t in_stride, uint8_t *out, int secret)
{
    fs_hash_params hp = lms_hash_params(op->hash, op->n);
    return fs_hash_lmots_chains(&hp, I, jobs, count, in, in_stride, out, secret);
}

int lms_chains_ref(const lmots_params *op, const uint8_t I[LMS_I_BYTES],
                   const lms_chain_job *jobs, size_t count, const uint8_t *in, size_t in_stride,
                   uint8_t *out)
{
    fs_hash_params hp = lms_hash_params(op->hash, op->n);
    uint8_t b[HDR + LMS_MAX_N];
    for (size_t c = 0; c < count; c++) {
        if (jobs[c].steps > 256)
            return FASTSIG_ERR_BAD_PARAM;
        memcpy(b, I, LMS_I_BYTES);
        fs_store_be32(b + 16, jobs[c].q);
        fs_store_be16(b + 20, jobs[c].i);
        b[22] = jobs[c].j;
        memcpy(b + HDR, in + c * in_stride, op->n);
        for (unsigned s = 0; s < jobs[c].steps; s++, b[22]++) {
            int rc = fs_hash_many(&hp, b + HDR, b, HDR + op->n, 1);
            if (rc != FASTSIG_OK)
                return rc;
        }
        memcpy(out + c * op->n, b + HDR, op->n);
    }
    fs_wipe(b, sizeof(b));
    return FASTSIG_OK;
}

int lms_hash_lanes(fs_hash_family hash, unsigned n, uint8_t *out, const uint8_t *in,
                   size_t inlen, size_t lanes)
{
    fs_hash_params hp = lms_hash_params(hash, n);
    for (size_t off = 0; off < lanes; off += FS_HASH_MAX_LANES) {
        size_t m = lanes - off < FS_HASH_MAX_LANES ? lanes - off : FS_HASH_MAX_LANES;
        int rc = fs_hash_many(&hp, out + off * n, in + off * inlen, inlen, m);
        if (rc != FASTSIG_OK)
            return rc;
    }
    return FASTSIG_OK;
}

int lms_hash_msg(fs_hash_family hash, unsigned n, uint8_t *out, const uint8_t *prefix,
                 size_t plen, const uint8_t *msg, size_t mlen)
{
    fs_hash_params hp = lms_hash_params(hash, n);
    return fs_hash_prefixed_msg(&hp, out, prefix, plen, msg, mlen);
}
