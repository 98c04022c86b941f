/* sha1.c - portable SHA-1 (FIPS 180-4), only for the IEEE 1363 EMSA2(SHA-1)
 * interop profile (the Crypto++ vectors). Nothing else in fastsig uses it. */
#include <string.h>
#include "bytes.h"
#include "rw/rw_hash.h"

static uint32_t rol(uint32_t v, unsigned n) { return v << n | v >> (32 - n); }

static void sha1_block(uint32_t h[5], const uint8_t *b)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = fs_load_be32(b + 4 * i);
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) { f = (bb & c) | (~bb & d); k = 0x5a827999; }
        else if (i < 40) { f = bb ^ c ^ d; k = 0x6ed9eba1; }
        else if (i < 60) { f = (bb & c) | (bb & d) | (c & d); k = 0x8f1bbcdc; }
        else { f = bb ^ c ^ d; k = 0xca62c1d6; }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d; d = c; c = rol(bb, 30); bb = a; a = t;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e;
}

void rw_sha1(uint8_t out[RW_SHA1_BYTES], const uint8_t *in, size_t len)
{
    uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
    size_t full = len & ~(size_t)63;
    for (size_t off = 0; off < full; off += 64)
        sha1_block(h, in + off);
    uint8_t tail[128] = { 0 };
    size_t rest = len - full, tl = rest < 56 ? 64 : 128;
    memcpy(tail, in + full, rest);
    tail[rest] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    fs_store_be64(tail + tl - 8, bits);
    for (size_t off = 0; off < tl; off += 64)
        sha1_block(h, tail + off);
    for (int i = 0; i < 5; i++)
        fs_store_be32(out + 4 * i, h[i]);
}
