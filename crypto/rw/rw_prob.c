/* rw_prob.c - the expanded form's probabilistic check: f*s^2 = e*h + k*n
 * modulo two secret random 61-bit primes drawn once per process (getrandom;
 * a forked child draws its own, via pthread_atfork). Without the primes, a
 * forger who makes the identity fail over the integers passes with
 * probability < 2^-90: the difference, below 2^(2 bits + 3), has at most
 * (2 bits + 3) / 60 prime factors in [2^60, 2^61), which holds about 2^54.6
 * primes: < 2^-45 for each of the two primes up to 16384-bit moduli.
 * Residues come from the rows of rw_residues_table: AVX-512 IFMA (the powers
 * of 2 mod a prime split into 52 + 9 bits for its 52-bit multiplier) where
 * usable, else its twin, the portable 64-bit path; both give the same
 * numbers (the tests compare them). */
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include "rw/rw_msg.h"
#include "rw/rw_sig.h"

#define MAXL (RW_MAX_BITS / GMP_NUMB_BITS + 1)
#define MAXW ((MAXL + 7) & ~7)   /* power tables padded to whole 8-limb vectors */
#define RATE_WORDS 17            /* 136-byte SHAKE256 block: words per hash lane */

/* A secret prime with the powers 2^(64 i) mod P, so that a residue is a
 * sum of limb products (no divisions on the verification path). */
typedef struct {
    uint64_t p;
    uint64_t pinv;         /* -p^-1 mod 2^64 (Montgomery reduction) */
    uint64_t w[MAXW];      /* 2^(64 i) mod p (zero past MAXL) */
    uint64_t whi[MAXW];    /* 2^(64 i + 32) mod p: the IFMA path's upper limb halves */
    /* the IFMA path's multipliers per 8 limbs: w and whi split into their
     * low 52 and high 9 bits (its multiplier takes 52) */
    _Alignas(64) uint64_t ifw[MAXW / 8][4][8];
    uint64_t r52, r64, r96, r128; /* 2^52, 2^64, 2^96, 2^128 mod p */
    uint64_t rinv;         /* 2^-64 mod p */
} prob_prime;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static prob_prime primes[2];
static int drawn;                 /* primes[] valid in this process (then fixed) */
static unsigned generation = 1;   /* bumped in a forked child: threads look again */

static void forked_child(void)
{
    drawn = 0;                    /* the child draws its own primes */
    __atomic_add_fetch(&generation, 1, __ATOMIC_SEQ_CST);
}

static void register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, forked_child);
}

static int is_prime_u64(uint64_t v)
{
    mpz_t z;
    mpz_init_set_ui(z, v);
    int r = mpz_probab_prime_p(z, 30);   /* BPSW: exact below 2^64 */
    mpz_clear(z);
    return r != 0;
}

#define PBITS 61

/* A random prime in [2^60, 2^61); 0 if the OS RNG failed. */
static uint64_t draw_prime(void)
{
    const uint64_t lo = 1ULL << (PBITS - 1) | 1, top = 1ULL << PBITS;
    uint64_t v;
    if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
        return 0;
    v = (v & (top - 1)) | lo;
    while (!is_prime_u64(v))
        v = v + 2 < top ? v + 2 : lo;
    return v;
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((unsigned __int128)a * b % m);
}

static uint64_t redc(unsigned __int128 T, const prob_prime *pp);

static void prime_init(prob_prime *pp, uint64_t p)
{
    uint64_t r64 = (uint64_t)(((unsigned __int128)1 << 64) % p);
    memset(pp, 0, sizeof(*pp));
    pp->p = p;
    pp->w[0] = 1;
    for (size_t i = 1; i < MAXL; i++)
        pp->w[i] = mulmod(pp->w[i - 1], r64, p);
    for (size_t i = 0; i < MAXL; i++)
        pp->whi[i] = mulmod(pp->w[i], (1ULL << 32) % p, p);
    for (size_t i = 0; i < MAXW; i++)
        for (int half = 0; half < 2; half++) {
            uint64_t v = half ? pp->whi[i] : pp->w[i];
            pp->ifw[i / 8][2 * half][i % 8] = v & ((1ULL << 52) - 1);
            pp->ifw[i / 8][2 * half + 1][i % 8] = v >> 52;
        }
    pp->r52 = (1ULL << 52) % p;
    pp->r64 = r64;
    pp->r96 = mulmod(r64, (1ULL << 32) % p, p);
    pp->r128 = mulmod(r64, r64, p);
    uint64_t inv = p;                    /* Newton: p^-1 mod 2^64 */
    for (int i = 0; i < 6; i++)
        inv *= 2 - p * inv;
    pp->pinv = 0 - inv;
    pp->rinv = redc(1, pp);
}

