/* lms_chain.h - LM-OTS hash chains and the other LMS hashes, on the
 * multi-lane engine of crypto/hash (hash.h).
 *
 * A chain step of RFC 8554 (section 4.4) hashes
 *   I (16) || u32str(q) || u16str(i) || u8str(j) || tmp (n)
 * = 23 + n bytes: 55 (n = 32) or 47 (n = 24), one padded block of SHA-256
 * or SHAKE256. The secret x_q[i] of SP 800-208 Appendix A / RFC 8554
 * Appendix A has the same shape with j = 0xff and tmp = SEED, so a chain
 * that starts at j = 0xff with tmp = SEED first derives its secret, then
 * wraps to j = 0 and walks on: keygen is one walk of 2^w steps per chain,
 * signing one of 1 + a_i steps.
 *
 * lms_chains is fs_hash_lmots_chains (the LM-OTS row of the engine's chain
 * walker: the fused 16-lane kernel for SHA-256, the lane engine's block
 * walk otherwise and for the last few chains). lms_chains_ref walks one
 * chain at a time, one hash per call (the reference the tests hold
 * lms_chains to). Both return FASTSIG_OK or FASTSIG_ERR_NOMEM /
 * FASTSIG_ERR_BAD_PARAM. */
#ifndef FASTSIG_LMS_CHAIN_H
#define FASTSIG_LMS_CHAIN_H

#include <stddef.h>
#include <stdint.h>
#include "lms/lms_params.h"

/* One chain: its leaf q, chain index i, first j and step count (j wraps
 * modulo 256; steps <= 256). */
typedef fs_hash_lmots_job lms_chain_job;

/* Chain c starts from in + c*in_stride (n bytes; in_stride 0: the same
 * start for every chain) and ends in out + c*n. secret: wipe the blocks. */
int lms_chains(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const lms_chain_job *jobs,
               size_t count, const uint8_t *in, size_t in_stride, uint8_t *out, int secret);
int lms_chains_ref(const lmots_params *op, const uint8_t I[LMS_I_BYTES],
                   const lms_chain_job *jobs, size_t count, const uint8_t *in, size_t in_stride,
                   uint8_t *out);

/* out_l = Hash(in + l*inlen), inlen bytes each, any number of lanes. */
int lms_hash_lanes(fs_hash_family hash, unsigned n, uint8_t *out, const uint8_t *in,
                   size_t inlen, size_t lanes);
/* out = Hash(prefix || msg): one message of any length, not copied
 * (plen < 64). */
int lms_hash_msg(fs_hash_family hash, unsigned n, uint8_t *out, const uint8_t *prefix,
                 size_t plen, const uint8_t *msg, size_t mlen);

#endif
