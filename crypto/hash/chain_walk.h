/* chain_walk.h - internal: the one chain walker behind fs_hash_chains
 * (WOTS+) and fs_hash_lmots_chains (LM-OTS), parameterised by a step
 * descriptor, a row per scheme.
 *
 * A chain is its n-byte value, its lane words (what its step's message is
 * built from besides the value, as the fused kernels hold it: WOTS+ ADRS
 * words 0..6, LM-OTS q and i << 16 | j << 8; the kernel advances the step
 * counter in them) and its steps. A row says which fused kernel serves it,
 * how many lane words it has, and how its chains walk on the lane engine
 * (the block walk: any family, any count). fs_chain_walk_run runs the fused
 * kernel when there is one: 16 lanes, chains entering longest first, each
 * call as many steps as the shortest active chain has left, a finished
 * chain's lane refilled with the next; the last few chains finish on the
 * row's block walk from where they are (the tail). Results are the same
 * bytes whichever walk runs. */
#ifndef FASTSIG_HASH_CHAIN_WALK_H
#define FASTSIG_HASH_CHAIN_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "hash/lanes.h"
#include "hash/sha256_chain.h"

/* The chains of one call in a caller's layout: chain c starts from
 * in + c*in_stride and ends at out + c*n (in == out allowed). load writes
 * chain c's lane words at its first step to w[k*wstride] (unless w is NULL)
 * and returns its steps. */
typedef uint32_t fs_chain_load_fn(const void *src, size_t c, uint32_t *w, size_t wstride);
typedef struct fs_chain_list {
    size_t count;
    const uint8_t *in;
    size_t in_stride;
    uint8_t *out;
    fs_chain_load_fn *load;
    const void *src;
} fs_chain_list;

typedef struct fs_chain_walk fs_chain_walk;

/* A scheme's step descriptor. */
typedef struct {
    fs_chain_kind kind; /* the fused kernel row that serves it */
    unsigned words;     /* lane words per chain (<= FS_CHAIN_MAX_WORDS) */
    unsigned tail;      /* at most this many chains left over go to the block walk */
    /* walks every chain of cl on the lane engine; FASTSIG_OK or an error */
    int (*blocks)(const fs_chain_walk *w, const fs_chain_list *cl);
} fs_chain_row;

/* One call: the row, its context (seeds, identifier, hash), the fused
 * kernel's key words, n, and whether chain values are secret (wiped). */
struct fs_chain_walk {
    const fs_chain_row *row;
    const void *ctx;
    const uint32_t *key;
    unsigned n;
    int secret;
};

/* The walker's hot paths are inline, forced: a row's entry point that
 * passes its own static load gets them with the load inlined (no call per
 * chain). */
#define FS_CHAIN_INLINE static inline __attribute__((always_inline))
_Static_assert(FS_CHAIN_LANES < 32, "lane masks are 32 bits");
/* Chains sorted per call at most (more keep their order); the device
 * verifier's build (FASTSIG_SMALL_STACK) sorts one key's (265 LM-OTS
 * chains at most). */
#ifdef FASTSIG_SMALL_STACK
#define FS_CHAIN_SORT_MAX 272
#else
#define FS_CHAIN_SORT_MAX 2048
#endif
/* Most chains a row leaves to its block walk. */
#define FS_CHAIN_TAIL_MAX 8

/* order[] = chain indices by steps, longest first (a counting sort: the
 * step counts are public base-w digits). Returns 0, order untouched, when
 * a count exceeds FS_CHAIN_SORT_STEPS. */
#define FS_CHAIN_SORT_STEPS 256
FS_CHAIN_INLINE int fs_chain_order(uint32_t *order, const fs_chain_list *cl)
{
    fs_chain_load_fn *const load = cl->load; /* read once: a row's own load inlines */
    uint32_t at[FS_CHAIN_SORT_STEPS + 1], top = 0;
    /* the steps present only: verification's chains are short */
    for (size_t c = 0; c < cl->count; c++) {
        order[c] = load(cl->src, c, NULL, 0);
        if (order[c] > FS_CHAIN_SORT_STEPS)
            return 0;
        top = order[c] > top ? order[c] : top;
    }
    memset(at, 0, (top + 1) * sizeof(*at));
    for (size_t c = 0; c < cl->count; c++)
        at[order[c]]++;
    for (uint32_t b = top, pos = 0; b <= top; b--) { /* ends at the wrap */
        uint32_t n = at[b];
        at[b] = pos;
        pos += n;
    }
    for (size_t c = 0; c < cl->count; c++)
        order[at[load(cl->src, c, NULL, 0)]++] = (uint32_t)c;
    return 1;
}

/* The chains a fused walk leaves in its lanes (left[l] steps each, words
 * in x and lw): through the row's block walk, from where they are. */
