/* chains_fused.h - internal: the WOTS+ chain walk in fused 16-lane groups
 * (sha256_chain.h) for the parameters that have a fused kernel, and the
 * general lane walk of hash.c that takes what the groups leave.
 *
 * Contract: both walk chain c from step start[c] (0 when start is NULL) for
 * steps[c] steps, input in + c*n, output out + c*n (in == out allowed),
 * ADRS adrs + c*32 with words 6 and 7 set per step, as fs_hash_chains;
 * arguments already checked. fs_chains_fused_kernel returns the kernel for
 * s (SHA-256, n = pad = 32, and the 16-lane AVX-512 kernel selected), or
 * NULL. Results are the same bytes whichever walk runs. */
#ifndef FASTSIG_HASH_CHAINS_FUSED_H
#define FASTSIG_HASH_CHAINS_FUSED_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"
#include "hash/sha256_chain.h"

fs_sha256_chain_fn *fs_chains_fused_kernel(const fs_hash_seeds *s);
void fs_chains_fused(fs_sha256_chain_fn *fn, const fs_hash_seeds *s, uint8_t *out,
                     const uint8_t *in, const uint8_t *adrs, const uint32_t *start,
                     const uint32_t *steps, size_t count);
void fs_hash_chains_lanes(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                          const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                          size_t count);

#endif
