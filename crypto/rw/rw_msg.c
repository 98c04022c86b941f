/* rw_msg.c - message representatives: the SHAKE256 full-domain hash with its
 * one-bit deterministic randomizer (format "RW"), and IEEE 1363 EMSA2. */
#include <string.h>
#include "fastsig_err.h"
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

void rw_fdh(const rw_key *k, int r, const uint8_t *msg, size_t msglen, mp_limb_t *h)
{
    static const char dom[] = "FASTSIG-RW-H-v1";
    uint8_t buf[RW_MAX_BITS / 8], rb = (uint8_t)r;
    rw_shake x;
    rw_shake_init(&x);
    rw_shake_absorb(&x, dom, sizeof(dom) - 1);
    rw_shake_absorb(&x, k->kid, sizeof(k->kid));
    rw_shake_absorb(&x, &rb, 1);
    rw_shake_absorb(&x, msg, msglen);
    rw_shake_squeeze(&x, buf, k->nbytes);
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
