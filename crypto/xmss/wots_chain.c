/* wots_chain.c - see wots_chain.h: the public side (digits, chain
 * addresses, the public key a signature implies), which builds freestanding
 * (libfastsig-verify); the secret side is wots_keys.c. */
#include <string.h>
#include "fastsig_err.h"
#include "xmss/wots_chain.h"

void xmss_wots_digits(const xmss_params *p, const uint8_t *msg, uint32_t *digits)
{
    unsigned lw = p->log_w, mask = p->w - 1u, bits = 0;
    uint32_t acc = 0, csum = 0;
    size_t in = 0;
    for (unsigned i = 0; i < p->len1; i++) {
        if (bits == 0) {
            acc = msg[in++];
            bits = 8;
        }
        bits -= lw;
        digits[i] = (acc >> bits) & mask;
        csum += mask - digits[i];
    }
    /* checksum left-aligned in ceil(len2 * lw / 8) bytes, then base_w */
    unsigned cbits = p->len2 * lw, cbytes = (cbits + 7) / 8;
    csum <<= (8 * cbytes - cbits);
    for (unsigned i = 0; i < p->len2; i++)
        digits[p->len1 + i] = (csum >> (8 * cbytes - lw * (i + 1))) & mask;
}

void xmss_wots_chain_adrs(const xmss_params *p, xmss_adrs *a, const xmss_adrs *ots, size_t keys)
{
    for (size_t k = 0; k < keys; k++)
        for (unsigned i = 0; i < p->len; i++) {
            xmss_adrs *x = &a[k * p->len + i];
            memcpy(x->b, ots[k].b, 20);
            memset(x->b + 20, 0, 12);
            xmss_adrs_set_chain(x, i);
        }
}

/* The device verifier's build (FASTSIG_SMALL_STACK) has the XMSS and
 * XMSS^MT rows only (w = 16): its frame is sized for them. */
#ifdef FASTSIG_SMALL_STACK
#define PK_FROM_SIG_LEN XMSS_TREE_MAX_LEN
#else
#define PK_FROM_SIG_LEN XMSS_MAX_LEN
#endif

int xmss_wots_pk_from_sig(const xmss_ctx *c, uint8_t *pk, const uint8_t *sig, const uint8_t *msg,
                         const xmss_adrs *ots)
{
    const xmss_params *p = c->p;
    xmss_adrs a[PK_FROM_SIG_LEN];
    uint32_t start[PK_FROM_SIG_LEN], steps[PK_FROM_SIG_LEN];
    if (p->len > PK_FROM_SIG_LEN)
        return FASTSIG_ERR_BAD_PARAM;
    xmss_wots_digits(p, msg, start);
    for (unsigned i = 0; i < p->len; i++)
        steps[i] = p->w - 1u - start[i];
    xmss_wots_chain_adrs(p, a, ots, 1);
    return fs_hash_chains(&c->seeds, pk, sig, a[0].b, start, steps, p->len);
}
