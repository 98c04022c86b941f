/* wots_keys.c - the secret side of wots_chain.h: public keys from SK_SEED
 * (key generation) and signing. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "xmss/wots_chain.h"

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
        xmss_wots_chain_adrs(p, a, ots, keys);
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
    xmss_wots_chain_adrs(p, a, ots, 1);
    int rc = secret_starts(c, sig, a, p->len);
    if (rc == FASTSIG_OK)
        rc = fs_hash_chains(&c->seeds, sig, sig, a[0].b, NULL, digits, p->len);
    return rc;
}
