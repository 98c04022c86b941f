/* chains.h - internal: the two walks behind fs_hash_chains (hash.h), for
 * the tests that hold one against the other.
 *
 * Contract: both walk chain c from step start[c] (0 when start is NULL) for
 * steps[c] steps, input in + c*n, output out + c*n (in == out allowed),
 * ADRS adrs + c*32 with words 6 and 7 set per step, as fs_hash_chains;
 * arguments already checked. fs_chains_lanes takes any parameters;
 * fs_chains_fused runs fn (a fused kernel of sha256_chain.h) and needs
 * SHA-256 with n = pad = 32. Results are the same bytes whichever walk
 * runs. */
#ifndef FASTSIG_HASH_CHAINS_H
#define FASTSIG_HASH_CHAINS_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"
#include "hash/sha256_chain.h"

void fs_chains_lanes(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in, const uint8_t *adrs,
                     const uint32_t *start, const uint32_t *steps, size_t count);
void fs_chains_fused(fs_sha256_chain_fn *fn, const fs_hash_seeds *s, uint8_t *out,
                     const uint8_t *in, const uint8_t *adrs, const uint32_t *start,
                     const uint32_t *steps, size_t count);

#endif
