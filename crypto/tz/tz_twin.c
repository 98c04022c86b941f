/* tz_twin.c - portable C twins of the clmul TZ kernels (see tz_clmul.h).
 *
 * They follow the asm step by step, including the lazy 128-bit state, so
 * the tests can compare raw lane states. They are for testing, not speed:
 * the software carry-less multiply loops over the bits of one operand
 * (public data: message-derived, so data-dependent loops are fine). */
#include "tz_clmul.h"
#include "tz_tables.h"

typedef struct {
    uint64_t lo, hi;
} u128;

/* a * b over GF(2)[x], 64 x 64 -> 128 bits. */
static u128 clmul(uint64_t a, uint64_t b)
{
    u128 r = { 0, 0 };
    for (int i = 0; b != 0; i++, b >>= 1) {
        if (b & 1) {
            r.lo ^= a << i;
            r.hi ^= i ? a >> (64 - i) : 0;
        }
    }
    return r;
}

/* c * m for a lazy element c and m < 2^34, folded to 128 bits:
 * X + Y x^64 with x^128 = x^64 + x gives X ^ [Y.hi<<1, Y.lo ^ Y.hi]. */
static gf127 mul_small(gf127 c, uint64_t m)
{
    u128 x = clmul(c.lo, m), y = clmul(c.hi, m);
    gf127 r = { x.lo ^ (y.hi << 1), x.hi ^ y.lo ^ y.hi };
    return r;
}

/* state = state * [[m00, m01], [m10, m11]], small entries. */
static void apply(gf127 c[4], const uint64_t m[4])
{
    gf127 n0 = gf127_add(mul_small(c[0], m[0]), mul_small(c[1], m[2]));
    gf127 n1 = gf127_add(mul_small(c[0], m[1]), mul_small(c[1], m[3]));
    gf127 n2 = gf127_add(mul_small(c[2], m[0]), mul_small(c[3], m[2]));
    gf127 n3 = gf127_add(mul_small(c[2], m[1]), mul_small(c[3], m[3]));
    c[0] = n0;
    c[1] = n1;
    c[2] = n2;
    c[3] = n3;
}

/* One round: c = c * M(b0 b1 b2 b3). */
static void round4(gf127 c[4], const uint8_t b[4])
{
    const uint64_t *l0 = tz_tab_left[b[0]], *r1 = tz_tab_right[b[1]];
    const uint64_t *l2 = tz_tab_left[b[2]], *r3 = tz_tab_right[b[3]];
    uint64_t left[2], right[2], m[4];
    /* M(b0)M(b1), row-packed: entry ij at bits 33..49 of the low word */
    for (int i = 0; i < 2; i++)
        left[i] = (clmul(l0[i], r1[0]).lo & ~TZ_PACK_MASK) | (clmul(l0[i], r1[1]).lo >> 33);
    /* M(b2)M(b3), column-packed */
    for (int j = 0; j < 2; j++)
        right[j] = (clmul(l2[1], r3[j]).lo & ~TZ_PACK_MASK) | (clmul(l2[0], r3[j]).lo >> 33);
    /* M = M01 * M23, entry at bits 33..65 */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            u128 t = clmul(left[i], right[j]);
            m[2 * i + j] = ((t.lo >> 33) | (t.hi << 31)) & TZ_PACK_MASK;
        }
    apply(c, m);
}

static void byte1(gf127 c[4], uint8_t v)
{
    const uint64_t *r = tz_tab_right[v];
    uint64_t m[4] = { r[0] & TZ_PACK_MASK, r[1] & TZ_PACK_MASK, r[0] >> 33, r[1] >> 33 };
    apply(c, m);
}

/* ---- 8-byte rounds (the 4-stream kernel) ---- */

/* One column per clmul: P_j = A(a) * B_j(b) holds e_0j at bits 17..33 and
 * e_1j at 85..101; shifting qword 0 by 30 and qword 1 by 26 (vpsllvq) puts
 * both at bits 47..63 with only junk below. */
static u128 pair_col(uint8_t a, uint8_t b, int j)
{
    u128 t = clmul(tz_tab_pair.a[a], tz_tab_pair.b[b][j]);
    u128 r = { t.lo << 30, t.hi << 26 };
    return r;
}

/* Entries e_x at 47..63 (junk below) -> e_hi << 33 | e_lo. */
static uint64_t pack33(uint64_t hi47, uint64_t lo47)
{
    return ((hi47 >> 14) & ~TZ_PACK_MASK) | (lo47 >> 47);
}

