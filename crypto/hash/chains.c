/* chains.c - the WOTS+ row of the chain walker (chain_walk.h) and the
 * chain function of hash.h on it: its lane words (ADRS words 0..6 of the
 * caller's ADRS and start), its fused kernel, and its block walk, the lane
 * walk, any parameters on the lane engine's kernels. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "fastsig_err.h"
#include "hash/chains.h"
#include "hash/hash_internal.h"

/* The lane walk keeps up to MAX_SLOTS chains in flight (several kernel
 * widths, so each round's fixed costs are shared by many chains). A phase
 * first computes the keys and bitmasks (PRFs of public ADRS, independent
 * of the chain values) of the next R rounds of every slot in one batch,
 * R as many as the PRF pool holds, then runs R rounds of F. Each slot keeps
 * F's message toByte(0) || KEY || x padded in place; x lives there between
 * steps (F's digest is written back over it). PRF messages come from a
 * pool padded once per call. */
typedef struct {
    size_t chain;      /* index into the caller's arrays */
    uint32_t step, end;
    uint8_t adrs[FS_HASH_ADRS_BYTES]; /* words 0..5 set, 6 and 7 per PRF */
    size_t pbase;      /* this phase's first PRF pair (key, bitmask) */
} slot;

#ifdef FASTSIG_SMALL_STACK /* libfastsig-verify: one lane per kernel call anyway */
#define MAX_SLOTS 8
#define CHAIN_ARENA 2048
#else
#define MAX_SLOTS 128
/* Bytes of padded messages: 128 F slots and 256 PRFs of SHA-256 n = 32. */
#define CHAIN_ARENA 32768
#endif
#define PRF_POOL (2 * MAX_SLOTS)

/* The PRF message of slot t rounds ahead, key (km 0) or bitmask (km 1). */
static void prf_adrs(uint8_t *a, const slot *sl, uint32_t t, unsigned km)
{
    fs_copy(a, sl->adrs, FS_HASH_ADRS_BYTES);
    fs_adrs_set_word(a, FS_ADRS_HASH, sl->step + t);
    fs_adrs_set_word(a, FS_ADRS_KEYMASK, km);
}

/* Queues the PRF pairs of up to R rounds of each slot, slot by slot, in
 * the pool's messages (ADRS at aoff); returns the pairs queued. */
static size_t queue_prfs(slot *sl, size_t active, size_t R, uint8_t *pm, size_t pbytes,
                         size_t aoff)
{
    size_t np = 0;
    for (size_t i = 0; i < active; i++) {
        uint32_t left = sl[i].end - sl[i].step, r = left < R ? left : (uint32_t)R;
        sl[i].pbase = np;
        for (uint32_t t = 0; t < r; t++, np++)
            for (unsigned km = 0; km < 2; km++)
                prf_adrs(pm + (2 * np + km) * pbytes + aoff, &sl[i], t, km);
    }
    return np;
}

/* Advances every slot a step; finished chains leave (their values to the
 * list's out), the last slot fills the gap. Returns the slots still active. */
static size_t advance(slot *sl, size_t active, uint8_t *fm, size_t fbytes, size_t xoff, size_t n,
                      const fs_chain_list *cl)
{
    for (size_t i = 0; i < active;) {
        if (++sl[i].step < sl[i].end) {
            i++;
            continue;
        }
        fs_copy(cl->out + sl[i].chain * n, fm + i * fbytes + xoff, n);
        active--;
        if (i == active)
            continue;
        sl[i] = sl[active];
        fs_copy(fm + i * fbytes + xoff, fm + active * fbytes + xoff, n);
    }
    return active;
}

