/* lmots.c - see lmots.h: digits, signing, the keys a signature implies
 * (no allocation: it builds freestanding, libfastsig-verify); the leaves
 * of key generation are in lmots_keys.c. */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/lmots.h"
#include "lms/lms_chain.h"

void lmots_digits(const lmots_params *op, const uint8_t *Q, uint8_t *a)
{
    unsigned w = op->w, mask = (1u << w) - 1, u = 8 * op->n / w;
    uint32_t sum = 0;
    for (unsigned i = 0; i < u; i++) {
        unsigned bit = i * w;
        a[i] = (uint8_t)((Q[bit / 8] >> (8 - w - bit % 8)) & mask);
        sum += mask - a[i];
    }
    sum <<= op->ls;
    uint8_t ck[2];
    fs_store_be16(ck, (uint16_t)sum);
    for (unsigned i = u; i < op->p; i++) {
        unsigned bit = (i - u) * w;
        a[i] = (uint8_t)((ck[bit / 8] >> (8 - w - bit % 8)) & mask);
    }
}

/* The prefix of Q: I || u32str(q) || D_MESG || C (22 + n bytes). */
static void mesg_prefix(const lmots_params *op, const uint8_t *I, uint32_t q, const uint8_t *C,
                        uint8_t *pre)
{
    memcpy(pre, I, LMS_I_BYTES);
    fs_store_be32(pre + 16, q);
    fs_store_be16(pre + 20, LMS_D_MESG);
    memcpy(pre + 22, C, op->n);
}

/* Q = H(I || u32str(q) || D_MESG || C || msg). */
static int msg_digest(const lmots_params *op, const uint8_t *I, uint32_t q, const uint8_t *C,
                      const uint8_t *msg, size_t mlen, uint8_t *Q)
{
    uint8_t pre[22 + LMS_MAX_N];
    mesg_prefix(op, I, q, C, pre);
    return lms_hash_msg(op->hash, op->n, Q, pre, 22 + op->n, msg, mlen);
}

/* The one start of a streamed Q, signing (hss_stream.c) and verifying
 * (hss_verify.c, the device verifier): the prefix, then the message. */
int lmots_digest_begin(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                       const uint8_t *C, fs_hash_stream *h)
{
    uint8_t pre[22 + LMS_MAX_N];
    fs_hash_params hp = lms_hash_params(op->hash, op->n);
    if (h == NULL || C == NULL)
        return FASTSIG_ERR_NULL_ARG;
    mesg_prefix(op, I, q, C, pre);
    return fs_hash_stream_prefixed(h, &hp, pre, 22 + (size_t)op->n);
}

int lmots_sign(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
               uint32_t q, const uint8_t *C, const uint8_t *msg, size_t mlen, uint8_t *sig)
{
    uint8_t Q[LMS_MAX_N];
    int rc = msg_digest(op, I, q, C, msg, mlen, Q);
    return rc != FASTSIG_OK ? rc : lmots_sign_digest(op, I, seed, q, C, Q, sig);
}

int lmots_sign_digest(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
                      uint32_t q, const uint8_t *C, const uint8_t *Q, uint8_t *sig)
{
    uint8_t a[LMS_MAX_P];
    lms_chain_job jobs[LMS_MAX_P];
    lmots_digits(op, Q, a);
    for (unsigned i = 0; i < op->p; i++) {
        lms_chain_job jb = { q, (uint16_t)i, 0xff, (uint16_t)(1u + a[i]) };
        jobs[i] = jb;
    }
    fs_store_be32(sig, op->type);
    memcpy(sig + 4, C, op->n);
    return lms_chains(op, I, jobs, op->p, seed, 0, sig + 4 + op->n, 1);
}

int lmots_ends_from_sig(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                        const uint8_t *sig, size_t siglen, const uint8_t *msg, size_t mlen,
                        uint8_t *z)
{
    if (siglen < 4 || fs_load_be32(sig) != op->type || siglen != lmots_sig_bytes(op))
        return FASTSIG_ERR_BAD_SIGNATURE;
    uint8_t Q[LMS_MAX_N];
    int rc = msg_digest(op, I, q, sig + 4, msg, mlen, Q);
    return rc != FASTSIG_OK ? rc : lmots_ends_from_digest(op, I, q, sig, siglen, Q, z);
}

int lmots_ends_from_digest(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                           const uint8_t *sig, size_t siglen, const uint8_t *Q, uint8_t *z)
{
    if (siglen < 4 || fs_load_be32(sig) != op->type || siglen != lmots_sig_bytes(op))
        return FASTSIG_ERR_BAD_SIGNATURE;
    uint8_t a[LMS_MAX_P];
    lms_chain_job jobs[LMS_MAX_P];
    lmots_digits(op, Q, a);
    unsigned top = (1u << op->w) - 1;
    for (unsigned i = 0; i < op->p; i++) {
        lms_chain_job jb = { q, (uint16_t)i, a[i], (uint16_t)(top - a[i]) };
        jobs[i] = jb;
    }
    return lms_chains(op, I, jobs, op->p, sig + 4 + op->n, op->n, z, 0);
}

void lmots_pblc_prefix(const uint8_t I[LMS_I_BYTES], uint32_t q, uint8_t pre[LMOTS_PBLC_PREFIX])
{
    memcpy(pre, I, LMS_I_BYTES);
    fs_store_be32(pre + 16, q);
    fs_store_be16(pre + 20, LMS_D_PBLC);
}

int lmots_pk_from_sig(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                      const uint8_t *sig, size_t siglen, const uint8_t *msg, size_t mlen,
                      uint8_t *K)
{
    uint8_t z[LMS_MAX_P * LMS_MAX_N], pre[LMOTS_PBLC_PREFIX];
    int rc = lmots_ends_from_sig(op, I, q, sig, siglen, msg, mlen, z);
    if (rc != FASTSIG_OK)
        return rc;
    /* K = H(I || q || D_PBLC || z): the chain ends hashed where they are */
    lmots_pblc_prefix(I, q, pre);
    return lms_hash_msg(op->hash, op->n, K, pre, sizeof(pre), z, (size_t)op->p * op->n);
}
