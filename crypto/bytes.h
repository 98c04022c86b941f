/* bytes.h - unsigned integers to and from bytes in a fixed order: the one
 * set of byte-order helpers of crypto/, provider/ and tools/.
 *
 * Contract: any alignment of p; big-endian (most significant byte first)
 * unless the name says le. fs_load_be / fs_store_be take a length in
 * bytes: fs_store_be writes v right-aligned in len bytes, zeros above its
 * 8 (XMSS's idx fields and toByte(idx, n)); fs_load_be reads len <= 8.
 * Static inline and branch-free on their values: they run on hot paths
 * (hash-address and chain-job encoding) and on secret-derived bytes. */
#ifndef FASTSIG_BYTES_H
#define FASTSIG_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t fs_load_be16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline void fs_store_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline uint32_t fs_load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void fs_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint64_t fs_load_be64(const uint8_t *p)
{
    return (uint64_t)fs_load_be32(p) << 32 | fs_load_be32(p + 4);
}

static inline void fs_store_be64(uint8_t *p, uint64_t v)
{
    fs_store_be32(p, (uint32_t)(v >> 32));
    fs_store_be32(p + 4, (uint32_t)v);
}

/* Written out rather than as loops: gcc then merges them into one 8-byte
 * load or store on the hot paths (Keccak absorb and squeeze). */
static inline uint64_t fs_load_le64(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

static inline void fs_store_le64(uint8_t *p, uint64_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    p[4] = (uint8_t)(v >> 32);
    p[5] = (uint8_t)(v >> 40);
    p[6] = (uint8_t)(v >> 48);
    p[7] = (uint8_t)(v >> 56);
}

static inline uint64_t fs_load_be(const uint8_t *p, size_t len)
{
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++)
        v = v << 8 | p[i];
    return v;
}

static inline void fs_store_be(uint8_t *p, size_t len, uint64_t v)
{
    for (size_t i = 0; i < len; i++) {
        size_t shift = 8 * (len - 1 - i);
        p[i] = shift < 64 ? (uint8_t)(v >> shift) : 0;
    }
}

#endif
