/* lmots_key_chains.c - fs_hash_lmots_key_chains (hash.h): the chains of
 * LM-OTS key generation straight on the fused kernel. Every chain starts
 * from SEED at j = 0xff and takes 2^w steps, so a group of sixteen needs
 * no sorting, no refill and no per-chain load: the lanes are set from
 * SEED once per group, the lane words counted up, and the ends stored
 * where the caller's K messages want them. What is left after the whole
 * groups (fewer than 16 chains) goes through fs_hash_lmots_chains. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "fastsig_err.h"
#include "hash/chains.h"
#include "hash/lanes.h"

enum { L = FS_CHAIN_LANES };

/* The chains left after the whole groups: chain c (of p per leaf) from
 * first on, fewer than L, through the chain walker. */
static int rest(const fs_hash_params *hp, const uint8_t *I, const uint8_t *seed, uint32_t q0,
                unsigned p, unsigned steps, size_t first, size_t count, uint8_t *out,
                size_t out_stride)
{
    fs_hash_lmots_job jobs[L];
    uint8_t ends[L * 32];
    for (size_t k = 0; k < count; k++) {
        size_t c = first + k;
        fs_hash_lmots_job j = { q0 + (uint32_t)(c / p), (uint16_t)(c % p), 0xff,
                                (uint16_t)steps };
        jobs[k] = j;
    }
    int rc = fs_hash_lmots_chains(hp, I, jobs, count, seed, 0, ends, 1);
    for (size_t k = 0; k < count && rc == FASTSIG_OK; k++) {
        size_t c = first + k;
        memcpy(out + c / p * out_stride + c % p * hp->n, ends + k * hp->n, hp->n);
    }
    return rc;
}

int fs_hash_lmots_key_chains(const fs_hash_params *hp, const uint8_t I[FS_HASH_LMOTS_I_BYTES],
                             const uint8_t *seed, uint32_t q0, size_t leaves, unsigned p,
                             unsigned steps, uint8_t *out, size_t out_stride)
{
    if (leaves && (I == NULL || seed == NULL || out == NULL))
        return FASTSIG_ERR_NULL_ARG;
    int rc = fs_hash_params_check(hp);
    if (rc != FASTSIG_OK)
        return rc;
    if (hp->n > 32 || hp->n % 4 || steps > 256 || p == 0 || out_stride < (size_t)p * hp->n)
        return FASTSIG_ERR_BAD_PARAM;
    fs_chain_fn *fn = hp->family == FS_HASH_SHA256 ? fs_lanes_chain_kernel(FS_CHAIN_LMOTS) : NULL;
    if (fn == NULL)
        return FASTSIG_ERR_UNSUPPORTED; /* the caller walks them its usual way */
    const unsigned nw = hp->n / 4;
    const size_t total = leaves * p, whole = total / L * L;
    uint32_t Iw[8] = { 0 }, sw[8];
    for (unsigned k = 0; k < 4; k++)
        Iw[k] = fs_load_be32(I + 4 * k);
    for (unsigned k = 0; k < nw; k++)
        sw[k] = fs_load_be32(seed + 4 * k);
    _Alignas(64) uint32_t x[8 * L], lw[FS_CHAIN_MAX_WORDS * L];
    uint32_t q = q0, i = 0; /* the next chain's leaf and index */
    for (size_t c = 0; c < whole; c += L) {
        uint32_t cq[L], ci[L];
        for (unsigned l = 0; l < L; l++) {
            cq[l] = q;
            ci[l] = i;
            lw[l] = q;
            lw[L + l] = i << 16 | 0xffu << 8;
            if (++i == p) {
                i = 0;
                q++;
            }
        }
        for (unsigned k = 0; k < nw; k++)
            for (unsigned l = 0; l < L; l++)
                x[k * L + l] = sw[k];
        fn(x, lw, Iw, steps, hp->n);
        for (unsigned l = 0; l < L; l++) {
            uint8_t *d = out + (cq[l] - q0) * out_stride + ci[l] * hp->n;
            for (unsigned k = 0; k < nw; k++)
                fs_store_be32(d + 4 * k, x[k * L + l]);
        }
    }
    fs_wipe(x, sizeof(x));
    fs_wipe(sw, sizeof(sw));
    if (whole < total)
        rc = rest(hp, I, seed, q0, p, steps, whole, total - whole, out, out_stride);
    return rc;
}
