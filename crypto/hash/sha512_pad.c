/* sha512_pad.c - SHA-512 padding and finalisation over any compression
 * kernel, on transposed states (word i of lane l at st[i*lanes + l]). */
#include <string.h>
#include "bytes.h"
#include "hash/sha512.h"

void fs_sha512_init(const fs_kernel *k, uint64_t *st)
{
    for (unsigned i = 0; i < 8; i++)
        for (unsigned l = 0; l < k->lanes; l++)
            st[i * k->lanes + l] = fs_sha512_iv[i];
}

/* The last one or two blocks of a message: tail bytes, 0x80, zeros, and the
 * 128-bit big-endian bit length. Returns the block count. */
static size_t pad_tail(uint8_t buf[2 * FS_SHA512_BLOCK], const uint8_t *tail, size_t rem,
                       uint64_t total)
{
    size_t nb = rem + 17 <= FS_SHA512_BLOCK ? 1 : 2;
    size_t end = nb * FS_SHA512_BLOCK;
    memset(buf, 0, end);
    memcpy(buf, tail, rem);
    buf[rem] = 0x80;
    /* bit length < 2^67: the top 3 bits go to byte end-9 */
    buf[end - 9] = (uint8_t)(total >> 61);
    fs_store_be64(buf + end - 8, total << 3);
    return nb;
}

void fs_sha512_final(const fs_kernel *k, uint64_t *st, uint64_t prefix,
                     const uint8_t *const in[], unsigned used, size_t len, uint8_t *const out[],
                     size_t outlen)
{
    unsigned n = k->lanes;
    const uint8_t *ptr[FS_SHA512_MAX_LANES] = { 0 }; /* gcc cannot see n >= 1 */
    uint8_t tail[FS_SHA512_MAX_LANES][2 * FS_SHA512_BLOCK];
    size_t full = len / FS_SHA512_BLOCK, nb = 0;

    for (unsigned l = 0; l < n; l++)
        ptr[l] = in[l < used ? l : 0];
    fs_sha512_fn(k)(st, ptr, full);
    for (unsigned l = 0; l < used; l++) {
        nb = pad_tail(tail[l], in[l] + full * FS_SHA512_BLOCK, len % FS_SHA512_BLOCK,
                      prefix + len);
        ptr[l] = tail[l];
    }
    for (unsigned l = used; l < n; l++)
        ptr[l] = tail[0];
    fs_sha512_fn(k)(st, ptr, nb);
    for (unsigned l = 0; l < used; l++)
        for (size_t i = 0; i < outlen && i < FS_SHA512_DIGEST; i++)
            out[l][i] = (uint8_t)(st[(i / 8) * n + l] >> (56 - 8 * (i % 8))); /* a prefix of BE words */
    explicit_bzero(tail, sizeof(tail)); /* may hold keys (PRF inputs) */
}

void fs_sha512_lanes(const fs_kernel *k, uint8_t *const out[], size_t outlen,
                     const uint8_t *const in[], size_t len, unsigned used)
{
    uint64_t st[8 * FS_SHA512_MAX_LANES];
    fs_sha512_init(k, st);
    fs_sha512_final(k, st, 0, in, used, len, out, outlen);
    explicit_bzero(st, sizeof(st));
}

void fs_sha512(uint8_t out[64], const uint8_t *in, size_t len)
{
    const uint8_t *ins[1] = { in };
    uint8_t *outs[1] = { out };
    fs_sha512_lanes(&fs_sha512_kernels[0], outs, FS_SHA512_DIGEST, ins, len, 1);
}
