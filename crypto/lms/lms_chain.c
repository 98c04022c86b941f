/* lms_chain.c - see lms_chain.h. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "hash/lanes.h" /* fs_lanes_run_ptrs: hashes padded blocks in place */
#include "lms/lms_chain.h"

#define HDR 23 /* I || q || i || j */
#define MAX_BLOCK 168
#define FEW 4 /* chains the block walk runs without allocating: the fused walk's tail */

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

/* order[] = chain indices, longest first (a counting sort over the steps
 * present only: verification's chains are short, at most 2^w - 1). */
static void sort_longest_first(size_t *order, const lms_chain_job *jobs, size_t count)
{
    size_t pos[258];
    unsigned top = 0;
    for (size_t c = 0; c < count; c++)
        top = jobs[c].steps > top ? jobs[c].steps : top;
    memset(pos, 0, (top + 2) * sizeof(*pos));
    for (size_t c = 0; c < count; c++)
        pos[top - jobs[c].steps + 1]++;
    for (unsigned s = 1; s <= top + 1; s++)
        pos[s] += pos[s - 1];
    for (size_t c = 0; c < count; c++)
        order[pos[top - jobs[c].steps]++] = c;
}

/* The padded-block walk: any family, any count. */
static int chains_blocks(const lmots_params *op, const uint8_t I[LMS_I_BYTES],
                         const lms_chain_job *jobs, size_t count, const uint8_t *in,
                         size_t in_stride, uint8_t *out, int secret)
{
    if (count == 0)
        return FASTSIG_OK;
    const size_t B = fs_lanes_block(op->hash), len = HDR + op->n;
    uint8_t tmpl[2 * MAX_BLOCK];
    if (fs_lanes_pad(op->hash, tmpl, len, 0) != 1)
        return FASTSIG_ERR_BAD_PARAM; /* a step is one block for every set */
    /* the few chains the fused walk leaves need no allocation */
    uint8_t blk_few[FEW * MAX_BLOCK];
    const uint8_t *ptrs_few[FEW];
    size_t order_few[FEW];
    int few = count <= FEW;
    uint8_t *blk = few ? blk_few : malloc(count * B);
    const uint8_t **ptrs = few ? ptrs_few : malloc(count * sizeof(*ptrs));
    size_t *order = few ? order_few : malloc(count * sizeof(*order));
    if (blk == NULL || ptrs == NULL || order == NULL) {
        if (!few) {
            free(blk);
            free(ptrs);
            free(order);
        }
        return FASTSIG_ERR_NOMEM;
    }
    /* the chains still walking at any round are then blocks 0 .. active-1 */
    sort_longest_first(order, jobs, count);
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
    if (!few) {
        free(blk);
        free(ptrs);
        free(order);
    }
    return FASTSIG_OK;
}

/* ---- the fused walk (SHA-256 with a fused kernel) ---------------------------
 * Sixteen lanes; chains enter longest first, each call runs as many steps
 * as the shortest active chain has left, then finished chains leave and
 * waiting ones take their lanes. When no chain waits and only a few
 * remain, they finish on the block walk, whose narrower kernels waste less
 * than sixteen lanes mostly idle. */
enum { FL = FS_LMS_CHAIN_LANES };
_Static_assert(FL < 32, "lane masks are 32 bits");
#define TAIL FEW

