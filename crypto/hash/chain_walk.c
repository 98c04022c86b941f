/* chain_walk.c - the chain walker's tail (chain_walk.h): the chains a
 * fused walk leaves in its lanes, finished on the row's block walk. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "fastsig_err.h"
#include "hash/chain_walk.h"
#include "hash/lanes.h"

enum { L = FS_CHAIN_LANES, NW = 8 };

/* The tail's chains, as a list for the row's block walk. */
typedef struct {
    uint32_t w[FS_CHAIN_TAIL_MAX][FS_CHAIN_MAX_WORDS], steps[FS_CHAIN_TAIL_MAX];
    unsigned words; /* the row's */
} tail_src;

static uint32_t tail_load(const void *src, size_t c, uint32_t *w, size_t wstride)
{
    const tail_src *t = src;
    for (unsigned k = 0; w != NULL && k < t->words; k++)
        w[k * wstride] = t->w[c][k];
    return t->steps[c];
}

int fs_chain_finish_tail(const fs_chain_walk *w, const fs_chain_list *cl, const uint32_t *x,
                         const uint32_t *lw, const uint32_t *left, const size_t *chain)
{
    const unsigned n = w->n;
    tail_src ts = { .words = w->row->words };
    uint8_t tin[FS_CHAIN_TAIL_MAX * 4 * NW], tout[FS_CHAIN_TAIL_MAX * 4 * NW];
    size_t t = 0, tchain[FS_CHAIN_TAIL_MAX];
    for (unsigned l = 0; l < L; l++) {
        if (left[l] == 0)
            continue;
        for (unsigned k = 0; k < n / 4; k++)
            fs_store_be32(tin + t * n + 4 * k, x[k * L + l]);
        for (unsigned k = 0; k < ts.words; k++)
            ts.w[t][k] = lw[k * L + l];
        ts.steps[t] = left[l];
        tchain[t++] = chain[l];
    }
    int rc = FASTSIG_OK;
    if (t) {
        fs_chain_list tl = { t, tin, n, tout, tail_load, &ts };
        rc = w->row->blocks(w, &tl);
    }
    for (size_t j = 0; rc == FASTSIG_OK && j < t; j++)
        memcpy(cl->out + tchain[j] * n, tout + j * n, n);
    if (w->secret && t) {
        fs_wipe(tin, t * n);
        fs_wipe(tout, t * n);
    }
    return rc;
}

