/* rw_msg.c - message representatives: the SHAKE256 full-domain hash with its
 * one-bit deterministic randomizer (format "RW"), computed as parallel
 * SHAKE256 lanes on crypto/hash's multi-lane Keccak kernels, and IEEE 1363
 * EMSA2. */
#include <string.h>
#include "fastsig_err.h"
#include "cpu.h"
#include "hash/keccak.h"
#include "rw/rw_hash.h"
#include "rw/rw_msg.h"

int rw_randomizer_bit(const rw_key *k, const uint8_t *msg, size_t msglen)
{
    static const char dom[] = "FASTSIG-RW-R-v1";
    uint8_t out;
    rw_shake x;
    rw_shake_init(&x);
    rw_shake_absorb(&x, dom, sizeof(dom) - 1);
    rw_shake_absorb(&x, k->prf, RW_PRF_BYTES);
    rw_shake_absorb(&x, msg, msglen);
    rw_shake_squeeze(&x, &out, 1);
    rw_shake_wipe(&x);
    return out & 1;
}

/* ---- the full-domain hash, as parallel SHAKE256 lanes -------------------- */

#define RATE FS_SHAKE256_RATE

/* The kernel for the FDH lanes: the last (widest-ISA) vector kernel this CPU
 * may use: on AVX-512 one x8 permutation is faster than an AVX2 x4 one even
 * for two lanes. Else the portable one-lane kernel. */
static const fs_keccak_kernel *pick_kernel(void)
{
    const fs_keccak_kernel *best = &fs_keccak_kernels[0];
    unsigned have = fs_cpu_features();
    for (const fs_keccak_kernel *k = fs_keccak_kernels; k->name != NULL; k++)
        if (k->cpu != 0 && (k->cpu & have) == k->cpu)
            best = k;
    return best;
}

/* Absorbs len bytes of the stream shared by all lanes (staged into whole
 * blocks; long runs go straight from src). */
typedef struct {
    const fs_keccak_kernel *k;
    uint64_t st[25 * FS_KECCAK_MAX_LANES];
    uint8_t stage[RATE];
    size_t fill;
    unsigned used;
} lane_sponge;

static void feed(lane_sponge *z, const uint8_t *src, size_t len)
{
    const uint8_t *in[FS_KECCAK_MAX_LANES];
    while (len > 0) {
        if (z->fill == 0 && len >= RATE) {
            size_t n = len - len % RATE;
            for (unsigned l = 0; l < z->used; l++)
                in[l] = src;
            fs_keccak_absorb_blocks(z->k, z->st, RATE, in, z->used, n);
            src += n;
            len -= n;
            continue;
        }
        size_t n = RATE - z->fill < len ? RATE - z->fill : len;
        memcpy(z->stage + z->fill, src, n);
        z->fill += n;
        src += n;
        len -= n;
        if (z->fill == RATE) {
            for (unsigned l = 0; l < z->used; l++)
                in[l] = z->stage;
            fs_keccak_absorb_blocks(z->k, z->st, RATE, in, z->used, RATE);
            z->fill = 0;
        }
    }
}

/* Lanes j0 .. j0+used-1 of the hash: out gets used * RATE bytes. */
static void fdh_lanes(const fs_keccak_kernel *k, const uint8_t *prefix, size_t plen,
                      const uint8_t *msg, size_t msglen, unsigned j0, unsigned used, uint8_t *out)
{
    lane_sponge z;
    uint8_t tails[FS_KECCAK_MAX_LANES][RATE + 1];
    const uint8_t *in[FS_KECCAK_MAX_LANES];
    memset(z.st, 0, sizeof(uint64_t) * 25 * k->lanes);
    z.k = k;
    z.fill = 0;
    z.used = used;
    feed(&z, prefix, plen);
    feed(&z, msg, msglen);
    for (unsigned l = 0; l < used; l++) {
        memcpy(tails[l], z.stage, z.fill);
        tails[l][z.fill] = (uint8_t)(j0 + l);     /* the lane index ends each input */
        in[l] = tails[l];
    }
    fs_keccak_absorb_final(k, z.st, RATE, in, used, z.fill + 1, FS_SHAKE_DS);
    /* the state holds each lane's first output block: word i of lane l is
     * st[i * lanes + l], little-endian */
    for (unsigned l = 0; l < used; l++)
        for (unsigned i = 0; i < RATE / 8; i++) {
            uint64_t v = z.st[i * k->lanes + l];
            for (unsigned b = 0; b < 8; b++)
                out[(size_t)l * RATE + 8 * i + b] = (uint8_t)(v >> (8 * b));
        }
}

void rw_fdh(const rw_key *k, int r, const uint8_t *msg, size_t msglen, mp_limb_t *h)
{
    static const char dom[] = "FASTSIG-RW-H-v1";
    uint8_t prefix[sizeof(dom) - 1 + 32 + 1];
    uint8_t buf[(RW_MAX_BITS / 8 / RATE + 1) * RATE];
    memcpy(prefix, dom, sizeof(dom) - 1);
    memcpy(prefix + sizeof(dom) - 1, k->kid, 32);
    prefix[sizeof(prefix) - 1] = (uint8_t)r;
    unsigned lanes = (unsigned)((k->nbytes + RATE - 1) / RATE);
    const fs_keccak_kernel *ker = pick_kernel();
    for (unsigned j = 0; j < lanes; j += ker->lanes) {
        unsigned used = lanes - j < ker->lanes ? lanes - j : ker->lanes;
        fdh_lanes(ker, prefix, sizeof(prefix), msg, msglen, j, used, buf + (size_t)j * RATE);
    }
    buf[0] &= 0x7f;               /* h < 2^(bits-1) < n */
    rw_from_be(h, mpz_size(k->n), buf, k->nbytes);
}

int rw_emsa2(const rw_key *k, int format, unsigned flags, const uint8_t *msg, size_t msglen,
             mp_limb_t *F)
{
    uint8_t buf[RW_MAX_BITS / 8], digest[RW_SHA256_BYTES];
    size_t hlen = format == RW_FMT_P1363_SHA1 ? RW_SHA1_BYTES : RW_SHA256_BYTES;
    uint8_t id = format == RW_FMT_P1363_SHA1 ? 0x33 : 0x34;
    size_t nb = k->nbytes;
    int empty = msglen == 0;
    if (flags & RW_SIGN_PREHASHED) {
        if (msglen != hlen)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(digest, msg, hlen);
        empty = 0;   /* a caller that pre-hashes cannot tell us; IEEE 1363 says 0x6B */
    } else if (format == RW_FMT_P1363_SHA1) {
        rw_sha1(digest, msg, msglen);
    } else {
        rw_sha256(digest, msg, msglen);
    }
    if (nb < hlen + 4)
        return FASTSIG_ERR_BAD_KEY;
    /* 0x6B/0x4B || 0xBB.. || 0xBA || H || id || 0xCC  (bits - 1 bits) */
    memset(buf, 0xbb, nb);
    buf[0] = empty ? 0x4b : 0x6b;
    buf[nb - hlen - 3] = 0xba;
    memcpy(buf + nb - hlen - 2, digest, hlen);
    buf[nb - 2] = id;
    buf[nb - 1] = 0xcc;
    rw_from_be(F, mpz_size(k->n), buf, nb);
    return FASTSIG_OK;
}
