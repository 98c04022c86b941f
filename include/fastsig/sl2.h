/* sl2.h - 2x2 matrices over GF(2^127), the Tillich-Zemor hash state.
 *
 * Contract: m[0..3] = c00, c01, c10, c11 (row-major). Hashing multiplies the
 * state on the right by A = [[x,1],[1,0]] for a 0 bit and B = [[x,x+1],[1,1]]
 * for a 1 bit, bytes MSB first. All functions are constant time. */
#ifndef FASTSIG_SL2_H
#define FASTSIG_SL2_H

#include <stddef.h>
#include <stdint.h>
#include "gf127.h"

typedef struct {
    gf127 m[4];
} sl2;

void sl2_identity(sl2 *r);
/* r = a * b; r may alias a or b. */
void sl2_mul(sl2 *r, const sl2 *a, const sl2 *b);
/* 1 when det(a) = 1 (a is in SL2, as every hash state is), else 0. */
int sl2_in_group(const sl2 *a);
/* r = a^-1. Returns 0, or -1 (r untouched) when det(a) = 0. */
int sl2_inv(sl2 *r, const sl2 *a);

/* Bit-serial hashing of len bytes into the state: the portable reference
 * that every faster kernel is tested against. */
void sl2_mul_bytes_portable(sl2 *state, const uint8_t *data, size_t len);

/* Row-major digest encoding c00||c01||c10||c11, 16 bytes big-endian each. */
void sl2_to_bytes(const sl2 *a, uint8_t out[64]);
/* Returns 0, or -1 when an element has bit 127 set (out untouched). */
int sl2_from_bytes(sl2 *out, const uint8_t in[64]);

#endif
