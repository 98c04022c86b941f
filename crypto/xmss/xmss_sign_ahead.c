/* xmss_sign_ahead.c - layer 0's one-time signature together with the
 * leaves of the next bottom subtree that are due at that index: the
 * secret starts and the chains of the signature (digit steps each) and of
 * the leaves' keys (w - 1 steps each) go to the engine as one batch, so
 * the short signature chains fill lanes beside the long key chains
 * instead of each walk ending on a nearly empty tail. Layer 0 prepares one
 * leaf per signature this way (xmss_cache.c), so every signature carries
 * the same work and the p50 no longer sits above the mean (doc/performance.md
 * section 3). The bytes are those of xmss_wots_sign and xmss_leaves. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "memops.h"
#include "xmss/xmss_key.h"
#include "xmss/wots_chain.h"

/* At most this many leaves ride along (more: a catch-up after a jump,
 * left to xmss_advance_layer). */
#define AHEAD_MAX 4

/* The due leaves' public keys into ly->next from their chain ends (pk,
 * count keys of len * n bytes; overwritten). */
static int leaves_from_ends(xmss_key *k, const xmss_next_leaves *due, uint8_t *pk)
{
    xmss_adrs lt[AHEAD_MAX];
    for (uint32_t j = 0; j < due->count; j++) {
        xmss_adrs_init(&lt[j], 0, due->tree, XMSS_ADRS_LTREE);
        xmss_adrs_set_ltree(&lt[j], due->leaf + j);
    }
    xmss_layer *ly = &k->layers[0];
    return xmss_ltree(&k->ctx, ly->next + (size_t)ly->next_done * k->p.n, pk, lt, due->count);
}

int xmss_sign_ahead(xmss_key *k, uint64_t idx, uint8_t *sig, const uint8_t *digest,
                    const xmss_adrs *ots, uint32_t *added)
{
    const xmss_params *p = &k->p;
    const size_t n = p->n, len = p->len;
    xmss_next_leaves due;
    *added = 0;
    if (!xmss_next_due(k, 0, idx, &due) || due.count > AHEAD_MAX)
        return xmss_wots_sign(&k->ctx, sig, digest, ots);
    const size_t keys = 1 + due.count, chains = keys * len;
    uint8_t *x = malloc(chains * (n + sizeof(xmss_adrs) + sizeof(uint32_t)));
    if (x == NULL)
        return xmss_wots_sign(&k->ctx, sig, digest, ots);
    xmss_adrs *a = (xmss_adrs *)(x + chains * n), kots[1 + AHEAD_MAX];
    uint32_t *steps = (uint32_t *)(a + chains);
    kots[0] = *ots;
    for (uint32_t j = 0; j < due.count; j++) {
        xmss_adrs_init(&kots[1 + j], 0, due.tree, XMSS_ADRS_OTS);
        xmss_adrs_set_ots(&kots[1 + j], due.leaf + j);
    }
    xmss_wots_chain_adrs(p, a, kots, keys);
    xmss_wots_digits(p, digest, steps); /* the signature's chains walk to the digits */
    for (size_t c = len; c < chains; c++)
        steps[c] = p->w - 1u;
    int rc = fs_hash_prf_keygen(&k->ctx.seeds, x, a[0].b, chains);
    if (rc == FASTSIG_OK)
        rc = fs_hash_chains(&k->ctx.seeds, x, x, a[0].b, NULL, steps, chains);
    if (rc == FASTSIG_OK) {
        memcpy(sig, x, len * n);
        /* the signature is whole; a failure from here only leaves the
         * leaves to xmss_advance_layer */
        if (leaves_from_ends(k, &due, x + len * n) == FASTSIG_OK)
            *added = due.count;
    }
    fs_wipe(x, chains * n);
    free(x);
    return rc;
}
