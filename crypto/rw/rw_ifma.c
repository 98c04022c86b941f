/* rw_ifma.c - see rw_ifma.h. Almost-Montgomery multiplication as in
 * OpenSSL's rsaz-avx512 (Gueron-Krasnov): per limb b_i of the multiplier,
 *   acc += a*b_i (low halves); y = acc_0 * k0 mod 2^52; acc += m*y (low);
 *   acc >>= one limb (carrying acc_0 >> 52); acc += high halves of both.
 * Outputs stay below 2m (4m < R); exponentiation by a fixed 5-bit window
 * with a constant-time table scan; one final conditional subtraction. */
#include <string.h>
#include "rw/rw_ifma.h"
#include "rw/rw_internal.h"
#include "cpu.h"

#define MASK52 ((1ULL << 52) - 1)
#define WIN 5

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
#include <immintrin.h>
#define TARGET __attribute__((target("avx512f,avx512bw,avx512ifma")))
/* (target attributes: the file builds without -mavx512*; callers check rw_ifma_usable) */

int rw_ifma_usable(void)
{
    return fs_cpu_allows(RW_IFMA_CPU);
}

/* Carries of 64-bit limbs into 52-bit limbs, in registers and constant
 * time: one vector step leaves at most a 1-bit carry per limb; those ripple
 * through all-ones limbs, resolved at once on the lane masks with one
 * integer addition (generate g, propagate p: carry-in = ((g << 1) + p) ^ p). */
static inline __attribute__((always_inline)) TARGET void normalize_nv(__m512i *X, const int NV)
{
    const __m512i m52 = _mm512_set1_epi64((long long)MASK52), zero = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi64(1);
    __m512i C[RW_IFMA_MAXNV];
    for (int k = 0; k < NV; k++) {
        C[k] = _mm512_srli_epi64(X[k], 52);
        X[k] = _mm512_and_si512(X[k], m52);
    }
    for (int k = 0; k < NV; k++)      /* carry of lane j into lane j + 1 */
        X[k] = _mm512_add_epi64(X[k], _mm512_alignr_epi64(C[k], k ? C[k - 1] : zero, 7));
    uint64_t g = 0, p = 0;
    for (int k = 0; k < NV; k++) {
        g |= (uint64_t)_mm512_cmpgt_epu64_mask(X[k], m52) << (8 * k);
        p |= (uint64_t)_mm512_cmpeq_epu64_mask(X[k], m52) << (8 * k);
        X[k] = _mm512_and_si512(X[k], m52);
    }
    uint64_t cin = ((g << 1) + p) ^ p;
    for (int k = 0; k < NV; k++) {
        X[k] = _mm512_mask_add_epi64(X[k], (__mmask8)(cin >> (8 * k)), X[k], one);
        X[k] = _mm512_and_si512(X[k], m52);
    }
}

