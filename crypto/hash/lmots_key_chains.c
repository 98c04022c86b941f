/* lmots_key_chains.c - fs_hash_lmots_key_chains (hash.h): the chains of
 * LM-OTS key generation straight on the fused kernel. Every chain starts
 * from SEED at j = 0xff and takes 2^w steps, so a group of sixteen needs
 * no sorting, no refill and no per-chain load: the lanes are set from
 * SEED once per group, the lane words counted up, and the ends stored
 * where the caller's K messages want them: groups of 32 on the engine's
 * 32-lane row when it has one (fs_lanes_chain_kernel_x32: cheaper per
 * lane), then of 16. What is left after the whole groups (fewer than 16
 * chains) goes through fs_hash_lmots_chains. */
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

/* Whole groups of `lanes` chains (16, or 32 on a row of two groups) from
 * chain first on, as many as fit in count, on fn; returns the chains done.
 * Inline at each call, its lanes a constant: a shared copy's loops over a
 * variable group count made H10/W4 keygen 8% slower. */
static inline __attribute__((always_inline)) size_t
groups(fs_chain_fn *fn, unsigned lanes, const fs_hash_params *hp, const uint32_t Iw[8],
       const uint32_t sw[8], uint32_t q0, unsigned p, unsigned steps, size_t first, size_t count,
       uint8_t *out, size_t out_stride)
{
    const unsigned nw = hp->n / 4;
    const size_t whole = count / lanes * lanes;
    _Alignas(64) uint32_t x[8 * FS_CHAIN_MAX_LANES], lw[FS_CHAIN_MAX_WORDS * FS_CHAIN_MAX_LANES];
    uint32_t q = (uint32_t)(first / p), i = (uint32_t)(first % p); /* the next chain's */
    for (size_t c = first; c < first + whole; c += lanes) {
        uint32_t cq[FS_CHAIN_MAX_LANES], ci[FS_CHAIN_MAX_LANES];
        for (unsigned g = 0; g < lanes / L; g++) { /* group g: lanes 16g .. 16g+15 */
            uint32_t *gx = x + g * 8 * L, *gw = lw + g * FS_CHAIN_MAX_WORDS * L;
            for (unsigned l = 0; l < L; l++) {
                cq[g * L + l] = q;
                ci[g * L + l] = i;
                gw[l] = q0 + q;
                gw[L + l] = i << 16 | 0xffu << 8;
                if (++i == p) {
                    i = 0;
                    q++;
                }
            }
            for (unsigned k = 0; k < nw; k++)
                for (unsigned l = 0; l < L; l++)
                    gx[k * L + l] = sw[k];
        }
        fn(x, lw, Iw, steps, hp->n);
        for (unsigned g = 0; g < lanes / L; g++) {
            const uint32_t *gx = x + g * 8 * L;
            for (unsigned l = 0; l < L; l++) {
                uint8_t *d = out + cq[g * L + l] * out_stride + ci[g * L + l] * hp->n;
                for (unsigned k = 0; k < nw; k++)
                    fs_store_be32(d + 4 * k, gx[k * L + l]);
            }
        }
    }
    fs_wipe(x, sizeof(x));
    return whole;
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
    int sha = hp->family == FS_HASH_SHA256;
    fs_chain_fn *fn = sha ? fs_lanes_chain_kernel(FS_CHAIN_LMOTS) : NULL;
    fs_chain_fn *fn32 = sha ? fs_lanes_chain_kernel_x32(FS_CHAIN_LMOTS) : NULL;
    if (fn == NULL)
        return FASTSIG_ERR_UNSUPPORTED; /* the caller walks them its usual way */
    const size_t total = leaves * p;
    uint32_t Iw[8] = { 0 }, sw[8];
    for (unsigned k = 0; k < 4; k++)
        Iw[k] = fs_load_be32(I + 4 * k);
    for (unsigned k = 0; k < hp->n / 4; k++)
        sw[k] = fs_load_be32(seed + 4 * k);
    size_t done = 0; /* 32 chains a call where that costs less, then 16 */
    if (fn32 != NULL)
        done = groups(fn32, FS_CHAIN_MAX_LANES, hp, Iw, sw, q0, p, steps, 0, total, out,
                      out_stride);
    done += groups(fn, L, hp, Iw, sw, q0, p, steps, done, total - done, out, out_stride);
    fs_wipe(sw, sizeof(sw));
    if (done < total)
        rc = rest(hp, I, seed, q0, p, steps, done, total - done, out, out_stride);
    return rc;
}
