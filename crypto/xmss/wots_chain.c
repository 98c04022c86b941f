/* wots_chain.c - see wots_chain.h. */
#include <stdlib.h>
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

/* One ADRS per chain: key k's chain i at index k * len + i. */
static void chain_adrs(const xmss_params *p, xmss_adrs *a, const xmss_adrs *ots, size_t keys)
{
    for (size_t k = 0; k < keys; k++)
        for (unsigned i = 0; i < p->len; i++) {
            xmss_adrs *x = &a[k * p->len + i];
            memcpy(x->b, ots[k].b, 20);
            memset(x->b + 20, 0, 12);
            xmss_adrs_set_chain(x, i);
        }
}

/* The secret chain starts, in chunks the engine accepts. */
static int secret_starts(const xmss_ctx *c, uint8_t *out, const xmss_adrs *a, size_t count)
{
    for (size_t off = 0; off < count; off += FS_HASH_MAX_LANES) {
        size_t m = count - off < FS_HASH_MAX_LANES ? count - off : FS_HASH_MAX_LANES;
        int rc = fs_hash_prf_keygen(&c->seeds, out + off * c->p->n, a[off].b, m);
        if (rc != FASTSIG_OK)
            return rc;
    }
    return FASTSIG_OK;
}

int xmss_wots_pkgen(const xmss_ctx *c, uint8_t *pk, const xmss_adrs *ots, size_t keys)
{
    const xmss_params *p = c->p;
    size_t count = keys * p->len;
    xmss_adrs *a = malloc(count * sizeof(*a));
    uint32_t *steps = malloc(count * sizeof(*steps));
    int rc = FASTSIG_ERR_NOMEM;
    if (a != NULL && steps != NULL) {
        chain_adrs(p, a, ots, keys);
        for (size_t i = 0; i < count; i++)
            steps[i] = p->w - 1u;
        rc = secret_starts(c, pk, a, count);
        for (size_t off = 0; off < count && rc == FASTSIG_OK; off += FS_HASH_MAX_LANES) {
            size_t m = count - off < FS_HASH_MAX_LANES ? count - off : FS_HASH_MAX_LANES;
            uint8_t *x = pk + off * p->n;
            rc = fs_hash_chains(&c->seeds, x, x, a[off].b, NULL, steps + off, m);
        }
    }
    free(a);
    free(steps);
    return rc;
}

int xmss_wots_sign(const xmss_ctx *c, uint8_t *sig, const uint8_t *msg, const xmss_adrs *ots)
{
    const xmss_params *p = c->p;
    xmss_adrs a[XMSS_MAX_LEN];
    uint32_t digits[XMSS_MAX_LEN];
    xmss_wots_digits(p, msg, digits);
    chain_adrs(p, a, ots, 1);
    int rc = secret_starts(c, sig, a, p->len);
    if (rc == FASTSIG_OK)
        rc = fs_hash_chains(&c->seeds, sig, sig, a[0].b, NULL, digits, p->len);
    return rc;
}

int xmss_wots_pk_from_sig(const xmss_ctx *c, uint8_t *pk, const uint8_t *sig, const uint8_t *msg,
                         const xmss_adrs *ots)
{
    const xmss_params *p = c->p;
    xmss_adrs a[XMSS_MAX_LEN];
    uint32_t start[XMSS_MAX_LEN], steps[XMSS_MAX_LEN];
    xmss_wots_digits(p, msg, start);
    for (unsigned i = 0; i < p->len; i++)
        steps[i] = p->w - 1u - start[i];
    chain_adrs(p, a, ots, 1);
    return fs_hash_chains(&c->seeds, pk, sig, a[0].b, start, steps, p->len);
}