/* r = a*b/R mod (2m), for both (a1,b1,c1) and (a2,b2,c2); r may alias a or b. */
static inline __attribute__((always_inline)) TARGET void
amm2_nv(uint64_t *r1, const uint64_t *a1, const uint64_t *b1, const rw_mont52 *c1,
        uint64_t *r2, const uint64_t *a2, const uint64_t *b2, const rw_mont52 *c2, const int NV)
{
    __m512i A1[RW_IFMA_MAXNV], M1[RW_IFMA_MAXNV], X1[RW_IFMA_MAXNV];
    __m512i A2[RW_IFMA_MAXNV], M2[RW_IFMA_MAXNV], X2[RW_IFMA_MAXNV];
    const __m512i zero = _mm512_setzero_si512();
    const __m512i k01 = _mm512_set1_epi64((long long)c1->k0), k02 = _mm512_set1_epi64((long long)c2->k0);
    for (int k = 0; k < NV; k++) {
        A1[k] = _mm512_loadu_si512(a1 + 8 * k);
        M1[k] = _mm512_loadu_si512(c1->m + 8 * k);
        A2[k] = _mm512_loadu_si512(a2 + 8 * k);
        M2[k] = _mm512_loadu_si512(c2->m + 8 * k);
        X1[k] = X2[k] = zero;
    }
    for (unsigned i = 0; i < c1->L; i++) {   /* c1->L == c2->L */
        /* products by b_i first, off the dependency chain through X */
        __m512i bi1 = _mm512_set1_epi64((long long)b1[i]), bi2 = _mm512_set1_epi64((long long)b2[i]);
        __m512i H1[RW_IFMA_MAXNV], H2[RW_IFMA_MAXNV];
        for (int k = 0; k < NV; k++) {
            X1[k] = _mm512_add_epi64(X1[k], _mm512_madd52lo_epu64(zero, A1[k], bi1));
            X2[k] = _mm512_add_epi64(X2[k], _mm512_madd52lo_epu64(zero, A2[k], bi2));
            H1[k] = _mm512_madd52hi_epu64(zero, A1[k], bi1);
            H2[k] = _mm512_madd52hi_epu64(zero, A2[k], bi2);
        }
        __m512i y1 = _mm512_permutexvar_epi64(zero, _mm512_madd52lo_epu64(zero, X1[0], k01));
        __m512i y2 = _mm512_permutexvar_epi64(zero, _mm512_madd52lo_epu64(zero, X2[0], k02));
        for (int k = 0; k < NV; k++) {
            X1[k] = _mm512_madd52lo_epu64(X1[k], M1[k], y1);
            X2[k] = _mm512_madd52lo_epu64(X2[k], M2[k], y2);
            H1[k] = _mm512_madd52hi_epu64(H1[k], M1[k], y1);
            H2[k] = _mm512_madd52hi_epu64(H2[k], M2[k], y2);
        }
        __m512i cy1 = _mm512_maskz_srli_epi64(1, X1[0], 52), cy2 = _mm512_maskz_srli_epi64(1, X2[0], 52);
        for (int k = 0; k < NV - 1; k++) {
            X1[k] = _mm512_alignr_epi64(X1[k + 1], X1[k], 1);
            X2[k] = _mm512_alignr_epi64(X2[k + 1], X2[k], 1);
        }
        X1[NV - 1] = _mm512_alignr_epi64(zero, X1[NV - 1], 1);
        X2[NV - 1] = _mm512_alignr_epi64(zero, X2[NV - 1], 1);
        X1[0] = _mm512_add_epi64(X1[0], cy1);
        X2[0] = _mm512_add_epi64(X2[0], cy2);
        /* the high halves land one limb up: after the shift, in place */
        for (int k = 0; k < NV; k++) {
            X1[k] = _mm512_add_epi64(X1[k], H1[k]);
            X2[k] = _mm512_add_epi64(X2[k], H2[k]);
        }
    }
    normalize_nv(X1, NV);
    normalize_nv(X2, NV);
    for (int k = 0; k < NV; k++) {
        _mm512_storeu_si512(r1 + 8 * k, X1[k]);
        _mm512_storeu_si512(r2 + 8 * k, X2[k]);
    }
}

#define AMM2_FN(nv) \
    static TARGET void amm2_##nv(uint64_t *r1, const uint64_t *a1, const uint64_t *b1,      \
                                 const rw_mont52 *c1, uint64_t *r2, const uint64_t *a2,     \
                                 const uint64_t *b2, const rw_mont52 *c2)                   \
    { amm2_nv(r1, a1, b1, c1, r2, a2, b2, c2, nv); }
AMM2_FN(1) AMM2_FN(2) AMM2_FN(3) AMM2_FN(4) AMM2_FN(5)

typedef void amm2_fn(uint64_t *, const uint64_t *, const uint64_t *, const rw_mont52 *,
                     uint64_t *, const uint64_t *, const uint64_t *, const rw_mont52 *);
static amm2_fn *const amm2_table[RW_IFMA_MAXNV + 1] = { NULL, amm2_1, amm2_2, amm2_3, amm2_4, amm2_5 };

/* Full products r1 = a1*b1, r2 = a2*b2 (L limbs each; r: 2L + 8 raw column
 * sums, not normalized) by product scanning: per limb b_i, add the low
 * halves, emit column i, shift one limb, add the high halves. Public data. */
