/* lms_chain.c - see lms_chain.h. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "hash/lanes.h" /* fs_lanes_run_ptrs: hashes padded blocks in place */
#include "lms/lms_chain.h"

#define HDR 23 /* I || q || i || j */
#define MAX_BLOCK 168

/* I || q || i || j || val of one chain step. */
static void put_step(uint8_t *b, const uint8_t *I, const lms_chain_job *c, const uint8_t *val,
                     unsigned n)
{
    memcpy(b, I, LMS_I_BYTES);
    lms_put32(b + 16, c->q);
    lms_put16(b + 20, c->i);
    b[22] = c->j;
    memcpy(b + HDR, val, n);
}

int lms_chains(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const lms_chain_job *jobs,
               size_t count, const uint8_t *in, size_t in_stride, uint8_t *out, int secret)
{
    if (count == 0)
        return FASTSIG_OK;
    const size_t B = fs_lanes_block(op->hash), len = HDR + op->n;
    uint8_t tmpl[2 * MAX_BLOCK];
    if (fs_lanes_pad(op->hash, tmpl, len, 0) != 1)
        return FASTSIG_ERR_BAD_PARAM; /* a step is one block for every set */
    uint8_t *blk = malloc(count * B);
    const uint8_t **ptrs = malloc(count * sizeof(*ptrs));
    size_t *order = malloc(count * sizeof(*order));
    if (blk == NULL || ptrs == NULL || order == NULL) {
        free(blk);
        free(ptrs);
        free(order);
        return FASTSIG_ERR_NOMEM;
    }
    /* longest chains first (counting sort): the chains still walking at
     * any round are then blocks 0 .. active-1 */
    size_t pos[258] = { 0 };
    for (size_t c = 0; c < count; c++) {
        if (jobs[c].steps > 256) {
            free(blk);
            free(ptrs);
            free(order);
            return FASTSIG_ERR_BAD_PARAM;
        }
        pos[256 - jobs[c].steps + 1]++;
    }
    for (size_t s = 1; s < 258; s++)
        pos[s] += pos[s - 1];
    for (size_t c = 0; c < count; c++)
        order[pos[256 - jobs[c].steps]++] = c;
    for (size_t k = 0; k < count; k++) {
        size_t c = order[k];
        uint8_t *b = blk + k * B;
        put_step(b, I, &jobs[c], in + c * in_stride, op->n);
        memcpy(b + len, tmpl + len, B - len);
        ptrs[k] = b;
    }
    fs_hash_state iv;
    fs_lanes_iv(op->hash, &iv);
    size_t active = count;
    for (unsigned r = 0; r < jobs[order[0]].steps; r++) {
        while (active > 0 && jobs[order[active - 1]].steps <= r)
            active--;
        fs_lanes_run_ptrs(op->hash, &iv, ptrs, 1, blk + HDR, B, op->n, active, secret);
        for (size_t k = 0; k < active; k++)
            blk[k * B + 22]++;
    }
    for (size_t k = 0; k < count; k++)
        memcpy(out + order[k] * op->n, blk + k * B + HDR, op->n);
    if (secret)
        explicit_bzero(blk, count * B);
    free(blk);
    free(ptrs);
    free(order);
    return FASTSIG_OK;
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
        put_step(b, I, &jobs[c], in + c * in_stride, op->n);
        for (unsigned s = 0; s < jobs[c].steps; s++, b[22]++) {
            int rc = fs_hash_many(&hp, b + HDR, b, HDR + op->n, 1);
            if (rc != FASTSIG_OK)
                return rc;
        }
        memcpy(out + c * op->n, b + HDR, op->n);
    }
    explicit_bzero(b, sizeof(b));
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
    const size_t B = fs_lanes_block(hash);
    if (B == 0 || plen >= B)
        return FASTSIG_ERR_BAD_PARAM;
    if (msg == NULL && mlen)
        return FASTSIG_ERR_NULL_ARG;
    uint8_t buf[MAX_BLOCK];
    size_t take = mlen < B - plen ? mlen : B - plen;
    memcpy(buf, prefix, plen);
    if (take)
        memcpy(buf + plen, msg, take);
    msg += take;
    mlen -= take;
    if (mlen == 0) {
        fs_lanes_run(hash, NULL, 0, buf, 0, plen + take, out, 0, n, 1);
        return FASTSIG_OK;
    }
    /* first block from the buffer, whole blocks of msg in place, the rest padded */
    fs_hash_state st;
    fs_lanes_iv(hash, &st);
    fs_lanes_absorb(hash, &st, buf, 1);
    size_t whole = mlen / B;
    if (whole)
        fs_lanes_absorb(hash, &st, msg, whole);
    fs_lanes_run(hash, &st, (uint64_t)(whole + 1) * B, msg + whole * B, 0, mlen - whole * B, out,
                 0, n, 1);
    return FASTSIG_OK;
}
