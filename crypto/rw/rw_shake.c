/* rw_shake.c - incremental SHAKE256 (FIPS 202) on crypto/hash's portable
 * Keccak-f[1600]: RW absorbs a domain string, a key id and the message in
 * pieces and squeezes a modulus-sized output. */
#include <string.h>
#include "hash/keccak.h"
#include "rw/rw_hash.h"

#define RATE FS_SHAKE256_RATE

static void xor_byte(uint64_t *st, size_t pos, uint8_t v)
{
    st[pos / 8] ^= (uint64_t)v << (8 * (pos % 8));
}

void rw_shake_init(rw_shake *x)
{
    memset(x, 0, sizeof(*x));
}

void rw_shake_absorb(rw_shake *x, const void *in, size_t len)
{
    const uint8_t *p = in;
    while (len > 0) {
        if (x->pos == 0) {      /* whole words while aligned to the block */
            while (len >= RATE) {
                for (size_t w = 0; w < RATE / 8; w++) {
                    uint64_t v = 0;
                    for (int b = 7; b >= 0; b--)
                        v = v << 8 | p[8 * w + (size_t)b];
                    x->st[w] ^= v;
                }
                fs_keccakf1600(x->st);
                p += RATE;
                len -= RATE;
            }
            if (len == 0)
                break;
        }
        xor_byte(x->st, x->pos++, *p++);
        len--;
        if (x->pos == RATE) {
            fs_keccakf1600(x->st);
            x->pos = 0;
        }
    }
}

void rw_shake_squeeze(rw_shake *x, uint8_t *out, size_t len)
{
    if (!x->squeezing) {
        xor_byte(x->st, x->pos, FS_SHAKE_DS);
        xor_byte(x->st, RATE - 1, 0x80);
        fs_keccakf1600(x->st);
        x->pos = 0;
        x->squeezing = 1;
    }
    while (len > 0) {
        if (x->pos == RATE) {
            fs_keccakf1600(x->st);
            x->pos = 0;
        }
        size_t n = RATE - x->pos < len ? RATE - x->pos : len;
        if (x->pos % 8 == 0 && n >= 8) {   /* whole words (the state is little-endian) */
            n &= ~(size_t)7;
            for (size_t w = 0; w < n / 8; w++) {
                uint64_t v = x->st[x->pos / 8 + w];
                for (int b = 0; b < 8; b++)
                    out[8 * w + (size_t)b] = (uint8_t)(v >> (8 * b));
            }
        } else {
            n = 1;
            out[0] = (uint8_t)(x->st[x->pos / 8] >> (8 * (x->pos % 8)));
        }
        out += n;
        len -= n;
        x->pos += n;
    }
}

void rw_shake_wipe(rw_shake *x)
{
    volatile uint8_t *v = (volatile uint8_t *)x;
    for (size_t i = 0; i < sizeof(*x); i++)
        v[i] = 0;
}