static inline __attribute__((always_inline)) TARGET void
mul2_nv(uint64_t *r1, const uint64_t *a1, const uint64_t *b1, uint64_t *r2, const uint64_t *a2,
        const uint64_t *b2, unsigned L, const int NV)
{
    __m512i A1[RW_IFMA_MAXNV], X1[RW_IFMA_MAXNV], A2[RW_IFMA_MAXNV], X2[RW_IFMA_MAXNV];
    const __m512i zero = _mm512_setzero_si512();
    for (int k = 0; k < NV; k++) {
        A1[k] = _mm512_loadu_si512(a1 + 8 * k);
        A2[k] = _mm512_loadu_si512(a2 + 8 * k);
        X1[k] = X2[k] = zero;
    }
    for (unsigned i = 0; i < L; i++) {
        __m512i bi1 = _mm512_set1_epi64((long long)b1[i]), bi2 = _mm512_set1_epi64((long long)b2[i]);
        __m512i H1[RW_IFMA_MAXNV], H2[RW_IFMA_MAXNV];
        for (int k = 0; k < NV; k++) {     /* off the chain through X: plain adds on it */
            X1[k] = _mm512_add_epi64(X1[k], _mm512_madd52lo_epu64(zero, A1[k], bi1));
            X2[k] = _mm512_add_epi64(X2[k], _mm512_madd52lo_epu64(zero, A2[k], bi2));
            H1[k] = _mm512_madd52hi_epu64(zero, A1[k], bi1);
            H2[k] = _mm512_madd52hi_epu64(zero, A2[k], bi2);
        }
        r1[i] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(X1[0]));
        r2[i] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(X2[0]));
        for (int k = 0; k < NV - 1; k++) {
            X1[k] = _mm512_alignr_epi64(X1[k + 1], X1[k], 1);
            X2[k] = _mm512_alignr_epi64(X2[k + 1], X2[k], 1);
        }
        X1[NV - 1] = _mm512_alignr_epi64(zero, X1[NV - 1], 1);
        X2[NV - 1] = _mm512_alignr_epi64(zero, X2[NV - 1], 1);
        for (int k = 0; k < NV; k++) {
            X1[k] = _mm512_add_epi64(X1[k], H1[k]);
            X2[k] = _mm512_add_epi64(X2[k], H2[k]);
        }
    }
    for (int k = 0; k < NV; k++) {
        _mm512_storeu_si512(r1 + L + 8 * k, X1[k]);
        _mm512_storeu_si512(r2 + L + 8 * k, X2[k]);
    }
}

#define MUL2_FN(nv) \
    static TARGET void mul2_##nv(uint64_t *r1, const uint64_t *a1, const uint64_t *b1,      \
                                 uint64_t *r2, const uint64_t *a2, const uint64_t *b2,      \
                                 unsigned L)                                                 \
    { mul2_nv(r1, a1, b1, r2, a2, b2, L, nv); }
MUL2_FN(1) MUL2_FN(2) MUL2_FN(3) MUL2_FN(4) MUL2_FN(5)

typedef void mul2_fn(uint64_t *, const uint64_t *, const uint64_t *, uint64_t *, const uint64_t *,
                     const uint64_t *, unsigned);
static mul2_fn *const mul2_table[RW_IFMA_MAXNV + 1] = { NULL, mul2_1, mul2_2, mul2_3, mul2_4, mul2_5 };

/* Constant-time r = tab[idx] (tab: 2^WIN entries of 8*nv limbs). */
static TARGET void select_entry(uint64_t *r, const uint64_t *tab, unsigned idx, unsigned nv)
{
    __m512i acc[RW_IFMA_MAXNV];
    for (unsigned k = 0; k < nv; k++)
        acc[k] = _mm512_setzero_si512();
    for (unsigned i = 0; i < (1u << WIN); i++) {
        __mmask8 m = (__mmask8)(0u - (unsigned)(i == idx));
        for (unsigned k = 0; k < nv; k++)
            acc[k] = _mm512_mask_loadu_epi64(acc[k], m, tab + (size_t)i * 8 * nv + 8 * k);
    }
    for (unsigned k = 0; k < nv; k++)
        _mm512_storeu_si512(r + 8 * k, acc[k]);
}
#else
int rw_ifma_usable(void)
{
    return 0;
}
#endif