/* M(a)M(b) row-packed [e00<<33 | e01, e10<<33 | e11] (left of level 2). */
static void pair_left(uint8_t a, uint8_t b, uint64_t out[2])
{
    u128 p = pair_col(a, b, 0), q = pair_col(a, b, 1);
    out[0] = pack33(p.lo, q.lo);
    out[1] = pack33(p.hi, q.hi);
}

/* M(a)M(b) column-packed [e00 | e10<<33, e01 | e11<<33] (right of level 2). */
static void pair_right(uint8_t a, uint8_t b, uint64_t out[2])
{
    u128 p = pair_col(a, b, 0), q = pair_col(a, b, 1);
    out[0] = pack33(p.hi, p.lo);
    out[1] = pack33(q.hi, q.lo);
}

/* M of 4 bytes, entries of degree <= 32: m[2i + j] = row i . column j, the
 * entry at bits 33..65 of the product. */
static void quad(const uint8_t b[4], uint64_t m[4])
{
    uint64_t l[2], r[2];
    pair_left(b[0], b[1], l);
    pair_right(b[2], b[3], r);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            u128 t = clmul(l[i], r[j]);
            m[2 * i + j] = ((t.lo >> 33) | (t.hi << 31)) & TZ_PACK_MASK;
        }
}

/* c * (e + top x^64) for a lazy c, e < 2^64 and top in {0, 1}, as the pair
 * (X, Y) of the value X + Y x^64, ready for fold(). */
static void mul65(gf127 c, uint64_t e, uint64_t top, u128 *x, u128 *y)
{
    u128 a = clmul(c.lo, e), b = clmul(c.hi, e);
    x->lo ^= a.lo;
    x->hi ^= a.hi;
    y->lo ^= b.lo ^ (c.lo & (0 - top));
    y->hi ^= b.hi ^ (c.hi & (0 - top));
}

/* X + Y x^64 to 128 bits: x^128 = x^64 + x. */
static gf127 fold(u128 x, u128 y)
{
    gf127 r = { x.lo ^ (y.hi << 1), x.hi ^ y.lo ^ y.hi ^ (y.hi >> 63) };
    return r;
}

/* One 8-byte round: c = c * M(b0..b7). M = M(b0..b3) M(b4..b7) has entries
 * of degree <= 64: e00 has x^64 always, e01 when the last bit is 1 (the
 * kernels read it from bit 64 of the product), e10 and e11 never. */
static void round8(gf127 c[4], const uint8_t b[8])
{
    uint64_t l[4], r[4], e[4];
    u128 t[4];
    quad(b, l);
    quad(b + 4, r);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            u128 p = clmul(l[2 * i], r[j]), q = clmul(l[2 * i + 1], r[2 + j]);
            t[2 * i + j].lo = p.lo ^ q.lo;
            t[2 * i + j].hi = p.hi ^ q.hi;
            e[2 * i + j] = t[2 * i + j].lo;
        }
    uint64_t top01 = t[1].hi & 1;
    for (int i = 0; i < 2; i++) {
        gf127 ci0 = c[2 * i], ci1 = c[2 * i + 1];
        u128 x0 = { 0, 0 }, y0 = { 0, 0 }, x1 = { 0, 0 }, y1 = { 0, 0 };
        mul65(ci0, e[0], 1, &x0, &y0);
        mul65(ci1, e[2], 0, &x0, &y0);
        mul65(ci0, e[1], top01, &x1, &y1);
        mul65(ci1, e[3], 0, &x1, &y1);
        c[2 * i] = fold(x0, y0);
        c[2 * i + 1] = fold(x1, y1);
    }
}

void tz_twin_mul_bytes(sl2 *state, const uint8_t *data, size_t len)
{
    gf127 c[4] = { state->m[0], state->m[1], state->m[2], state->m[3] };
    for (; len >= 8; len -= 8, data += 8)
        round8(c, data);
    for (; len >= 4; len -= 4, data += 4)
        round4(c, data);
    for (; len > 0; len--, data++)
        byte1(c, *data);
    for (int e = 0; e < 4; e++)
        state->m[e] = tz_reduce_lazy(c[e]);
}

void tz_twin_segments(gf127 st[16], const uint8_t *data, size_t rounds, size_t stride)
{
    for (int lane = 0; lane < 4; lane++) {
        gf127 c[4];
        const uint8_t *p = data + (size_t)lane * stride;
        for (int e = 0; e < 4; e++)
            c[e] = st[4 * e + lane];
        for (size_t r = 0; r < rounds; r++, p += 8)
            round8(c, p);
        for (int e = 0; e < 4; e++)
            st[4 * e + lane] = c[e];
    }
}