/* The primes of this process, drawn at the first call (and again at the
 * first call in a forked child, which has one thread then); NULL if the OS
 * RNG failed. Once drawn they do not change in this process. */
static const prob_prime *get_primes(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_fork_handler);
    pthread_mutex_lock(&lock);
    if (!drawn) {
        uint64_t a = draw_prime(), b = draw_prime();
        while (a != 0 && b == a)
            b = draw_prime();
        if (a != 0 && b != 0) {
            prime_init(&primes[0], a);
            prime_init(&primes[1], b);
            drawn = 1;
        }
    }
    int ok = drawn;
    pthread_mutex_unlock(&lock);
    return ok ? primes : NULL;
}

/* Montgomery reduction: T * 2^-64 mod p, for T < p * 2^64. */
static uint64_t redc(unsigned __int128 T, const prob_prime *pp)
{
    uint64_t m = (uint64_t)T * pp->pinv;
    uint64_t t = (uint64_t)((T + (unsigned __int128)m * pp->p) >> 64);
    return t >= pp->p ? t - pp->p : t;
}

/* x * 2^-64 mod p from a[0..2], the 192-bit sum of x's limbs times
 * 2^(64 i) mod p: with a[1] in 32-bit halves, a[2] * 2^128 + a1h * 2^96 +
 * a1l * 2^64 + a[0] (a[2] < 2^6: products < 2^125, at most 257 of them) is
 * below 2^95 < p * 2^64 after the powers are reduced; no division. */
static uint64_t fold192(const uint64_t a[3], const prob_prime *pp)
{
    return redc((unsigned __int128)a[2] * pp->r128 + (unsigned __int128)(a[1] >> 32) * pp->r96 +
                (unsigned __int128)(uint32_t)a[1] * pp->r64 + a[0], pp);
}

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
#define NRES4 4

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
 * state (rw_fdh_dot), with W[q] the state-order weights of thread_state:
 * each 8-word vector is byte-swapped into limbs (h's top bit cleared) and
 * weighted in place, so h is never written out. Ordered for latency (it
 * follows the hash on the critical path): each vector's products start from
 * zero (two multiply-adds deep), then adds and one horizontal sum. */
#define SW_VECS 5          /* words 0..39: the 34 that carry h, for <= 36 limbs */
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

#else
#define NRES4 4
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

/* The rows: fn computes residues_portable's numbers; aux, when set, h's
 * residues straight from the hash's two-lane state (residue_state_ifma's
 * contract), else the caller converts the state to h and uses fn. */
typedef void residues_fn(const mp_limb_t *const x[NRES4], size_t nn, const prob_prime P[2],
                         uint64_t out[2][NRES4]);
typedef void residue_state_fn(const uint64_t *st, const uint64_t (*const W[2])[4][8],
                              const prob_prime P[2], uint64_t out[2]);

static const fs_kernel residue_rows[] = {
    { "portable", FS_KERNEL_FN(residues_portable), NULL, 1, 0, 0, 100 },
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "ifma", FS_KERNEL_FN(residues_ifma), FS_KERNEL_FN(residue_state_ifma), 1,
      RW_IFMA_CPU, 0, 40 },
#endif
    FS_KERNEL_END,
};

FS_KERNEL_TABLE(rw_residues_table, "rw-residues", residue_rows, NULL);

static void residues_all(const fs_kernel *row, const mp_limb_t *const x[NRES4], size_t nn,
                         const prob_prime P[2], uint64_t out[2][NRES4])
{
    ((residues_fn *)row->fn)(x, nn, P, out);
}

/* The secret primes as this thread last saw them, and the residues of the
 * last modulus it checked (named by its key id, a hash of n) under them. */