/* GMP limbs <-> 52-bit limbs (positions are public; values may be secret). */
static void to52(uint64_t *r, unsigned L, const mp_limb_t *x, size_t n)
{
    for (unsigned i = 0; i < L; i++) {
        size_t bit = 52 * (size_t)i, w = bit / 64;
        unsigned s = (unsigned)(bit % 64);
        uint64_t v = w < n ? x[w] >> s : 0;
        if (s > 12 && w + 1 < n)
            v |= x[w + 1] << (64 - s);
        r[i] = v & MASK52;
    }
}

int rw_mont52_init(rw_mont52 *c, const mpz_t m)
{
    size_t bits = rw_bitlen(m), mn = mpz_size(m);
    memset(c, 0, sizeof(*c));
    c->L = (unsigned)((bits + 2 + 51) / 52);
    c->nv = (c->L + 7) / 8;
    if (c->nv > RW_IFMA_MAXNV || mpz_even_p(m))
        return 0;
    const mp_limb_t *ml = mpz_limbs_read(m);
    to52(c->m, c->L, ml, mn);
    uint64_t inv = ml[0];                    /* Newton: m^-1 mod 2^64 */
    for (int i = 0; i < 6; i++)
        inv *= 2 - ml[0] * inv;
    c->k0 = (0 - inv) & MASK52;
    /* R^2 mod m = 2^(104 L) mod m, by GMP's constant-time division */
    size_t nl = (104 * (size_t)c->L) / 64 + 1;
    mp_limb_t num[2 * RW_IFMA_MAXL * 52 / 64 + 2];
    mp_limb_t scratch[4 * RW_IFMA_MAXL + 64];
    if ((size_t)mpn_sec_div_r_itch((mp_size_t)nl, (mp_size_t)mn) > sizeof(scratch) / sizeof(scratch[0]))
        return 0;
    memset(num, 0, nl * sizeof(mp_limb_t));
    num[nl - 1] = (mp_limb_t)1 << ((104 * c->L) % 64);
    mpn_sec_div_r(num, (mp_size_t)nl, ml, (mp_size_t)mn, scratch);
    to52(c->rr, c->L, num, mn);
    rw_wipe(num, sizeof(num));
    return 1;
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
/* to52 for the verifiers (public data): x (n GMP limbs, x < 2^(52 L)) as
 * 8*nv 52-bit limbs, zero past L. Per 8 limbs one masked 64-byte load from
 * byte 52 j (nothing past x is read; missing bytes are zero), then limb t =
 * bits 52t.. of that window: qword permutes and variable shifts. */
static TARGET void to52_vec(uint64_t *r, unsigned nv, const mp_limb_t *x, size_t n)
{
    const __m512i lo_q = _mm512_setr_epi64(0, 0, 1, 2, 3, 4, 4, 5);
    const __m512i hi_q = _mm512_setr_epi64(1, 1, 2, 3, 4, 5, 5, 6);
    const __m512i rsh = _mm512_setr_epi64(0, 52, 40, 28, 16, 4, 56, 44);
    const __m512i lsh = _mm512_setr_epi64(64, 12, 24, 36, 48, 60, 8, 20);
    const __m512i m52 = _mm512_set1_epi64((long long)MASK52);
    const uint8_t *b = (const uint8_t *)x;
    size_t nbytes = 8 * n;
    for (unsigned j = 0; j < nv; j++) {
        size_t off = 52 * (size_t)j, avail = nbytes > off ? nbytes - off : 0;
        __mmask64 m = avail >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << avail) - 1;
        __m512i q = _mm512_maskz_loadu_epi8(m, b + (avail ? off : 0));
        __m512i v = _mm512_or_si512(_mm512_srlv_epi64(_mm512_permutexvar_epi64(lo_q, q), rsh),
                                    _mm512_sllv_epi64(_mm512_permutexvar_epi64(hi_q, q), lsh));
        _mm512_storeu_si512(r + 8 * j, _mm512_and_si512(v, m52));
    }
}

static void from52(mp_limb_t *r, size_t n, const uint64_t *x, unsigned L)
{
    memset(r, 0, n * sizeof(mp_limb_t));
    for (unsigned i = 0; i < L; i++) {
        size_t bit = 52 * (size_t)i, w = bit / 64;
        unsigned s = (unsigned)(bit % 64);
        if (w < n)
            r[w] |= x[i] << s;
        if (s > 12 && w + 1 < n)
            r[w + 1] |= x[i] >> (64 - s);
    }
}