static int chains_fused(fs_lms_chain_fn *fn, const lmots_params *op,
                        const uint8_t I[LMS_I_BYTES], const lms_chain_job *jobs, size_t count,
                        const uint8_t *in, size_t in_stride, uint8_t *out, int secret)
{
    const unsigned n = op->n, nw = n / 4;
    _Alignas(64) uint32_t x[8 * FL] = { 0 }, qij[2 * FL] = { 0 };
    uint32_t Iw[4], left[FL] = { 0 };
    size_t chain[FL], next = 0, few[LMS_MAX_P];
    size_t *order = count <= LMS_MAX_P ? few : malloc(count * sizeof(*order));
    if (order == NULL)
        return FASTSIG_ERR_NOMEM;
    sort_longest_first(order, jobs, count);
    for (unsigned w = 0; w < 4; w++)
        Iw[w] = lms_get32(I + 4 * w);
    /* lane masks: the lanes walking, the lanes to refill (all at first,
     * then the ones whose chain just ended); the per-lane bookkeeping is
     * branch-free so that its cost stays small beside a call's steps */
    uint32_t busy = 0, refill = (1u << FL) - 1;
    for (;;) {
        for (uint32_t m = refill; m != 0; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            while (next < count) {
                size_t c = order[next++];
                const uint8_t *src = in + c * in_stride;
                if (jobs[c].steps == 0) {
                    memmove(out + c * n, src, n);
                    continue;
                }
                chain[l] = c;
                left[l] = jobs[c].steps;
                for (unsigned w = 0; w < nw; w++)
                    x[w * FL + l] = lms_get32(src + 4 * w);
                qij[l] = jobs[c].q;
                qij[FL + l] = (uint32_t)jobs[c].i << 16 | (uint32_t)jobs[c].j << 8;
                busy |= 1u << l;
                break;
            }
        }
        if (busy == 0 || (next == count && (unsigned)__builtin_popcount(busy) <= TAIL))
            break;
        uint32_t k = UINT32_MAX; /* the shortest walk left; an idle lane's 0 wraps to the top */
        for (unsigned l = 0; l < FL; l++)
            k = left[l] - 1u < k ? left[l] - 1u : k;
        k++;
        fn(x, qij, Iw, k, n); /* idle lanes hash stale values, unused */
        refill = 0;
        for (unsigned l = 0; l < FL; l++) {
            refill |= (uint32_t)(left[l] == k) << l;
            left[l] -= left[l] != 0 ? k : 0;
        }
        busy &= ~refill;
        for (uint32_t m = refill; m != 0; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            for (unsigned w = 0; w < nw; w++)
                lms_put32(out + chain[l] * n + 4 * w, x[w * FL + l]);
        }
    }
    /* the few chains left: through the block walk, from where they are */
    lms_chain_job tjobs[TAIL];
    uint8_t tin[TAIL * LMS_MAX_N], tout[TAIL * LMS_MAX_N];
    size_t t = 0, tchain[TAIL];
    for (unsigned l = 0; l < FL; l++) {
        if (left[l] == 0)
            continue;
        for (unsigned w = 0; w < nw; w++)
            lms_put32(tin + t * n + 4 * w, x[w * FL + l]);
        tjobs[t] = (lms_chain_job){ qij[l], (uint16_t)(qij[FL + l] >> 16),
                                    (uint8_t)(qij[FL + l] >> 8), (uint16_t)left[l] };
        tchain[t++] = chain[l];
    }
    int rc = chains_blocks(op, I, tjobs, t, tin, n, tout, secret);
    for (size_t j = 0; rc == FASTSIG_OK && j < t; j++)
        memcpy(out + tchain[j] * n, tout + j * n, n);
    if (secret) { /* chain values are secret when signing and at keygen */
        explicit_bzero(x, sizeof(x));
        explicit_bzero(tin, sizeof(tin));
        explicit_bzero(tout, sizeof(tout));
    }
    if (order != few)
        free(order);
    return rc;
}

int lms_chains(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const lms_chain_job *jobs,
               size_t count, const uint8_t *in, size_t in_stride, uint8_t *out, int secret)
{
    for (size_t c = 0; c < count; c++)
        if (jobs[c].steps > 256)
            return FASTSIG_ERR_BAD_PARAM;
    fs_lms_chain_fn *fn = op->hash == FS_HASH_SHA256 ? fs_lanes_lms_chain_kernel() : NULL;
    if (fn != NULL && count > 0)
        return chains_fused(fn, op, I, jobs, count, in, in_stride, out, secret);
    return chains_blocks(op, I, jobs, count, in, in_stride, out, secret);
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
