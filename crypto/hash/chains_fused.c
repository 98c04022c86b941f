/* chains_fused.c - the WOTS+ chain walk in fused 16-lane groups
 * (chains_fused.h). Chains enter longest first, so that the last calls are
 * not left with one long chain among idle lanes; each call runs as many
 * steps as the shortest active chain has left, then finished chains leave
 * and waiting ones take their lanes. When no chain waits and only a few
 * remain, they finish on the lane walk, whose narrower kernels waste less. */
#include <string.h>
#include "hash/chains_fused.h"
#include "hash/lanes.h"

enum { L = FS_CHAIN_LANES, N = 32, ADRS = FS_HASH_ADRS_BYTES, HASH_WORD = 6 };
/* At most this many chains left over go to the lane walk. */
#define TAIL 6
/* Chains sorted per call at most (more keep their order). */
#define SORT_MAX 2048

fs_sha256_chain_fn *fs_chains_fused_kernel(const fs_hash_seeds *s)
{
#if defined(FASTSIG_HAVE_ASM)
    const fs_hash_params *p = &s->p;
    if (p->family == FS_HASH_SHA256 && p->n == N && p->pad == N && s->prf.restlen == 0
        && fs_lanes_width(FS_HASH_SHA256) == L)
        return fs_sha256_chain_x16_avx512;
#endif
    (void)s;
    return NULL;
}

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
                for (unsigned i = 0; i < HASH_WORD; i++)
                    a[i * L + l] = fs_be32_load(adrs + c * ADRS + 4 * i);
                a[HASH_WORD * L + l] = start ? start[c] : 0;
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
        tstart[t] = a[HASH_WORD * L + l];
        tsteps[t] = left[l];
        tchain[t++] = chain[l];
    }
    if (t) {
        fs_hash_chains_lanes(s, tout, tin, tadrs, tstart, tsteps, t);
        for (size_t j = 0; j < t; j++)
            memcpy(out + tchain[j] * N, tout + j * N, N);
    }
    /* chain values are secret (sk-derived when signing) */
    explicit_bzero(x, sizeof(x));
    explicit_bzero(tin, sizeof(tin));
    explicit_bzero(tout, sizeof(tout));
}
