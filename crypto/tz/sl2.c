/* sl2.c - SL2 matrix operations and the bit-serial reference hash. */
#include "sl2.h"

void sl2_identity(sl2 *r)
{
    gf127 zero = { 0, 0 }, one = { 1, 0 };
    r->m[0] = one;
    r->m[1] = zero;
    r->m[2] = zero;
    r->m[3] = one;
}

void sl2_mul(sl2 *r, const sl2 *a, const sl2 *b)
{
    sl2 t;
    t.m[0] = gf127_add(gf127_mul(a->m[0], b->m[0]), gf127_mul(a->m[1], b->m[2]));
    t.m[1] = gf127_add(gf127_mul(a->m[0], b->m[1]), gf127_mul(a->m[1], b->m[3]));
    t.m[2] = gf127_add(gf127_mul(a->m[2], b->m[0]), gf127_mul(a->m[3], b->m[2]));
    t.m[3] = gf127_add(gf127_mul(a->m[2], b->m[1]), gf127_mul(a->m[3], b->m[3]));
    *r = t;
}

int sl2_in_group(const sl2 *a)
{
    /* det = ad + bc in characteristic 2; constant time like the rest */
    gf127 det = gf127_add(gf127_mul(a->m[0], a->m[3]), gf127_mul(a->m[1], a->m[2]));
    uint64_t diff = (det.lo ^ 1) | det.hi;
    return (int)((((diff | (0 - diff)) >> 63) & 1) ^ 1);
}

/* In characteristic 2, [[a,b],[c,d]]^-1 = det^-1 * [[d,b],[c,a]]. Hash
 * states have det 1, but parsed digests are arbitrary, so divide. */
int sl2_inv(sl2 *r, const sl2 *a)
{
    gf127 det = gf127_add(gf127_mul(a->m[0], a->m[3]), gf127_mul(a->m[1], a->m[2]));
    if ((det.lo | det.hi) == 0)
        return -1;
    gf127 di = gf127_inv(det);
    sl2 t;
    t.m[0] = gf127_mul(di, a->m[3]);
    t.m[1] = gf127_mul(di, a->m[1]);
    t.m[2] = gf127_mul(di, a->m[2]);
    t.m[3] = gf127_mul(di, a->m[0]);
    *r = t;
    return 0;
}

/* One row (u, v) times A or B: t = u*x + v; A gives (t, u), B gives
 * (t, t + u). The bit selects by mask, not by branch. */
static inline void row_step(gf127 *u, gf127 *v, uint64_t mask)
{
    gf127 t = gf127_add(gf127_mul_x(*u), *v);
    v->lo = u->lo ^ (t.lo & mask);
    v->hi = u->hi ^ (t.hi & mask);
    *u = t;
}

void sl2_mul_bytes_portable(sl2 *state, const uint8_t *data, size_t len)
{
    gf127 c00 = state->m[0], c01 = state->m[1];
    gf127 c10 = state->m[2], c11 = state->m[3];
    for (size_t i = 0; i < len; i++) {
        unsigned byte = data[i];
        for (int b = 7; b >= 0; b--) {
            uint64_t mask = 0 - (uint64_t)((byte >> b) & 1);
            row_step(&c00, &c01, mask);
            row_step(&c10, &c11, mask);
        }
    }
    state->m[0] = c00;
    state->m[1] = c01;
    state->m[2] = c10;
    state->m[3] = c11;
}

void sl2_to_bytes(const sl2 *a, uint8_t out[64])
{
    for (int i = 0; i < 4; i++)
        gf127_to_be(a->m[i], out + 16 * i);
}

int sl2_from_bytes(sl2 *out, const uint8_t in[64])
{
    sl2 t;
    uint64_t top = 0;
    for (int i = 0; i < 4; i++) {
        t.m[i] = gf127_from_be(in + 16 * i);
        top |= t.m[i].hi >> 63;
    }
    if (top)
        return -1;
    *out = t;
    return 0;
}