/* r = r - m if r >= m (52-bit limbs), constant time. */
static void final_sub(uint64_t *r, const uint64_t *m, unsigned L)
{
    uint64_t d[RW_IFMA_MAXL], borrow = 0;
    for (unsigned i = 0; i < L; i++) {
        uint64_t v = r[i] - m[i] - borrow;
        d[i] = v & MASK52;
        borrow = v >> 63;
    }
    uint64_t keep = 0 - borrow;     /* all ones: r < m, keep r */
    for (unsigned i = 0; i < L; i++)
        r[i] = (r[i] & keep) | (d[i] & ~keep);
}

static unsigned window(const mpz_t e, size_t pos)
{
    size_t n = mpz_size(e);
    const mp_limb_t *l = mpz_limbs_read(e);
    unsigned v = 0;
    for (unsigned b = 0; b < WIN; b++) {
        size_t bit = pos + b, w = bit / 64;
        v |= (unsigned)((w < n ? l[w] >> (bit % 64) : 0) & 1) << b;
    }
    return v;
}

void rw_powm2_ifma(mp_limb_t *r1, const mp_limb_t *x1, size_t n1, const mpz_t e1,
                   const rw_mont52 *c1, mp_limb_t *r2, const mp_limb_t *x2, size_t n2,
                   const mpz_t e2, const rw_mont52 *c2, unsigned ebits)
{
    enum { E = 1u << WIN };
    const unsigned nv = c1->nv, stride = 8 * c1->nv;
    amm2_fn *amm2 = amm2_table[nv];
    uint64_t tab1[E * RW_IFMA_MAXL], tab2[E * RW_IFMA_MAXL];
    uint64_t x52a[RW_IFMA_MAXL] = { 0 }, x52b[RW_IFMA_MAXL] = { 0 };
    uint64_t acc1[RW_IFMA_MAXL], acc2[RW_IFMA_MAXL], t1[RW_IFMA_MAXL], t2[RW_IFMA_MAXL];
    uint64_t one[RW_IFMA_MAXL] = { 1 };
    memset(tab1, 0, sizeof(uint64_t) * E * stride);
    memset(tab2, 0, sizeof(uint64_t) * E * stride);
    to52(x52a, c1->L, x1, n1);
    to52(x52b, c2->L, x2, n2);
    /* tab[0] = R, tab[1] = xR, tab[i] = x^i R (mod 2m) */
    amm2(tab1, one, c1->rr, c1, tab2, one, c2->rr, c2);
    amm2(tab1 + stride, x52a, c1->rr, c1, tab2 + stride, x52b, c2->rr, c2);
    for (unsigned i = 2; i < E; i++)
        amm2(tab1 + i * stride, tab1 + (i - 1) * stride, tab1 + stride, c1,
             tab2 + i * stride, tab2 + (i - 1) * stride, tab2 + stride, c2);
    size_t pos = (ebits + WIN - 1) / WIN * WIN;
    pos -= WIN;
    select_entry(acc1, tab1, window(e1, pos), nv);
    select_entry(acc2, tab2, window(e2, pos), nv);
    while (pos > 0) {
        pos -= WIN;
        for (int s = 0; s < WIN; s++)
            amm2(acc1, acc1, acc1, c1, acc2, acc2, acc2, c2);
        select_entry(t1, tab1, window(e1, pos), nv);
        select_entry(t2, tab2, window(e2, pos), nv);
        amm2(acc1, acc1, t1, c1, acc2, acc2, t2, c2);
    }
    amm2(acc1, acc1, one, c1, acc2, acc2, one, c2);   /* out of Montgomery form: <= m */
    final_sub(acc1, c1->m, c1->L);
    final_sub(acc2, c2->m, c2->L);
    from52(r1, n1, acc1, c1->L);
    from52(r2, n2, acc2, c2->L);
    rw_wipe(x52a, sizeof(x52a));
    rw_wipe(x52b, sizeof(x52b));
    rw_wipe(tab1, sizeof(tab1));
    rw_wipe(tab2, sizeof(tab2));
    rw_wipe(acc1, sizeof(acc1));
    rw_wipe(acc2, sizeof(acc2));
    rw_wipe(t1, sizeof(t1));
    rw_wipe(t2, sizeof(t2));
}

