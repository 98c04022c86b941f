/* gf127.c - portable GF(2^127) multiply, square and inverse. */
#include "gf127.h"

/* Carry-less 64x64 -> 128 product, constant time: one masked XOR per bit. */
static void clmul64(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
    uint64_t l = 0, h = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t mask = 0 - ((b >> i) & 1);
        l ^= (a << i) & mask;
        h ^= (i ? (a >> (64 - i)) : 0) & mask;
    }
    *lo = l;
    *hi = h;
}

/* Reduce a polynomial of degree <= 252 held in four words modulo
 * x^127 + x^63 + 1. x^127 = x^63 + 1, so the part above x^126 (H) folds in
 * as H + H*x^63; H*x^63 may again exceed x^126, so fold twice. */
static gf127 reduce256(uint64_t p0, uint64_t p1, uint64_t p2, uint64_t p3)
{
    for (int round = 0; round < 2; round++) {
        /* H = p >> 127 */
        uint64_t h0 = (p1 >> 63) | (p2 << 1);
        uint64_t h1 = (p2 >> 63) | (p3 << 1);
        uint64_t h2 = p3 >> 63;
        p1 &= GF127_TOP_MASK;
        p2 = 0;
        p3 = 0;
        /* p += H */
        p0 ^= h0;
        p1 ^= h1;
        p2 ^= h2;
        /* p += H << 63 */
        p0 ^= h0 << 63;
        p1 ^= (h0 >> 1) | (h1 << 63);
        p2 ^= (h1 >> 1) | (h2 << 63);
        p3 ^= h2 >> 1;
    }
    gf127 r = { p0, p1 };
    return r;
}

gf127 gf127_mul(gf127 a, gf127 b)
{
    uint64_t ll_lo, ll_hi, hh_lo, hh_hi, m1_lo, m1_hi, m2_lo, m2_hi;
    clmul64(a.lo, b.lo, &ll_lo, &ll_hi);
    clmul64(a.hi, b.hi, &hh_lo, &hh_hi);
    clmul64(a.lo, b.hi, &m1_lo, &m1_hi);
    clmul64(a.hi, b.lo, &m2_lo, &m2_hi);
    uint64_t mid_lo = m1_lo ^ m2_lo, mid_hi = m1_hi ^ m2_hi;
    return reduce256(ll_lo, ll_hi ^ mid_lo, hh_lo ^ mid_hi, hh_hi);
}

gf127 gf127_sqr(gf127 a)
{
    return gf127_mul(a, a);
}

/* Fermat: a^(2^127 - 2) = a^-1. 2^127-2 is 126 ones followed by a zero. */
gf127 gf127_inv(gf127 a)
{
    gf127 r = a; /* a^(2^1 - 1) */
    for (int i = 1; i < 126; i++)
        r = gf127_mul(gf127_sqr(r), a); /* a^(2^(i+1) - 1) */
    return gf127_sqr(r);                /* a^(2^127 - 2) */
}

gf127 gf127_from_be(const uint8_t in[16])
{
    gf127 r = { 0, 0 };
    for (int i = 0; i < 8; i++) {
        r.hi = (r.hi << 8) | in[i];
        r.lo = (r.lo << 8) | in[8 + i];
    }
    return r;
}

void gf127_to_be(gf127 a, uint8_t out[16])
{
    for (int i = 7; i >= 0; i--) {
        out[i] = (uint8_t)a.hi;
        out[8 + i] = (uint8_t)a.lo;
        a.hi >>= 8;
        a.lo >>= 8;
    }
}
