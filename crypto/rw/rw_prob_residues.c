/* rw_prob_residues.c - the probabilistic check's residue rows
 * (rw_residues_table, "rw-residues"): numbers modulo both secret primes as
 * sums of limb products, portable (64-bit) and AVX-512 IFMA (the powers of 2
 * mod a prime split into 52 + 9 bits for its 52-bit multiplier); both give
 * the same numbers (the tests compare them). */
#include "rw/rw_prob.h"

/* x * 2^-64 mod p for nn-limb numbers x[0], x[1] at once (two independent
 * carry chains side by side: one alone is bound by its add latency; more
 * spill registers): the sum
 * of limb * (2^(64 i) mod p) in 192 bits, folded below p * 2^64 (one 64-bit
 * division), then reduced. Every residue carries the same factor 2^-64, so
 * equations still compare. */
#define NRES 2
static void residues(const mp_limb_t *const x[NRES], size_t nn, const prob_prime *pp,
                     uint64_t out[NRES])
{
    unsigned __int128 acc[NRES] = { 0 };
    uint64_t hi[NRES] = { 0 };
    for (size_t i = 0; i < nn; i++) {
        uint64_t w = pp->w[i];
        for (int j = 0; j < NRES; j++) {
            unsigned __int128 t = acc[j] + (unsigned __int128)x[j][i] * w;
            hi[j] += t < acc[j];
            acc[j] = t;
        }
    }
    for (int j = 0; j < NRES; j++)
        out[j] = fold192((const uint64_t[3]){ (uint64_t)acc[j], (uint64_t)(acc[j] >> 64), hi[j] },
                         pp);
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
#include <immintrin.h>
#define TARGET __attribute__((target("avx512f,avx512ifma")))

/* The same residues (x * 2^-64 mod p) of the NRES4 numbers x[] (a NULL
 * x[j] is skipped: out[.][j] left as it was) modulo both primes with 52-bit multiply-adds: each limb
 * splits into 32-bit halves a, weighted by W = 2^(64 i) and 2^(64 i + 32)
 * mod p (< 2^61), and W into Wl (52 bits) + Wh * 2^52 (Wh < 2^9). Per number
 * and prime one vector sums the low halves of a * Wl (weight 1), one their
 * high halves and one a * Wh (< 2^41): both weight 2^52, apart only to keep
 * the multiply-add chains short. Lane sums < 2^62 up to 16384-bit moduli,
 * folded as lo + hi * 2^52 (< 2^124 <= p * 2^64) by one redc. */

/* The lane sums of v[0..7] as one vector (lane i: sum of v[i]): pairs of
 * vectors, then pairs of those, folded by unpacks and 128-bit shuffles. */
static inline __attribute__((always_inline)) TARGET __m512i hsum8(const __m512i v[8])
{
    __m512i t[4], u[2];
    for (int i = 0; i < 4; i++)      /* 128-bit lane L: (v[2i], v[2i+1]) over words 2L, 2L+1 */
        t[i] = _mm512_add_epi64(_mm512_unpacklo_epi64(v[2 * i], v[2 * i + 1]),
                                _mm512_unpackhi_epi64(v[2 * i], v[2 * i + 1]));
    for (int i = 0; i < 2; i++)      /* lanes 0/2 plus lanes 1/3 */
        u[i] = _mm512_add_epi64(_mm512_shuffle_i64x2(t[2 * i], t[2 * i + 1], 0x88),
                                _mm512_shuffle_i64x2(t[2 * i], t[2 * i + 1], 0xdd));
    return _mm512_add_epi64(_mm512_shuffle_i64x2(u[0], u[1], 0x88),
                            _mm512_shuffle_i64x2(u[0], u[1], 0xdd));
}

static TARGET void residues_ifma(const mp_limb_t *const x[NRES4], size_t nn,
                                 const prob_prime P[2], uint64_t out[2][NRES4])
{
    const __m512i m32 = _mm512_set1_epi64(0xffffffffLL), z = _mm512_setzero_si512();
    /* L<q><j>, H<q><j>, G<q><j>: the sums of number j, prime q (named
     * variables: an array of them would live on the stack) */
    __m512i L00 = z, L01 = z, L02 = z, L03 = z, L10 = z, L11 = z, L12 = z, L13 = z;
    __m512i H00 = z, H01 = z, H02 = z, H03 = z, H10 = z, H11 = z, H12 = z, H13 = z;
    __m512i G00 = z, G01 = z, G02 = z, G03 = z, G10 = z, G11 = z, G12 = z, G13 = z;
    for (size_t i = 0; i < nn; i += 8) {
        __mmask8 m = nn - i >= 8 ? 0xff : (__mmask8)((1u << (nn - i)) - 1);
        const uint64_t(*w0)[8] = P[0].ifw[i / 8], (*w1)[8] = P[1].ifw[i / 8];
#define W(q, r) _mm512_load_si512(w##q[r])
#define RES_PRIME(q, j, a, b)                                                          \
        do {                                                                           \
            L##q##j = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(L##q##j, a, W(q, 0)), b, W(q, 2)); \
            H##q##j = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(H##q##j, a, W(q, 0)), b, W(q, 2)); \
            G##q##j = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(G##q##j, a, W(q, 1)), b, W(q, 3)); \
        } while (0)
#define RES_STEP(j)                                                                    \
        do {                                                                           \
            __m512i v = _mm512_maskz_loadu_epi64(m, x[j] + i);                         \
            __m512i a = _mm512_and_si512(v, m32), b = _mm512_srli_epi64(v, 32);        \
            RES_PRIME(0, j, a, b);                                                     \
            RES_PRIME(1, j, a, b);                                                     \
        } while (0)
        if (x[0] != NULL)
            RES_STEP(0);
        if (x[1] != NULL)
            RES_STEP(1);
        if (x[2] != NULL)
            RES_STEP(2);
        if (x[3] != NULL)
            RES_STEP(3);
#undef RES_STEP
#undef RES_PRIME
#undef W
    }
    const __m512i lo[2 * NRES4] = { L00, L01, L02, L03, L10, L11, L12, L13 };
    const __m512i hi[2 * NRES4] = {
        _mm512_add_epi64(H00, G00), _mm512_add_epi64(H01, G01), _mm512_add_epi64(H02, G02),
        _mm512_add_epi64(H03, G03), _mm512_add_epi64(H10, G10), _mm512_add_epi64(H11, G11),
        _mm512_add_epi64(H12, G12), _mm512_add_epi64(H13, G13)
    };
    uint64_t l[2][NRES4], h[2][NRES4];
    _mm512_storeu_si512(l, hsum8(lo));   /* lane q * NRES4 + j */
    _mm512_storeu_si512(h, hsum8(hi));
    for (int q = 0; q < 2; q++)
        for (int j = 0; j < NRES4; j++)
            if (x[j] != NULL)
                out[q][j] = redc((unsigned __int128)h[q][j] * P[q].r52 + l[q][j], &P[q]);
}

/* h * 2^-192 mod both primes (out[q]) straight from the hash's two-lane
 * state (rw_fdh_dot), with W[q] the state-order weights of thread_state (rw_prob.c):
 * each 8-word vector is byte-swapped into limbs (h's top bit cleared) and
 * weighted in place, so h is never written out. Ordered for latency (it
 * follows the hash on the critical path): each vector's products start from
 * zero (two multiply-adds deep), then adds and one horizontal sum. */
static __attribute__((target("avx512f,avx512bw,avx512ifma"))) void
residue_state_ifma(const uint64_t *st, const uint64_t (*const W[2])[4][8], const prob_prime P[2],
                   uint64_t out[2])
{
    const __m512i m32 = _mm512_set1_epi64(0xffffffffLL), z = _mm512_setzero_si512();
    const __m512i swap = _mm512_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                                         8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                                         8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                                         8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    __m512i lo[2][SW_VECS], hi[2][SW_VECS];
#pragma GCC unroll 8
    for (int u = 0; u < SW_VECS; u++) {
        __m512i v = _mm512_shuffle_epi8(_mm512_loadu_si512(st + 8 * u), swap);
        if (u == 0)   /* word 0 of lane 0 is h's top limb */
            v = _mm512_mask_and_epi64(v, 1, v, _mm512_set1_epi64(INT64_MAX));
        __m512i a = _mm512_and_si512(v, m32), b = _mm512_srli_epi64(v, 32);
#pragma GCC unroll 2
        for (int q = 0; q < 2; q++) {
            const uint64_t(*w)[8] = W[q][u];
            __m512i wl = _mm512_load_si512(w[0]), wh = _mm512_load_si512(w[1]);
            __m512i ul = _mm512_load_si512(w[2]), uh = _mm512_load_si512(w[3]);
            __m512i l = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(z, a, wl), b, ul);
            __m512i h = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(z, a, wl), b, ul);
            __m512i g = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(z, a, wh), b, uh);
            lo[q][u] = l;
            hi[q][u] = _mm512_add_epi64(h, g);
        }
    }
    __m512i v[8] = { z, z, z, z, z, z, z, z };   /* lo0, hi0, lo1, hi1: sums as trees */
    for (int q = 0; q < 2; q++) {
        v[2 * q] = _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(lo[q][0], lo[q][1]),
                                                     _mm512_add_epi64(lo[q][2], lo[q][3])),
                                    lo[q][4]);
        v[2 * q + 1] = _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(hi[q][0], hi[q][1]),
                                                         _mm512_add_epi64(hi[q][2], hi[q][3])),
                                        hi[q][4]);
    }
    uint64_t r[8];
    _mm512_storeu_si512(r, hsum8(v));
    for (int q = 0; q < 2; q++)
        out[q] = redc((unsigned __int128)r[2 * q + 1] * P[q].r52 + r[2 * q], &P[q]);
}

