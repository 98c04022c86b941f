/* chains.c - the WOTS+ chain function of hash.h on many chains at once,
 * and its two walks (chains.h): the lane walk, any parameters on the lane
 * engine's kernels, and the fused walk, 16-lane groups on the fused kernel
 * (sha256_chain.h) for the parameters that have one. */
#include <string.h>
#include "fastsig_err.h"
#include "hash/chains.h"
#include "hash/hash_internal.h"

/* The chain walk keeps up to MAX_SLOTS chains in flight (several kernel
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
    size_t pbase;      /* this phase's first PRF pair (key, bitmask) */
} slot;

#define MAX_SLOTS 128
#define PRF_POOL (2 * MAX_SLOTS)
/* Bytes of padded messages: 128 F slots and 256 PRFs of SHA-256 n = 32. */
#define CHAIN_ARENA 32768

void fs_chains_lanes(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                     const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                     size_t count)
{
    const fs_hash_params *p = &s->p;
    const fs_hash_keyed *kp = &s->prf;
    fs_hash_family fam = p->family;
    size_t n = p->n, next = 0, active = 0;
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
            uint32_t st = start ? start[c] : 0;
            if (steps[c] == 0) {
                memmove(out + c * n, in + c * n, n);
                continue;
            }
            size_t i = active++;
            if (i == fill) { /* first use: the constant prefix and padding */
                fs_copy(fm + i * fbytes, tm.mtmpl, fbytes);
                fptr[i] = fm + i * fbytes;
                fill++;
            }
            sl[i] = (slot){ c, st, st + steps[c], 0 };
            fs_copy(fm + i * fbytes + xoff, in + c * n, n);
        }
        if (active == 0)
            break;
        /* the PRF pairs of up to R rounds of each slot, slot by slot */
        size_t R = pool / (2 * active), np = 0;
        for (size_t i = 0; i < active; i++) {
            uint32_t left = sl[i].end - sl[i].step, r = left < R ? left : (uint32_t)R;
            sl[i].pbase = np;
            for (uint32_t t = 0; t < r; t++, np++)
                for (unsigned km = 0; km < 2; km++) {
                    uint8_t *a = pm + (2 * np + km) * pbytes + aoff;
                    fs_copy(a, adrs + sl[i].chain * FS_HASH_ADRS_BYTES, FS_HASH_ADRS_BYTES);
                    fs_adrs_set_word(a, FS_ADRS_HASH, sl[i].step + t);
                    fs_adrs_set_word(a, FS_ADRS_KEYMASK, km);
                }
        }
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
            /* Advance; finished chains leave, the last slot fills the gap. */
            for (size_t i = 0; i < active;) {
                if (++sl[i].step < sl[i].end) {
                    i++;
                    continue;
                }
                fs_copy(out + sl[i].chain * n, fm + i * fbytes + xoff, n);
                active--;
                if (i == active)
                    continue;
                sl[i] = sl[active];
                fs_copy(fm + i * fbytes + xoff, fm + active * fbytes + xoff, n);
            }
        }
    }
    /* chain values and their F keys are secret; the PRFs are of PUB_SEED */
    explicit_bzero(fm, fill * fbytes);
}

/* ---- the fused walk -------------------------------------------------------
 * Chains enter longest first, so that the last calls are not left with one
 * long chain among idle lanes; each call runs as many steps as the shortest
 * active chain has left, then finished chains leave and waiting ones take
 * their lanes. When no chain waits and only a few remain, they finish on
 * the lane walk, whose narrower kernels waste less. */

enum { L = FS_CHAIN_LANES, N = 32, ADRS = FS_HASH_ADRS_BYTES };
/* At most this many chains left over go to the lane walk. */
#define TAIL 6
/* Chains sorted per call at most (more keep their order). */
#define SORT_MAX 2048

/* order[] = chain indices by steps, longest first (a counting sort; the
 * step counts are the public base-w digits). Returns 0 when it left the
 * natural order (too many chains, or counts too large to bucket). */
