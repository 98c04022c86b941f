/* sha2_block.h - the portable SHA-2 block function, written once for
 * SHA-256 and SHA-512. A file includes it after defining
 *   SHA2_WORD    the word type
 *   SHA2_ROUNDS  64 or 80, SHA2_K the round constants
 *   SHA2_BLOCK   block bytes, SHA2_LOAD(p) a big-endian word at p
 *   SHA2_BSIG0, SHA2_BSIG1, SHA2_SSIG0, SHA2_SSIG1  the sigma functions
 * and gets compress_block (one block into h) and compress_lanes (nblocks
 * of each of n lanes of a transposed state, st[i*n + l]). The message
 * schedule is a 16-word ring (W[t] in w[t % 16]), and the rounds go 16 at
 * a time so the compiler can unroll them. */

/* On a 64-byte line: where the link put it moved its time by 4% (SHA-512,
 * the same code 16 bytes off). */
__attribute__((aligned(64))) static void compress_block(SHA2_WORD h[8], const uint8_t *blk)
{
    SHA2_WORD w[16];
    for (int t = 0; t < 16; t++)
        w[t] = SHA2_LOAD(blk + sizeof(SHA2_WORD) * t);
    SHA2_WORD a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < SHA2_ROUNDS; t += 16) {
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++) {
            if (t > 0)
                w[i] += SHA2_SSIG0(w[(i + 1) % 16]) + w[(i + 9) % 16] + SHA2_SSIG1(w[(i + 14) % 16]);
            SHA2_WORD t1 = hh + SHA2_BSIG1(e) + ((e & f) ^ (~e & g)) + SHA2_K[t + i] + w[i];
            SHA2_WORD t2 = SHA2_BSIG0(a) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

static void compress_lanes(SHA2_WORD *st, unsigned n, const uint8_t *const in[], size_t nblocks)
{
    SHA2_WORD h[8];
    for (unsigned l = 0; l < n; l++) {
        for (int i = 0; i < 8; i++)
            h[i] = st[i * n + l];
        for (size_t b = 0; b < nblocks; b++)
            compress_block(h, in[l] + SHA2_BLOCK * b);
        for (int i = 0; i < 8; i++)
            st[i * n + l] = h[i];
    }
}
