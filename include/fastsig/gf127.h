/* gf127.h - arithmetic in GF(2^127) = GF(2)[x] / (x^127 + x^63 + 1).
 *
 * Contract: an element is two 64-bit words, lo = coefficients of x^0..x^63,
 * hi = x^64..x^126; bit 63 of hi (x^127) is always 0 in a reduced element.
 * Every function takes and returns reduced elements and runs in time that
 * does not depend on the values (no data-dependent branches or lookups). */
#ifndef FASTSIG_GF127_H
#define FASTSIG_GF127_H

#include <stdint.h>

typedef struct {
    uint64_t lo, hi;
} gf127;

#define GF127_TOP_MASK 0x7fffffffffffffffULL /* hi word without x^127 */

static inline gf127 gf127_add(gf127 a, gf127 b)
{
    gf127 r = { a.lo ^ b.lo, a.hi ^ b.hi };
    return r;
}

/* a * x: shift left, and fold x^127 back as x^63 + 1. */
static inline gf127 gf127_mul_x(gf127 a)
{
    uint64_t carry = a.hi >> 62; /* coefficient of x^126, becomes x^127 */
    gf127 r;
    r.hi = ((a.hi << 1) | (a.lo >> 63)) & GF127_TOP_MASK;
    r.lo = (a.lo << 1) ^ carry ^ (carry << 63);
    return r;
}

static inline int gf127_is_reduced(gf127 a)
{
    return (a.hi >> 63) == 0;
}

gf127 gf127_mul(gf127 a, gf127 b);
gf127 gf127_sqr(gf127 a);
/* Multiplicative inverse; the inverse of 0 is 0 (callers check for 0). */
gf127 gf127_inv(gf127 a);

/* 16 bytes big-endian <-> element. gf127_from_be does not reduce: check
 * gf127_is_reduced on the result. */
gf127 gf127_from_be(const uint8_t in[16]);
void gf127_to_be(gf127 a, uint8_t out[16]);

#endif