static int sort_longest_first(uint16_t *order, const uint32_t *steps, size_t count)
{
    enum { BUCKETS = 256 };
    uint16_t at[BUCKETS] = { 0 };
    if (count > SORT_MAX)
        return 0;
    for (size_t c = 0; c < count; c++)
        if (steps[c] >= BUCKETS)
            return 0;
    for (size_t c = 0; c < count; c++)
        at[steps[c]]++;
    for (unsigned b = BUCKETS - 1, pos = 0; b < BUCKETS; b--) { /* ends at the wrap */
        unsigned n = at[b];
        at[b] = (uint16_t)pos;
        pos += n;
    }
    for (size_t c = 0; c < count; c++)
        order[at[steps[c]]++] = (uint16_t)c;
    return 1;
}

void fs_chains_fused(fs_sha256_chain_fn *fn, const fs_hash_seeds *s, uint8_t *out,
                     const uint8_t *in, const uint8_t *adrs, const uint32_t *start,
                     const uint32_t *steps, size_t count)
{
    _Alignas(64) uint32_t x[8 * L], a[7 * L];
    uint16_t order[SORT_MAX];
    size_t chain[L], next = 0;
    uint32_t left[L] = { 0 };
    int sorted = sort_longest_first(order, steps, count);
    for (;;) {
        unsigned busy = 0;
        for (unsigned l = 0; l < L; l++) {
            while (left[l] == 0 && next < count) {
                size_t c = sorted ? order[next++] : next++;
                if (steps[c] == 0) {
                    memmove(out + c * N, in + c * N, N);
                    continue;
                }
                chain[l] = c;
                left[l] = steps[c];
                for (unsigned i = 0; i < 8; i++)
                    x[i * L + l] = fs_be32_load(in + c * N + 4 * i);
                for (unsigned i = 0; i < FS_ADRS_HASH; i++)
                    a[i * L + l] = fs_be32_load(adrs + c * ADRS + 4 * i);
                a[FS_ADRS_HASH * L + l] = start ? start[c] : 0;
            }
            busy += left[l] != 0;
        }
        if (busy == 0)
            break;
        if (next == count && busy <= TAIL)
            break;
        uint32_t k = UINT32_MAX;
        for (unsigned l = 0; l < L; l++)
            if (left[l] != 0 && left[l] < k)
                k = left[l];
        fn(x, a, s->prf.mid.w32, k); /* idle lanes hash stale values, unused */
        for (unsigned l = 0; l < L; l++) {
            if (left[l] == 0)
                continue;
            left[l] -= k;
            if (left[l] == 0)
                for (unsigned i = 0; i < 8; i++)
                    fs_be32_store(out + chain[l] * N + 4 * i, x[i * L + l]);
        }
    }
    /* the few chains left: through the lane walk, from where they are */
    uint8_t tin[TAIL * N], tout[TAIL * N], tadrs[TAIL * ADRS];
    uint32_t tstart[TAIL], tsteps[TAIL];
    size_t t = 0, tchain[TAIL];
    for (unsigned l = 0; l < L; l++) {
        if (left[l] == 0)
            continue;
        for (unsigned i = 0; i < 8; i++)
            fs_be32_store(tin + t * N + 4 * i, x[i * L + l]);
        memcpy(tadrs + t * ADRS, adrs + chain[l] * ADRS, ADRS);
        tstart[t] = a[FS_ADRS_HASH * L + l];
        tsteps[t] = left[l];
        tchain[t++] = chain[l];
    }
    if (t) {
        fs_chains_lanes(s, tout, tin, tadrs, tstart, tsteps, t);
        for (size_t j = 0; j < t; j++)
            memcpy(out + tchain[j] * N, tout + j * N, N);
    }
    /* chain values are secret (sk-derived when signing) */
    explicit_bzero(x, sizeof(x));
    explicit_bzero(tin, sizeof(tin));
    explicit_bzero(tout, sizeof(tout));
}

/* The fused kernel for s: SHA-256 with n = pad = 32 and a selection that
 * has one; else NULL. */
static fs_sha256_chain_fn *fused_kernel(const fs_hash_seeds *s)
{
    const fs_hash_params *p = &s->p;
    if (p->family == FS_HASH_SHA256 && p->n == N && p->pad == N && s->prf.restlen == 0)
        return fs_lanes_chain_kernel();
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
    if (rc != FASTSIG_OK)
        return rc;
    fs_sha256_chain_fn *fused = fused_kernel(s);
    if (fused != NULL)
        fs_chains_fused(fused, s, out, in, adrs, start, steps, count);
    else
        fs_chains_lanes(s, out, in, adrs, start, steps, count);
    return FASTSIG_OK;
}
