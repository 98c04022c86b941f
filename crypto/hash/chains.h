/* chains.h - internal: the walks of the two rows of the chain walker
 * (chain_walk.h), for the tests that hold one against the other.
 *
 * WOTS+ (chains.c), behind fs_hash_chains (hash.h).
 *
 * Contract: both walk chain c from step start[c] (0 when start is NULL) for
 * steps[c] steps, input in + c*n, output out + c*n (in == out allowed),
 * ADRS adrs + c*32 with words 6 and 7 set per step, as fs_hash_chains;
 * arguments already checked. fs_chains_lanes takes any parameters;
 * fs_chains_fused runs fn (a FS_CHAIN_WOTS kernel of sha256_chain.h) and needs
 * SHA-256 with n = pad = 32. Results are the same bytes whichever walk
 * runs. */
#ifndef FASTSIG_HASH_CHAINS_H
#define FASTSIG_HASH_CHAINS_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"
#include "hash/chain_walk.h"

void fs_chains_lanes(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in, const uint8_t *adrs,
                     const uint32_t *start, const uint32_t *steps, size_t count);
void fs_chains_fused(fs_chain_fn *fn, const fs_hash_seeds *s, uint8_t *out,
                     const uint8_t *in, const uint8_t *adrs, const uint32_t *start,
                     const uint32_t *steps, size_t count);

/* LM-OTS (lmots_chains.c), behind fs_hash_lmots_chains (hash.h), with its
 * arguments already checked: on fn (a FS_CHAIN_LMOTS kernel of
 * sha256_chain.h; SHA-256 only) or, fn NULL, on the block walk. */
int fs_lmots_chains_walk(fs_chain_fn *fn, const fs_hash_params *p,
                         const uint8_t I[FS_HASH_LMOTS_I_BYTES], const fs_hash_lmots_job *jobs,
                         size_t count, const uint8_t *in, size_t in_stride, uint8_t *out,
                         int secret);

#endif
