/* lmots.h - LM-OTS (RFC 8554 section 4) with the SP 800-208 Appendix A
 * pseudorandom secrets:
 *   x_q[i] = H(I || u32str(q) || u16str(i) || u8str(0xff) || SEED)
 *   K_q    = H(I || u32str(q) || u16str(D_PBLC) || y[0] || ... || y[p-1])
 *   sig    = u32str(type) || C || y[0] || ... || y[p-1]
 *   Q      = H(I || u32str(q) || u16str(D_MESG) || C || message),
 *   a_i    = coef(Q || Cksm(Q), i, w); y[i] = chain i walked a_i steps.
 * SEED is n bytes. Contract: keygen hands every chain of `count` leaves to
 * the engine at once (in batches bounded in memory); signing walks the p
 * chains of one leaf side by side. Functions return FASTSIG_OK or a
 * fastsig_err code (key generation's leaves in lmots_keys.c, the rest in
 * lmots.c); pk_from_sig returns FASTSIG_ERR_BAD_SIGNATURE for a
 * signature of the wrong type or length. */
#ifndef FASTSIG_LMS_LMOTS_H
#define FASTSIG_LMS_LMOTS_H

#include <stddef.h>
#include <stdint.h>
#include "lms/lms_params.h"
#include "hash/hash_stream.h"

#define LMS_D_PBLC 0x8080
#define LMS_D_MESG 0x8181
#define LMS_D_LEAF 0x8282
#define LMS_D_INTR 0x8383

/* a_0 .. a_{p-1} of Q (n bytes). */
void lmots_digits(const lmots_params *op, const uint8_t *Q, uint8_t *a);

/* K of leaves first .. first+count-1 into K (count * n bytes). */
int lmots_leaf_keys(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
                    uint32_t first, size_t count, uint8_t *K);
/* The signature of msg at leaf q with randomizer C (n bytes) into sig
 * (lmots_sig_bytes). */
int lmots_sign(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
               uint32_t q, const uint8_t *C, const uint8_t *msg, size_t mlen, uint8_t *sig);
/* Algorithm 4b: the candidate K (n bytes) a signature implies. op is the
 * set the caller expects; the signature's own typecode must match. */
int lmots_pk_from_sig(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                      const uint8_t *sig, size_t siglen, const uint8_t *msg, size_t mlen,
                      uint8_t *K);
/* Algorithm 4b split for callers that hash several K side by side: the
 * chain ends z (p * n bytes) a signature implies (the checks of
 * lmots_pk_from_sig), and the 22 bytes I || u32str(q) || u16str(D_PBLC)
 * that K hashes before them. */
#define LMOTS_PBLC_PREFIX 22
int lmots_ends_from_sig(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                        const uint8_t *sig, size_t siglen, const uint8_t *msg, size_t mlen,
                        uint8_t *z);
/* A message that streams: h starts Q with its prefix I || u32str(q) ||
 * u16str(D_MESG) || C (the one start of a streamed Q: signing, hss_stream.c,
 * and verifying, hss_verify.c and libfastsig-verify); the message is its
 * updates, Q its final. The signature and the chain ends from a Q computed
 * so (the bytes of lmots_sign and lmots_ends_from_sig over the whole
 * message). */
int lmots_digest_begin(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                       const uint8_t *C, fs_hash_stream *h);
int lmots_sign_digest(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
                      uint32_t q, const uint8_t *C, const uint8_t *Q, uint8_t *sig);
int lmots_ends_from_digest(const lmots_params *op, const uint8_t I[LMS_I_BYTES], uint32_t q,
                           const uint8_t *sig, size_t siglen, const uint8_t *Q, uint8_t *z);
void lmots_pblc_prefix(const uint8_t I[LMS_I_BYTES], uint32_t q, uint8_t pre[LMOTS_PBLC_PREFIX]);

#endif