typedef struct {
    const prob_prime *P;
    unsigned have;          /* generation P was taken in */
    int n_valid;
    uint8_t kid[32];
    uint64_t nres[2];
    /* weights for keys of sz_nl limbs (0: none yet) on the stitched path.
     * dw[0], dw[1]: the dot products read RW_KECCAK_DOT_LEN big-endian words
     * from the start of s and up to the end of k (the signature has no more),
     * so word i is limb nl-1-i of s (weight 2^(64 (nl-1-i)) mod p, zero past
     * nl) and limb D-1-i of k (D = RW_KECCAK_DOT_LEN; zero for the words
     * before k, which are s's). sw: residue_state_ifma's: state
     * word t = 2 i + l (lane l, word i) holds limb j = nl-1-(17 l + i), which
     * weighs 2^(64 j - 128) mod p (zero where no limb), split as ifw. */
    size_t sz_nl;
    uint64_t dw[2][RW_KECCAK_DOT_LEN][2];
    _Alignas(64) uint64_t sw[2][SW_VECS][4][8];
} thread_state;

static void build_size_tables(thread_state *t, size_t nl)
{
    for (int q = 0; q < 2; q++) {
        for (size_t i = 0, D = RW_KECCAK_DOT_LEN; i < D; i++) {
            t->dw[0][i][q] = i < nl ? t->P[q].w[nl - 1 - i] : 0;
            t->dw[1][i][q] = D - 1 - i < nl ? t->P[q].w[D - 1 - i] : 0;
        }
        const prob_prime *pp = &t->P[q];
        uint64_t r2 = mulmod(pp->rinv, pp->rinv, pp->p), r32 = (1ULL << 32) % pp->p;
        for (size_t w = 0; w < 8 * SW_VECS; w++) {
            size_t i = w / 2, stream = 17 * (w % 2) + i;
            uint64_t lo = 0, hi = 0;
            if (i < RATE_WORDS && stream < nl) {
                lo = mulmod(pp->w[nl - 1 - stream], r2, pp->p);
                hi = mulmod(lo, r32, pp->p);
            }
            uint64_t(*v)[8] = t->sw[q][w / 8];
            v[0][w % 8] = lo & ((1ULL << 52) - 1);
            v[1][w % 8] = lo >> 52;
            v[2][w % 8] = hi & ((1ULL << 52) - 1);
            v[3][w % 8] = hi >> 52;
        }
    }
    t->sz_nl = nl;
}

/* This thread's state (one TLS lookup per check) with the primes of this
 * process; NULL if none could be drawn. */
static thread_state *thread_primes(void)
{
    static __thread thread_state tl;
    unsigned gen = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
    if (tl.have != gen) {
        tl.n_valid = 0;
        tl.sz_nl = 0;
        if ((tl.P = get_primes()) == NULL)
            return NULL;    /* no secret primes: refuse rather than guess */
        tl.have = gen;
    }
    return &tl;
}

/* The check once the residues are known (res[q][j]: s, kq, h, n scaled by
 * 2^-64; h3[q], if not NULL, h scaled by 2^-192 instead of res[q][2]); n's
 * residues are kept for the next check of the same key. */
static int prob_finish(thread_state *t, const rw_key *k, int have_n, uint64_t res[2][NRES4],
                       const uint64_t *h3, int e, int f)
{
    if (!have_n) {
        memcpy(t->kid, k->kid, 32);
        t->nres[0] = res[0][3];
        t->nres[1] = res[1][3];
        t->n_valid = 1;
    }
    uint64_t bad = 0;
    for (int i = 0; i < 2; i++) {
        const prob_prime *pp = &t->P[i];
        uint64_t m = pp->p;
        /* products of two 2^-64-scaled residues are 2^-192-scaled after redc */
        uint64_t sm = res[i][0], km = res[i][1], nm = t->nres[i];
        uint64_t l = redc((unsigned __int128)sm * sm, pp);           /* s^2 2^-192 */
        if (f == 2)                                                  /* public: no division */
            l = 2 * l >= m ? 2 * l - m : 2 * l;
        uint64_t r = redc((unsigned __int128)km * nm, pp);           /* k n 2^-192 */
        uint64_t hh = h3 != NULL ? h3[i] : redc((unsigned __int128)res[i][2] * pp->rinv, pp);
        r = e > 0 ? r + hh : r + m - hh;                             /* h 2^-192 */
        bad |= (r >= m ? r - m : r) ^ l;
    }
    return bad == 0;
}