int fs_chain_finish_tail(const fs_chain_walk *w, const fs_chain_list *cl, const uint32_t *x,
                         const uint32_t *lw, const uint32_t *left, const size_t *chain);

/* Lane l takes the next waiting chain that has steps (chains without are
 * copied through). Returns 0 when none waits. */
FS_CHAIN_INLINE int fs_chain_refill_lane(const fs_chain_list *cl, fs_chain_load_fn *load,
                                         unsigned n, const uint32_t *order, size_t *next,
                                         unsigned l, uint32_t *x, uint32_t *lw, uint32_t *left,
                                         size_t *chain)
{
    while (*next < cl->count) {
        size_t c = order ? order[(*next)++] : (*next)++;
        const uint8_t *src = cl->in + c * cl->in_stride;
        uint32_t steps = load(cl->src, c, lw + l, FS_CHAIN_LANES);
        if (steps == 0) {
            fs_move(cl->out + c * n, src, n);
            continue;
        }
        chain[l] = c;
        left[l] = steps;
        for (unsigned k = 0; k < n / 4; k++)
            x[k * FS_CHAIN_LANES + l] = fs_load_be32(src + 4 * k);
        return 1;
    }
    return 0;
}

/* Sixteen lanes; each call runs as many steps as the shortest active chain
 * has left, then finished chains leave and waiting ones take their lanes.
 * When no chain waits and only a few remain, they finish on the block
 * walk, whose narrower kernels waste less than sixteen lanes mostly idle.
 * The lane bookkeeping is branch-free on masks so that its cost stays
 * small beside a call's steps. */
FS_CHAIN_INLINE int fs_chain_walk_fused_n(fs_chain_fn *fn, const fs_chain_walk *w,
                                          const fs_chain_list *cl, const unsigned n)
{
    enum { L = FS_CHAIN_LANES };
    fs_chain_load_fn *const load = cl->load; /* read once: a row's own load inlines */
    /* idle lanes hash whatever their words hold; only x is wiped after */
    _Alignas(64) uint32_t x[8 * L], lw[FS_CHAIN_MAX_WORDS * L];
    uint32_t left[L] = { 0 }, order[FS_CHAIN_SORT_MAX];
    size_t chain[L], next = 0;
    int sorted = cl->count <= FS_CHAIN_SORT_MAX && fs_chain_order(order, cl);
    unsigned tail = w->row->tail < FS_CHAIN_TAIL_MAX ? w->row->tail : FS_CHAIN_TAIL_MAX;
    uint32_t busy = 0, refill = (1u << L) - 1;
    for (;;) {
        for (uint32_t m = refill; m != 0; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            busy |= (uint32_t)fs_chain_refill_lane(cl, load, n, sorted ? order : NULL, &next, l,
                                                     x, lw, left, chain) << l;
        }
        if (busy == 0 || (next == cl->count && (unsigned)__builtin_popcount(busy) <= tail))
            break;
        uint32_t k = UINT32_MAX; /* the shortest walk left; an idle lane's 0 wraps to the top */
        for (unsigned l = 0; l < L; l++)
            k = left[l] - 1u < k ? left[l] - 1u : k;
        k++;
        fn(x, lw, w->key, k, n); /* idle lanes hash stale values, unused */
        refill = 0;
        for (unsigned l = 0; l < L; l++) {
            refill |= (uint32_t)(left[l] == k) << l;
            left[l] -= left[l] != 0 ? k : 0;
        }
        busy &= ~refill;
        for (uint32_t m = refill; m != 0; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            for (unsigned j = 0; j < n / 4; j++)
                fs_store_be32(cl->out + chain[l] * n + 4 * j, x[j * L + l]);
        }
    }
    int rc = fs_chain_finish_tail(w, cl, x, lw, left, chain);
    if (w->secret) /* chain values are secret when signing and at keygen */
        fs_wipe(x, sizeof(x));
    return rc;
}

/* The fused kernels are SHA-256's: n is 32 or 24, each with its word loops
 * unrolled. */
FS_CHAIN_INLINE int fs_chain_walk_fused(fs_chain_fn *fn, const fs_chain_walk *w,
                                        const fs_chain_list *cl)
{
    if (w->n == 32)
        return fs_chain_walk_fused_n(fn, w, cl, 32);
    return fs_chain_walk_fused_n(fn, w, cl, 24);
}

/* Walks cl: on fn (a fused kernel of w->row's kind) when fn is set, else
 * on the row's block walk. FASTSIG_OK or the block walk's error. */
FS_CHAIN_INLINE int fs_chain_walk_run(fs_chain_fn *fn, const fs_chain_walk *w,
                                      const fs_chain_list *cl)
{
    if (fn != NULL && cl->count > 0)
        return fs_chain_walk_fused(fn, w, cl);
    return w->row->blocks(w, cl);
}

#endif
