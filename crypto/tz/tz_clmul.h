/* tz_clmul.h - the carry-less-multiply TZ kernels (asm/x86_64) and their
 * portable C twins (tz_twin.c), which compute bit for bit the same values.
 *
 * The 4-byte round (tails of 4..7 bytes; round4 in tz_twin.c), per input
 * bytes b0..b3 of one stream:
 *   1. look up left[b0], right[b1], left[b2], right[b3] (tz_tables.h);
 *   2. M01 = M(b0)M(b1) and M23 = M(b2)M(b3), one clmul per entry, repacked
 *      with shift 33 as row-packed M01 and column-packed M23;
 *   3. M = M01*M23 (degree <= 32), one clmul per entry, entry at bits 33..65;
 *   4. state = state * M: 16 clmuls (128 x 33 bits), each entry folded back
 *      to 128 bits with x^128 = x^64 + x (mod x^127 + x^63 + 1).
 * Everything else runs in 8-byte rounds (5 multiplies per byte instead of
 * 7; round8 in tz_twin.c), per bytes b0..b7:
 *   1. byte pairs by one clmul per column (tz_tab_pair, tz_tables.h), each
 *      product repacked row-wise (bytes 0,1 and 4,5) or column-wise (2,3, 6,7);
 *   2. M(b0..b3) and M(b4..b7) as in step 3 above, entries of degree <= 32;
 *   3. their product, one clmul per term: entries of degree <= 64, the low
 *      64 bits kept; x^64 is always in e00, in e01 when bit 64 says so;
 *   4. state = state * M: 16 clmuls, and c * x^64 added as a plain XOR.
 * State elements between rounds are "lazy": 128-bit representatives that
 * may have bit 127 set; tz_reduce_lazy() makes them canonical.
 *
 * Lane layout of the 4-stream kernels: st[4*e + lane], e = 0..3 for c00,
 * c01, c10, c11, so that one 512-bit register holds one entry of 4 lanes. */
#ifndef FASTSIG_TZ_CLMUL_H
#define FASTSIG_TZ_CLMUL_H

#include <stddef.h>
#include <stdint.h>
#include "sl2.h"

/* Canonical form of a lazy element: x^127 = x^63 + 1. */
static inline gf127 tz_reduce_lazy(gf127 a)
{
    uint64_t b = a.hi >> 63;
    gf127 r = { a.lo ^ b ^ (b << 63), a.hi & GF127_TOP_MASK };
    return r;
}

/* state = state * M(data): any len, lazy or canonical state in, canonical
 * out. One stream: 8-byte rounds, then one 4-byte round, then single bytes. */
void tz_twin_mul_bytes(sl2 *state, const uint8_t *data, size_t len);
/* Four streams in 8-byte rounds: lane l hashes data[l*stride ..
 * l*stride + 8*rounds) into st (lazy in, lazy out). */
void tz_twin_segments(gf127 st[16], const uint8_t *data, size_t rounds, size_t stride);

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
/* SSE4.1 + PCLMULQDQ (asm/x86_64/tz_pclmul.S). */
void tz_pclmul_mul_bytes(sl2 *state, const uint8_t *data, size_t len);
/* r = a * b with canonical or lazy inputs, canonical output; the twin is
 * sl2_mul. r may alias a or b. */
void tz_pclmul_sl2_mul(sl2 *r, const sl2 *a, const sl2 *b);
/* AVX-512F/BW + VPCLMULQDQ (asm/x86_64/tz_vpclmul.S); needs rounds >= 1. */
void tz_vpclmul_segments(gf127 st[16], const uint8_t *data, size_t rounds, size_t stride);
/* One stream of 32-byte blocks, the 4 rounds of 8 bytes of a block in the
 * 4 lanes for the products, applied in order to one state (canonical out);
 * the twin is tz_twin_mul_bytes on 32*blocks bytes. */
void tz_vpclmul_mul_blocks(sl2 *state, const uint8_t *data, size_t blocks);
#endif

#endif
