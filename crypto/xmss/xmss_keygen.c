/* xmss_keygen.c - XMSS / XMSS^MT key generation: a key from its seeds with
 * the trees a first signature needs (see xmss.h). */
#include <string.h>
#include "fastsig_err.h"
#include "xmss/xmss.h"
#include "xmss/xmss_key.h"

static unsigned clamp_threads(unsigned threads)
{
    return threads < 1 ? 1 : threads > XMSS_MAX_THREADS ? XMSS_MAX_THREADS : threads;
}

uint64_t xmss_keygen_pieces(const xmss_params *p)
{
    return p->tree_h > XMSS_BOTTOM_H ? (uint64_t)1 << (p->tree_h - XMSS_BOTTOM_H) : 0;
}

int xmss_keygen(const xmss_params *p, const uint8_t *seed, size_t seedlen, unsigned threads,
               xmss_progress_fn progress, void *parg, xmss_key **out)
{
    return xmss_keygen_resume(p, seed, seedlen, threads, progress, parg, NULL, out);
}

int xmss_keygen_resume(const xmss_params *p, const uint8_t *seed, size_t seedlen,
                       unsigned threads, xmss_progress_fn progress, void *parg,
                       const xmss_resume *resume, xmss_key **out)
{
    if (out == NULL || seed == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    if (p == NULL || (p->kind != XMSS_KIND_XMSS && p->kind != XMSS_KIND_XMSSMT))
        return FASTSIG_ERR_BAD_PARAM;
    if (seedlen != 3u * p->n)
        return FASTSIG_ERR_BAD_LENGTH;
    xmss_key *k;
    int rc = xmss_key_new(p, seed, seed + p->n, seed + 2 * p->n, &k);
    if (rc != FASTSIG_OK)
        return rc;
    unsigned top = p->d - 1;
    int lower = p->tree_h <= XMSS_BOTTOM_H; /* cheap: prepare every layer */
    k->threads = clamp_threads(threads);
    k->progress = progress;
    k->parg = parg;
    if (resume != NULL && (resume->have > xmss_keygen_pieces(p)
                           || (resume->have != 0 && resume->roots == NULL))) {
        xmss_key_free(k);
        return FASTSIG_ERR_BAD_PARAM;
    }
    k->resume = resume;
    k->pdone = 0;
    k->ptotal = ((uint64_t)1 << p->tree_h) * (lower ? p->d : 1);
    rc = xmss_ensure_layer(k, top, 0);
    if (rc == FASTSIG_OK)
        memcpy(k->root, xmss_layer_root(k, top), p->n);
    for (unsigned L = 0; lower && L < top && rc == FASTSIG_OK; L++)
        rc = xmss_ensure_layer(k, L, 0);
    k->progress = NULL;
    k->resume = NULL;
    k->threads = 2;
    k->checked = 1; /* the root is the seeds' by construction */
    if (rc != FASTSIG_OK) {
        xmss_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}
