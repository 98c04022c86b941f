/* lmots_chains.c - the LM-OTS row of the chain walker (chain_walk.h) and
 * fs_hash_lmots_chains (hash.h) on it: its lane words (q, i << 16 | j << 8),
 * its fused kernel (SHA-256), and its block walk, any family on the lane
 * engine's kernels. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "fastsig_err.h"
#include "hash/chains.h"
#include "hash/lanes.h"

#define HDR 23 /* I || q || i || j */
#define MAX_BLOCK 168
#define TAIL 4 /* chains the fused walk leaves to the block walk */

typedef struct {
    fs_hash_family hash;
    const uint8_t *I;
} lmots_ctx;

/* I || u32str(q) || u16str(i) || u8str(j) || val of a chain's step, from
 * its lane words. */
static void put_step(uint8_t *b, const uint8_t *I, const uint32_t w[2], const uint8_t *val,
                     unsigned n)
{
    memcpy(b, I, FS_HASH_LMOTS_I_BYTES);
    fs_store_be32(b + 16, w[0]);
    fs_store_be32(b + 20, w[1]); /* i, j and a zero byte val overwrites */
    memcpy(b + HDR, val, n);
}

static uint32_t lmots_load(const void *src, size_t c, uint32_t *w, size_t wstride);

/* Chains per pass of the block walk: their blocks stay on the stack (no
 * allocation: it builds freestanding, libfastsig-verify), two full groups
 * of the widest kernel; fewer in the device build (one lane per call). */
#ifdef FASTSIG_SMALL_STACK
#define CHUNK 8
#else
#define CHUNK 32
#endif

/* The block walk of at most CHUNK chains: every chain its own padded
 * block, hashed side by side in place; chains in longest-first order, so
 * that the ones still walking at any round are blocks 0 .. active-1. */
FS_CHAIN_INLINE int blocks_chunk(const fs_chain_walk *w, const fs_chain_list *cl)
{
    fs_chain_load_fn *const load = cl->load;
    const lmots_ctx *x = w->ctx;
    const size_t count = cl->count, B = fs_lanes_block(x->hash), len = HDR + w->n;
    uint8_t tmpl[2 * MAX_BLOCK], blk[CHUNK * MAX_BLOCK];
    const uint8_t *ptrs[CHUNK];
    uint32_t order[CHUNK], steps[CHUNK] = { 0 }; /* steps of the chain at each position */
    if (count == 0 || count > CHUNK)
        return count ? FASTSIG_ERR_BAD_PARAM : FASTSIG_OK;
    if (fs_lanes_pad(x->hash, tmpl, len, 0) != 1)
        return FASTSIG_ERR_BAD_PARAM; /* a step is one block for every set */
    if (!fs_chain_order(order, cl))
        return FASTSIG_ERR_BAD_PARAM; /* steps > 256 */
    for (size_t k = 0; k < count; k++) {
        uint32_t lw[FS_CHAIN_MAX_WORDS];
        uint8_t *b = blk + k * B;
        steps[k] = load(cl->src, order[k], lw, 1);
        put_step(b, x->I, lw, cl->in + order[k] * cl->in_stride, w->n);
        memcpy(b + len, tmpl + len, B - len);
        ptrs[k] = b;
    }
    fs_hash_state iv;
    fs_lanes_iv(x->hash, &iv);
    for (uint32_t r = 0, active = (uint32_t)count; r < steps[0]; r++) {
        while (active > 0 && steps[active - 1] <= r)
            active--;
        fs_lanes_run_ptrs(x->hash, &iv, ptrs, 1, blk + HDR, B, w->n, active, w->secret);
        for (size_t k = 0; k < active; k++)
            blk[k * B + 22]++;
    }
    for (size_t k = 0; k < count; k++)
        memcpy(cl->out + order[k] * w->n, blk + k * B + HDR, w->n);
    if (w->secret)
        fs_wipe(blk, count * B);
    return FASTSIG_OK;
}

/* The block walk of any number of chains, CHUNK at a time. Inline for the
 * entry point's own load (the tail's comes through the row). */
FS_CHAIN_INLINE int blocks(const fs_chain_walk *w, const fs_chain_list *cl)
{
    if (cl->count <= CHUNK)
        return blocks_chunk(w, cl);
    if (cl->load != lmots_load)
        return FASTSIG_ERR_BAD_PARAM; /* only job arrays are split (a tail is short) */
    int rc = FASTSIG_OK;
    for (size_t off = 0; off < cl->count && rc == FASTSIG_OK; off += CHUNK) {
        const fs_chain_list sub = { cl->count - off < CHUNK ? cl->count - off : CHUNK,
                                    cl->in + off * cl->in_stride, cl->in_stride,
                                    cl->out + off * w->n, lmots_load,
                                    (const fs_hash_lmots_job *)cl->src + off };
        rc = blocks_chunk(w, &sub);
    }
    return rc;
}

static int lmots_blocks(const fs_chain_walk *w, const fs_chain_list *cl)
{
    return blocks(w, cl);
}

static const fs_chain_row lmots_row = { FS_CHAIN_LMOTS, 2, TAIL, lmots_blocks };

static uint32_t lmots_load(const void *src, size_t c, uint32_t *w, size_t wstride)
{
    const fs_hash_lmots_job *j = (const fs_hash_lmots_job *)src + c;
    if (w != NULL) {
        w[0] = j->q;
        w[wstride] = (uint32_t)j->i << 16 | (uint32_t)j->j << 8;
    }
    return j->steps;
}

int fs_hash_lmots_chains(const fs_hash_params *p, const uint8_t I[FS_HASH_LMOTS_I_BYTES],
                         const fs_hash_lmots_job *jobs, size_t count, const uint8_t *in,
                         size_t in_stride, uint8_t *out, int secret)
{
    if (count && (I == NULL || jobs == NULL || in == NULL || out == NULL))
        return FASTSIG_ERR_NULL_ARG;
    for (size_t c = 0; c < count; c++)
        if (jobs[c].steps > FS_CHAIN_SORT_STEPS)
            return FASTSIG_ERR_BAD_PARAM;
    int rc = fs_hash_params_check(p);
    if (rc == FASTSIG_OK && p->n > 32)
        rc = FASTSIG_ERR_BAD_PARAM;
    if (rc != FASTSIG_OK)
        return rc;
    fs_chain_fn *fn = p->family == FS_HASH_SHA256 ? fs_lanes_chain_kernel(FS_CHAIN_LMOTS) : NULL;
    return fs_lmots_chains_walk(fn, p, I, jobs, count, in, in_stride, out, secret);
}

int fs_lmots_chains_walk(fs_chain_fn *fn, const fs_hash_params *p,
                         const uint8_t I[FS_HASH_LMOTS_I_BYTES], const fs_hash_lmots_job *jobs,
                         size_t count, const uint8_t *in, size_t in_stride, uint8_t *out,
                         int secret)
{
    uint32_t Iw[8] = { 0 };
    for (unsigned k = 0; k < 4; k++)
        Iw[k] = fs_load_be32(I + 4 * k);
    lmots_ctx ctx = { p->family, I };
    const fs_chain_list cl = { count, in, in_stride, out, lmots_load, jobs };
    fs_chain_walk w = { &lmots_row, &ctx, Iw, p->n, secret };
    /* without a kernel, the block walk inline with this row's load */
    return fn ? fs_chain_walk_run(fn, &w, &cl) : blocks(&w, &cl);
}