int rw_ifma_check_square(const rw_mont52 *c, const mp_limb_t *s, const mp_limb_t *h, size_t nn,
                         int e, int f)
{
    static const uint64_t one[RW_IFMA_MAXL] = { 1 };
    uint64_t s52[RW_IFMA_MAXL], h52[RW_IFMA_MAXL];
    uint64_t a[RW_IFMA_MAXL], b[RW_IFMA_MAXL], t[RW_IFMA_MAXL];
    to52_vec(s52, c->nv, s, nn);
    to52_vec(h52, c->nv, h, nn);
    /* a = s^2 / R, b = h / R (mod n), in one lockstep call */
    amm2_table[c->nv](a, s52, s52, c, b, h52, one, c);
    final_sub(a, c->m, c->L);
    final_sub(b, c->m, c->L);
    if (f == 2) {                         /* a = 2a mod n */
        uint64_t cy = 0;
        for (unsigned i = 0; i < c->L; i++) {
            uint64_t v = (a[i] << 1) + cy;
            a[i] = v & MASK52;
            cy = v >> 52;
        }
        final_sub(a, c->m, c->L);
    }
    if (e < 0) {                          /* a = n - a (a != 0 here, else no match) */
        uint64_t borrow = 0;
        for (unsigned i = 0; i < c->L; i++) {
            uint64_t v = c->m[i] - a[i] - borrow;
            t[i] = v & MASK52;
            borrow = v >> 63;
        }
        memcpy(a, t, sizeof(uint64_t) * c->L);
    }
    return memcmp(a, b, sizeof(uint64_t) * c->L) == 0;
}

int rw_ifma_check_expanded(const rw_mont52 *c, const mp_limb_t *s, const mp_limb_t *kq,
                           const mp_limb_t *h, size_t nn, int e, int f)
{
    enum { W = 2 * RW_IFMA_MAXL + 8 };
    uint64_t s52[RW_IFMA_MAXL], k52[RW_IFMA_MAXL], h52[RW_IFMA_MAXL];
    uint64_t p1[W], p2[W];
    unsigned L = c->L;
    to52_vec(s52, c->nv, s, nn);
    to52_vec(k52, c->nv, kq, nn);
    to52_vec(h52, c->nv, h, nn);
    p1[2 * L] = p2[2 * L] = 0;        /* column 2L (zero) is past mul2's stores when L = 8 nv */
    mul2_table[c->nv](p1, s52, s52, p2, k52, c->m, L);
    /* D = f*s^2 - e*h - k*n from the raw column sums (each < 2^60, so the
     * signed column differences fit), zero iff every column leaves no
     * remainder modulo 2^52 once the carries flow and nothing is left over */
    int64_t carry = 0;
    uint64_t bad = 0;
    for (unsigned i = 0; i < 2 * L + 1; i++) {
        int64_t d = (int64_t)(p1[i] * (uint64_t)f) - (int64_t)p2[i] + carry;
        if (i < L)
            d -= e * (int64_t)h52[i];
        bad |= (uint64_t)d & MASK52;
        carry = d >> 52;                    /* arithmetic shift: floor */
    }
    return bad == 0 && carry == 0;
}
#else
int rw_ifma_check_expanded(const rw_mont52 *c, const mp_limb_t *s, const mp_limb_t *kq,
                           const mp_limb_t *h, size_t nn, int e, int f)
{
    (void)c; (void)s; (void)kq; (void)h; (void)nn; (void)e; (void)f;
    return 0;
}

int rw_ifma_check_square(const rw_mont52 *c, const mp_limb_t *s, const mp_limb_t *h, size_t nn,
                         int e, int f)
{
    (void)c; (void)s; (void)h; (void)nn; (void)e; (void)f;
    return 0;
}

void rw_powm2_ifma(mp_limb_t *r1, const mp_limb_t *x1, size_t n1, const mpz_t e1,
                   const rw_mont52 *c1, mp_limb_t *r2, const mp_limb_t *x2, size_t n2,
                   const mpz_t e2, const rw_mont52 *c2, unsigned ebits)
{
    (void)r1; (void)x1; (void)n1; (void)e1; (void)c1;
    (void)r2; (void)x2; (void)n2; (void)e2; (void)c2; (void)ebits;
}
#endif
