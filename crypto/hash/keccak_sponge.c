/* keccak_sponge.c - SHAKE absorb/squeeze over any permutation kernel, on
 * lane-interleaved states (word i of lane l at st[i*lanes + l]), and the
 * incremental one-state SHAKE (fs_shake_ctx). */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "hash/keccak.h"

/* Xors len (< rate allowed) bytes into the start of lane l's block. */
static void xor_bytes(uint64_t *st, unsigned n, unsigned l, const uint8_t *src, size_t len)
{
    size_t w = 0;
    for (; 8 * w + 8 <= len; w++)
        st[w * n + l] ^= fs_load_le64(src + 8 * w);
    for (size_t i = 8 * w; i < len; i++)
        st[(i / 8) * n + l] ^= (uint64_t)src[i] << (8 * (i % 8));
}

void fs_keccak_absorb_blocks(const fs_kernel *k, uint64_t *st, unsigned rate,
                             const uint8_t *const in[], unsigned used, size_t len)
{
#if defined(FASTSIG_HAVE_ASM) /* only asm rows have an absorb entry (aux); the device
                               * verifier's build keeps this frame to its one lane */
    if (k->aux != NULL && (rate == FS_SHAKE128_RATE || rate == FS_SHAKE256_RATE)) {
        const uint8_t *ptr[FS_KECCAK_MAX_LANES];
        for (unsigned l = 0; l < k->lanes; l++)
            ptr[l] = in[l < used ? l : 0];
        fs_keccak_absorb(k)(st, ptr, len / rate, rate);
        return;
    }
#endif
    for (size_t off = 0; off + rate <= len; off += rate) {
        for (unsigned l = 0; l < used; l++)
            xor_bytes(st, k->lanes, l, in[l] + off, rate);
        fs_keccak_perm(k)(st);
    }
}

void fs_keccak_absorb_final(const fs_kernel *k, uint64_t *st, unsigned rate,
                            const uint8_t *const in[], unsigned used, size_t len, uint8_t ds)
{
    uint8_t tail[FS_KECCAK_MAX_LANES][FS_SHAKE128_RATE];
    const uint8_t *ptr[FS_KECCAK_MAX_LANES];
    size_t full = len - len % rate;
    fs_keccak_absorb_blocks(k, st, rate, in, used, full);
    for (unsigned l = 0; l < used; l++) {
        memset(tail[l], 0, rate);
        memcpy(tail[l], in[l] + full, len - full);
        tail[l][len - full] ^= ds;
        tail[l][rate - 1] ^= 0x80;
        ptr[l] = tail[l];
    }
    fs_keccak_absorb_blocks(k, st, rate, ptr, used, rate);
    fs_wipe(tail, used * sizeof(tail[0])); /* may hold keys (PRF inputs); rows past used unused */
}

void fs_keccak_squeeze(const fs_kernel *k, uint64_t *st, unsigned rate,
                       uint8_t *const out[], unsigned used, size_t outlen)
{
    unsigned n = k->lanes;
    for (size_t off = 0; off < outlen; off += rate) {
        if (off > 0)
            fs_keccak_perm(k)(st);
        size_t chunk = outlen - off < rate ? outlen - off : rate;
        for (unsigned l = 0; l < used; l++)
            for (size_t i = 0; i < chunk; i++)
                out[l][off + i] = (uint8_t)(st[(i / 8) * n + l] >> (8 * (i % 8)));
    }
}

void fs_shake_lanes(const fs_kernel *k, unsigned rate, uint8_t *const out[], size_t outlen,
                    const uint8_t *const in[], size_t inlen, unsigned used)
{
    _Alignas(64) uint64_t st[25 * FS_KECCAK_MAX_LANES]; /* aligned: the x16 kernel streams it */
    memset(st, 0, sizeof(uint64_t) * 25 * k->lanes);
    fs_keccak_absorb_final(k, st, rate, in, used, inlen, FS_SHAKE_DS);
    fs_keccak_squeeze(k, st, rate, out, used, outlen);
    fs_wipe(st, sizeof(uint64_t) * 25 * k->lanes); /* the part the kernel used */
}

void fs_shake_init(fs_shake_ctx *x, unsigned rate)
{
    memset(x, 0, sizeof(*x));
    x->rate = rate;
}

static void xor_byte(uint64_t *st, size_t pos, uint8_t v)
{
    st[pos / 8] ^= (uint64_t)v << (8 * (pos % 8));
}

void fs_shake_absorb(fs_shake_ctx *x, const void *in, size_t len)
{
    const uint8_t *p = in;
    const unsigned rate = x->rate;
    while (len > 0) {
        if (x->pos == 0) { /* whole words while aligned to the block */
            while (len >= rate) {
                for (size_t w = 0; w < rate / 8; w++)
                    x->st[w] ^= fs_load_le64(p + 8 * w);
                fs_keccakf1600(x->st);
                p += rate;
                len -= rate;
            }
            if (len == 0)
                break;
        }
        xor_byte(x->st, x->pos++, *p++);
        len--;
        if (x->pos == rate) {
            fs_keccakf1600(x->st);
            x->pos = 0;
        }
    }
}

void fs_shake_squeeze(fs_shake_ctx *x, uint8_t *out, size_t len)
{
    const unsigned rate = x->rate;
    if (!x->squeezing) {
        xor_byte(x->st, x->pos, FS_SHAKE_DS);
        xor_byte(x->st, rate - 1, 0x80);
        fs_keccakf1600(x->st);
        x->pos = 0;
        x->squeezing = 1;
    }
    while (len > 0) {
        if (x->pos == rate) {
            fs_keccakf1600(x->st);
            x->pos = 0;
        }
        size_t n = rate - x->pos < len ? rate - x->pos : len;
        if (x->pos % 8 == 0 && n >= 8) { /* whole words (the state is little-endian) */
            n &= ~(size_t)7;
            for (size_t w = 0; w < n / 8; w++) {
                fs_store_le64(out + 8 * w, x->st[x->pos / 8 + w]);
            }
        } else {
            n = 1;
            out[0] = (uint8_t)(x->st[x->pos / 8] >> (8 * (x->pos % 8)));
        }
        out += n;
        len -= n;
        x->pos += (unsigned)n;
    }
}

void fs_shake_wipe(fs_shake_ctx *x)
{
    fs_wipe(x, sizeof(*x));
}

static void shake_one(unsigned rate, uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    const uint8_t *ins[1] = { in };
    uint8_t *outs[1] = { out };
    fs_shake_lanes(&fs_keccak_kernels[0], rate, outs, outlen, ins, inlen, 1);
}

void fs_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    shake_one(FS_SHAKE128_RATE, out, outlen, in, inlen);
}

void fs_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    shake_one(FS_SHAKE256_RATE, out, outlen, in, inlen);
}