/* Whether this key's n residues are cached in t. */
static int have_n_of(const thread_state *t, const rw_key *k)
{
    return t->n_valid && memcmp(t->kid, k->kid, 32) == 0;
}

int rw_prob_verify(const rw_key *k, const mp_limb_t *s, const mp_limb_t *kq, int rbit,
                   const uint8_t *msg, size_t msglen, int e, int f)
{
    thread_state *t = thread_primes();
    if (t == NULL)
        return 0;
    size_t nn = mpz_size(k->n);
    int have_n = have_n_of(t, k);
    const mp_limb_t *n = have_n ? NULL : mpz_limbs_read(k->n);
    mp_limb_t h[MAXL];
    uint64_t res[2][NRES4];
    rw_fdh(k, rbit, msg, msglen, h);
    residues_all(fs_kernel_default(&rw_residues_table), (const mp_limb_t *const[NRES4]){ s, kq, h, n },
                 nn, t->P, res);
    return prob_finish(t, k, have_n, res, NULL, e, f);
}

int rw_prob_verify_be(const rw_key *k, const uint8_t *sig, int rbit, const uint8_t *msg,
                      size_t msglen, int e, int f)
{
    thread_state *t = thread_primes();
    if (t == NULL)
        return 0;
    const prob_prime *P = t->P;
    size_t nn = mpz_size(k->n), nb = k->nbytes;
    if (t->sz_nl != nn)
        build_size_tables(t, nn);
    int have_n = have_n_of(t, k);
    const mp_limb_t *n = have_n ? NULL : mpz_limbs_read(k->n);
    /* the residues of s and kq as dot products on the integer pipes while
     * the hash permutes on the vector ones; then those of h (and n). The
     * words read from s run into k and those up to k's end start in s
     * (weights zero there): 2 nb >= 8 D for these keys (nb >= 144). */
    _Alignas(64) uint64_t st[2 * 25];
    const uint8_t *kend = sig + 2 * nb;
    rw_keccak_dot_job job = { { sig, kend - 8 * RW_KECCAK_DOT_LEN },
                              { (const uint64_t(*)[2])t->dw[0], (const uint64_t(*)[2])t->dw[1] },
                              { { 0 } } };
    rw_fdh_dot(k, rbit, msg, msglen, st, &job);
    uint64_t res[2][NRES4], h3[2];
    for (int q = 0; q < 2; q++) {
        res[q][0] = fold192(job.acc[q], &P[q]);
        res[q][1] = fold192(job.acc[2 + q], &P[q]);
    }
    const fs_kernel *row = fs_kernel_default(&rw_residues_table);
    if (row->aux == NULL) {
        mp_limb_t h[MAXL];
        rw_fdh_state_to_h(k, st, h);
        residues_all(row, (const mp_limb_t *const[NRES4]){ NULL, NULL, h, n }, nn, P, res);
        return prob_finish(t, k, have_n, res, NULL, e, f);
    }
    ((residue_state_fn *)row->aux)(st, (const uint64_t(*const[2])[4][8]){ t->sw[0], t->sw[1] },
                                   P, h3);
    if (n != NULL)
        residues_all(row, (const mp_limb_t *const[NRES4]){ NULL, NULL, NULL, n }, nn, P, res);
    return prob_finish(t, k, have_n, res, h3, e, f);
}

int rw_prob_residues_test(const fs_kernel *row, const mp_limb_t *x, size_t nn, uint64_t out[2])
{
    thread_state *t = thread_primes();
    if (t == NULL || nn == 0 || nn > MAXL || !fs_kernel_usable(row, fs_cpu_features(), 0))
        return 0;
    const prob_prime *P = t->P;
    const mp_limb_t *const xs[NRES4] = { x, x, x, x };
    uint64_t res[2][NRES4];
    residues_all(row, xs, nn, P, res);
    out[0] = res[0][3];
    out[1] = res[1][3];
    for (int j = 0; j < 3; j++)           /* every slot computes the same */
        if (res[0][j] != out[0] || res[1][j] != out[1])
            return -1;
    return 1;
}