#endif

/* Residues of x[0..3] modulo both primes (all scaled by 2^-64); a NULL x[j]
 * is skipped (out[.][j] left as it was). The "portable" row. */
static void residues_portable(const mp_limb_t *const x[NRES4], size_t nn, const prob_prime P[2],
                              uint64_t out[2][NRES4])
{
    int idx[NRES4], n = 0;
    for (int j = 0; j < NRES4; j++)
        if (x[j] != NULL)
            idx[n++] = j;
    for (int i = 0; i < n; i += NRES) {      /* pairs; a lone last one twice */
        int a = idx[i], b = idx[i + 1 < n ? i + 1 : i];
        const mp_limb_t *const pair[NRES] = { x[a], x[b] };
        for (int q = 0; q < 2; q++) {
            uint64_t r[NRES];
            residues(pair, nn, &P[q], r);
            out[q][a] = r[0];
            out[q][b] = r[1];
        }
    }
}

/* The rows (residues_fn, residue_state_fn: rw_prob.h). */
static const fs_kernel residue_rows[] = {
    { "portable", FS_KERNEL_FN(residues_portable), NULL, 1, 0, 0, 100 },
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "ifma", FS_KERNEL_FN(residues_ifma), FS_KERNEL_FN(residue_state_ifma), 1,
      RW_IFMA_CPU, 0, 40 },
#endif
    FS_KERNEL_END,
};

FS_KERNEL_TABLE(rw_residues_table, "rw-residues", residue_rows, NULL);
