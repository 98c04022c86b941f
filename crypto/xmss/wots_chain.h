/* wots_chain.h - the WOTS+ building block (RFC 8391 section 3) that XMSS
 * trees and the one-time scheme (wotsp_scheme.h) stand on: one-time keys at
 * an address, with NIST SP 800-208 secret derivation, expressed as
 * batches: every chain of a key (and of several keys) is handed to the
 * multi-lane engine in one call.
 *
 * Contract: `ots` is the OTS hash address of a key (layer, tree, type OTS,
 * OTS address set; words 5..7 are ignored). Chain i's secret start is
 *   sk_i = PRF_keygen(SK_SEED, PUB_SEED || ADRS(chain = i, hash = 0, km = 0)).
 * A public key is the len chain ends (len * n bytes, before any L-tree); a
 * signature is len * n bytes; msg is n bytes (a digest). Signing needs a ctx
 * initialised with SK_SEED. Key generation and signing are in
 * wots_keys.c, the rest (the public side) in wots_chain.c. Returns FASTSIG_OK or a fastsig_err code. */
#ifndef FASTSIG_XMSS_WOTS_CHAIN_H
#define FASTSIG_XMSS_WOTS_CHAIN_H

#include <stddef.h>
#include <stdint.h>
#include "xmss/adrs.h"
#include "xmss/xmss_hash.h"

/* base_w(msg, len1) followed by base_w of the shifted checksum (len2 digits). */
void xmss_wots_digits(const xmss_params *p, const uint8_t *msg, uint32_t *digits);

/* One ADRS per chain: key k's chain i at index k * len + i (chain address
 * set, hash and key-and-mask 0). */
void xmss_wots_chain_adrs(const xmss_params *p, xmss_adrs *a, const xmss_adrs *ots, size_t keys);

/* Public keys of `keys` OTS keys at once: pk is keys * len * n bytes. */
int xmss_wots_pkgen(const xmss_ctx *c, uint8_t *pk, const xmss_adrs *ots, size_t keys);
int xmss_wots_sign(const xmss_ctx *c, uint8_t *sig, const uint8_t *msg, const xmss_adrs *ots);
/* The public key a signature implies; equal to the key's pk iff it verifies. */
int xmss_wots_pk_from_sig(const xmss_ctx *c, uint8_t *pk, const uint8_t *sig, const uint8_t *msg,
                         const xmss_adrs *ots);

#endif