static int lane_walk(const fs_chain_walk *w, const fs_chain_list *cl)
{
    const fs_hash_seeds *s = w->ctx;
    const fs_hash_params *p = &s->p;
    const fs_hash_keyed *kp = &s->prf;
    fs_hash_family fam = p->family;
    size_t n = p->n, next = 0, active = 0, count = cl->count;
    /* padded templates: PRF = rest || ADRS, F = rest || KEY || x */
    fs_hash_tmpl tm;
    fs_hash_tmpl_init(&tm, s, FS_DOM_F, n);
    size_t aoff = tm.aoff, koff = tm.koff, xoff = koff + n, pbytes = tm.pbytes, fbytes = tm.mbytes;
    /* every chain at once when they fit (a WOTS+ key's 67 chains of equal
     * length would otherwise leave a tail of nearly empty rounds) */
    size_t nslots = count, fill = 0;
    if (nslots > CHAIN_ARENA / (2 * pbytes + fbytes))
        nslots = CHAIN_ARENA / (2 * pbytes + fbytes);
    nslots = nslots < 1 ? 1 : nslots > MAX_SLOTS ? MAX_SLOTS : nslots;
    size_t pool = (CHAIN_ARENA - nslots * fbytes) / pbytes; /* >= 2 * nslots */
    pool = pool > PRF_POOL ? PRF_POOL : pool;
    _Alignas(64) uint8_t arena[CHAIN_ARENA];
    uint8_t *fm = arena, *pm = arena + nslots * fbytes;
    const uint8_t *pptr[PRF_POOL], *fptr[MAX_SLOTS];
    uint8_t prf[PRF_POOL * FS_HASH_MAX_N];
    slot sl[MAX_SLOTS];
    for (size_t j = 0; j < pool; j++) {
        fs_copy(pm + j * pbytes, tm.ptmpl, pbytes);
        pptr[j] = pm + j * pbytes;
    }
    for (;;) {
        /* Refill free slots; chains with no steps are copied through. */
        while (active < nslots && next < count) {
            size_t c = next++;
            uint32_t aw[FS_CHAIN_MAX_WORDS], steps = cl->load(cl->src, c, aw, 1);
            const uint8_t *src = cl->in + c * cl->in_stride;
            if (steps == 0) {
                fs_move(cl->out + c * n, src, n);
                continue;
            }
            size_t i = active++;
            if (i == fill) { /* first use: the constant prefix and padding */
                fs_copy(fm + i * fbytes, tm.mtmpl, fbytes);
                fptr[i] = fm + i * fbytes;
                fill++;
            }
            sl[i] = (slot){ c, aw[FS_ADRS_HASH], aw[FS_ADRS_HASH] + steps, { 0 }, 0 };
            for (unsigned k = 0; k < FS_ADRS_HASH; k++)
                fs_adrs_set_word(sl[i].adrs, k, aw[k]);
            fs_copy(fm + i * fbytes + xoff, src, n);
        }
        if (active == 0)
            break;
        size_t R = pool / (2 * active), np = queue_prfs(sl, active, R, pm, pbytes, aoff);
        fs_lanes_run_ptrs(fam, &kp->mid, pptr, tm.pnb, prf, n, n, 2 * np, 0);
        for (size_t t = 0; t < R && active; t++) {
            for (size_t i = 0; i < active; i++) {
                uint8_t *f = fm + i * fbytes;
                const uint8_t *key = prf + 2 * (sl[i].pbase + t) * n, *bm = key + n;
                fs_copy(f + koff, key, n);
                for (size_t j = 0; j < n; j++)
                    f[xoff + j] ^= bm[j];
            }
            fs_lanes_run_ptrs(fam, &tm.k.mid, fptr, tm.mnb, fm + xoff, fbytes, n, active, 1);
            active = advance(sl, active, fm, fbytes, xoff, n, cl);
        }
    }
    /* chain values and their F keys are secret; the PRFs are of PUB_SEED */
    fs_wipe(fm, fill * fbytes);
    return FASTSIG_OK;
}

static const fs_chain_row wots_row = { FS_CHAIN_WOTS, FS_CHAIN_MAX_WORDS, 6, lane_walk };

/* The caller's chains: ADRS bytes, start and steps arrays. */
typedef struct {
    const uint8_t *adrs;
    const uint32_t *start, *steps;
} wots_src;

static uint32_t wots_load(const void *src, size_t c, uint32_t *w, size_t wstride)
{
    const wots_src *ws = src;
    for (unsigned i = 0; w != NULL && i < FS_ADRS_HASH; i++)
        w[i * wstride] = fs_load_be32(ws->adrs + c * FS_HASH_ADRS_BYTES + 4 * i);
    if (w != NULL)
        w[FS_ADRS_HASH * wstride] = ws->start ? ws->start[c] : 0;
    return ws->steps[c];
}

/* fn NULL: the lane walk. */
static void walk(fs_chain_fn *fn, const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                 const uint8_t *adrs, const uint32_t *start, const uint32_t *steps, size_t count)
{
    wots_src src = { adrs, start, steps };
    const fs_chain_list cl = { count, in, s->p.n, out, wots_load, &src };
    fs_chain_walk w = { &wots_row, s, s->prf.mid.w32, s->p.n, 1 };
    (void)fs_chain_walk_run(fn, &w, &cl); /* the WOTS+ walks cannot fail */
}

void fs_chains_lanes(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                     const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                     size_t count)
{
    walk(NULL, s, out, in, adrs, start, steps, count);
}

void fs_chains_fused(fs_chain_fn *fn, const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                     const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                     size_t count)
{
    walk(fn, s, out, in, adrs, start, steps, count);
}

/* The fused kernel for s: SHA-256 with n = pad = 32 and a selection that
 * has one; else NULL. */
static fs_chain_fn *fused_kernel(const fs_hash_seeds *s)
{
    const fs_hash_params *p = &s->p;
    if (p->family == FS_HASH_SHA256 && p->n == 32 && p->pad == 32 && s->prf.restlen == 0)
        return fs_lanes_chain_kernel(FS_CHAIN_WOTS);
    return NULL;
}

int fs_hash_chains(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                   const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                   size_t count)
{
    int rc = fs_hash_check_seeds(s, out, in, count);
    if (rc == FASTSIG_OK && (adrs == NULL || steps == NULL))
        rc = FASTSIG_ERR_NULL_ARG;
    for (size_t c = 0; rc == FASTSIG_OK && c < count; c++)
        if ((uint64_t)(start ? start[c] : 0) + steps[c] > UINT32_MAX)
            rc = FASTSIG_ERR_BAD_PARAM;
    if (rc == FASTSIG_OK)
        walk(fused_kernel(s), s, out, in, adrs, start, steps, count);
    return rc;
}
