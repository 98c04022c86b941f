/* rw_prob.c - the expanded form's probabilistic check: f*s^2 = e*h + k*n
 * modulo two secret random 52-bit primes drawn once per process (getrandom;
 * a forked child draws its own, via pthread_atfork). Without the primes, a
 * forger who makes the identity fail over the integers passes with
 * probability < 2^-50: the difference, below 2^(2 bits + 3), has at most
 * (2 bits + 3) / 51 prime factors in [2^51, 2^52), which holds about 2^45.8
 * primes: < 2^-36 for each of the two primes up to 16384-bit moduli.
 * Residues come from AVX-512 IFMA when usable (the primes fit its 52-bit
 * multiplier), else from the portable 64-bit path; both give the same
 * numbers (the tests compare them). */
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include "rw/rw_sig.h"

#define MAXL (RW_MAX_BITS / GMP_NUMB_BITS + 1)
#define MAXW ((MAXL + 7) & ~7)   /* power tables padded to whole 8-limb vectors */

/* A secret prime with the powers 2^(64 i) mod P, so that a residue is a
 * sum of limb products (no divisions on the verification path). */
typedef struct {
    uint64_t p;
    uint64_t pinv;         /* -p^-1 mod 2^64 (Montgomery reduction) */
    uint64_t w[MAXW];      /* 2^(64 i) mod p (zero past MAXL) */
    uint64_t whi[MAXW];    /* 2^(64 i + 32) mod p: the IFMA path's upper halves */
    uint64_t r52, r64, r128; /* 2^52, 2^64, 2^128 mod p */
    uint64_t rinv;         /* 2^-64 mod p */
} prob_prime;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static prob_prime primes[2];
static int drawn;                 /* primes[] valid in this process */
static unsigned generation = 1;   /* bumped in a forked child: threads re-copy */

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

/* A random prime in [2^51, 2^52); 0 if the OS RNG failed. */
static uint64_t draw_prime(void)
{
    uint64_t v;
    if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
        return 0;
    v = (v & ((1ULL << 52) - 1)) | (1ULL << 51) | 1;
    while (!is_prime_u64(v))
        v = v + 2 < (1ULL << 52) ? v + 2 : (1ULL << 51) | 1;
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
    pp->r52 = (1ULL << 52) % p;
    pp->r64 = r64;
    pp->r128 = mulmod(r64, r64, p);
    uint64_t inv = p;                    /* Newton: p^-1 mod 2^64 */
    for (int i = 0; i < 6; i++)
        inv *= 2 - p * inv;
    pp->pinv = 0 - inv;
    pp->rinv = redc(1, pp);
}

static int get_primes(prob_prime out[2])
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
    if (ok)
        memcpy(out, primes, sizeof(primes));
    pthread_mutex_unlock(&lock);
    return ok;
}

/* Montgomery reduction: T * 2^-64 mod p, for T < p * 2^64. */
static uint64_t redc(unsigned __int128 T, const prob_prime *pp)
{
    uint64_t m = (uint64_t)T * pp->pinv;
    uint64_t t = (uint64_t)((T + (unsigned __int128)m * pp->p) >> 64);
    return t >= pp->p ? t - pp->p : t;
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
    for (int j = 0; j < NRES; j++) {
        uint64_t a1 = (uint64_t)(acc[j] >> 64) % pp->p, a0 = (uint64_t)acc[j];
        /* hi * 2^128 + a1 * 2^64 + a0, with hi < 2^8: below 2^105 < p * 2^64 */
        out[j] = redc((unsigned __int128)hi[j] * pp->r128 + (unsigned __int128)a1 * pp->r64 + a0,
                      pp);
    }
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
#include <immintrin.h>
#define TARGET __attribute__((target("avx512f,avx512ifma")))

/* The same residues (x * 2^-64 mod p) of the NRES4 numbers x[] (x[3] may be
 * NULL: skipped) modulo both primes with 52-bit multiply-adds: each limb
 * splits into 32-bit halves, weighted by 2^(64 i) and 2^(64 i + 32) mod p
 * (< 2^52); per number and prime one vector of low product halves (lane
 * sums < 2^62 up to 16384-bit moduli) and one of high halves, folded as
 * lo + hi * 2^52 (< 2^95 < p * 2^64) by one redc. */
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
    /* L<q><j> / H<q><j>: low / high product halves of number j, prime q
     * (named variables: an array of them would live on the stack) */
    __m512i L00 = z, L01 = z, L02 = z, L03 = z, L10 = z, L11 = z, L12 = z, L13 = z;
    __m512i H00 = z, H01 = z, H02 = z, H03 = z, H10 = z, H11 = z, H12 = z, H13 = z;
    for (size_t i = 0; i < nn; i += 8) {
        __mmask8 m = nn - i >= 8 ? 0xff : (__mmask8)((1u << (nn - i)) - 1);
        __m512i wl0 = _mm512_loadu_si512(P[0].w + i), wh0 = _mm512_loadu_si512(P[0].whi + i);
        __m512i wl1 = _mm512_loadu_si512(P[1].w + i), wh1 = _mm512_loadu_si512(P[1].whi + i);
#define RES_STEP(j)                                                                    \
        do {                                                                           \
            __m512i v = _mm512_maskz_loadu_epi64(m, x[j] + i);                         \
            __m512i a = _mm512_and_si512(v, m32), b = _mm512_srli_epi64(v, 32);        \
            L0##j = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(L0##j, a, wl0), b, wh0); \
            H0##j = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(H0##j, a, wl0), b, wh0); \
            L1##j = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(L1##j, a, wl1), b, wh1); \
            H1##j = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(H1##j, a, wl1), b, wh1); \
        } while (0)
        RES_STEP(0);
        RES_STEP(1);
        RES_STEP(2);
        if (x[3] != NULL)
            RES_STEP(3);
#undef RES_STEP
    }
    const __m512i lo[2 * NRES4] = { L00, L01, L02, L03, L10, L11, L12, L13 };
    const __m512i hi[2 * NRES4] = { H00, H01, H02, H03, H10, H11, H12, H13 };
    uint64_t l[2][NRES4], h[2][NRES4];
    _mm512_storeu_si512(l, hsum8(lo));   /* lane q * NRES4 + j */
    _mm512_storeu_si512(h, hsum8(hi));
    for (int q = 0; q < 2; q++)
        for (int j = 0; j < NRES4; j++)
            out[q][j] = redc((unsigned __int128)h[q][j] * P[q].r52 + l[q][j], &P[q]);
}

static int ifma_ok(void)
{
    return rw_ifma_usable() && !rw_test_force_gmp;
}
#else
#define NRES4 4
static void residues_ifma(const mp_limb_t *const x[NRES4], size_t nn, const prob_prime P[2],
                          uint64_t out[2][NRES4])
{
    (void)x; (void)nn; (void)P; (void)out;
}

static int ifma_ok(void)
{
    return 0;
}
#endif

/* Residues of x[0..3] modulo both primes (all scaled by 2^-64); x[3] may be
 * NULL (out[.][3] then unspecified). */
static void residues_all(const mp_limb_t *const x[NRES4], size_t nn, const prob_prime P[2],
                         int ifma, uint64_t out[2][NRES4])
{
    if (ifma) {
        residues_ifma(x, nn, P, out);
        return;
    }
    const mp_limb_t *const last[2] = { x[2], x[3] != NULL ? x[3] : x[2] };
    for (int q = 0; q < 2; q++) {
        residues(x, nn, &P[q], out[q]);
        residues(last, nn, &P[q], out[q] + 2);
    }
}

/* This thread's copy of the secret primes, and the residues of the last
 * modulus it checked (named by its key id, a hash of n) under them. */
typedef struct {
    prob_prime P[2];
    unsigned have;          /* generation P was copied in */
    int n_valid;
    uint8_t kid[32];
    uint64_t nres[2];
} thread_state;

/* This thread's state (one TLS lookup per check) with the primes of this
 * process; NULL if none could be drawn. */
static thread_state *thread_primes(void)
{
    static __thread thread_state tl;
    unsigned gen = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
    if (tl.have != gen) {
        tl.n_valid = 0;
        if (!get_primes(tl.P))
            return NULL;    /* no secret primes: refuse rather than guess */
        tl.have = gen;
    }
    return &tl;
}

int rw_prob_check(const rw_key *k, const mp_limb_t *s, const mp_limb_t *kq, const mp_limb_t *h,
                  int e, int f)
{
    thread_state *t = thread_primes();
    if (t == NULL)
        return 0;
    const prob_prime *P = t->P;
    size_t nn = mpz_size(k->n);
    int have_n = t->n_valid && memcmp(t->kid, k->kid, 32) == 0;
    const mp_limb_t *const x[NRES4] = { s, kq, h, have_n ? NULL : mpz_limbs_read(k->n) };
    uint64_t res[2][NRES4];
    residues_all(x, nn, P, ifma_ok(), res);
    if (!have_n) {
        memcpy(t->kid, k->kid, 32);
        t->nres[0] = res[0][3];
        t->nres[1] = res[1][3];
        t->n_valid = 1;
    }
    uint64_t bad = 0;
    for (int i = 0; i < 2; i++) {
        const prob_prime *pp = &P[i];
        uint64_t m = pp->p;
        /* all scaled by 2^-64: S, K, N, H; products by 2^-192 after redc */
        uint64_t sm = res[i][0], km = res[i][1], hm = res[i][2], nm = t->nres[i];
        uint64_t l = redc((unsigned __int128)sm * sm, pp);           /* s^2 2^-192 */
        if (f == 2)                                                  /* public: no division */
            l = 2 * l >= m ? 2 * l - m : 2 * l;
        uint64_t r = redc((unsigned __int128)km * nm, pp);           /* k n 2^-192 */
        uint64_t h3 = redc((unsigned __int128)hm * pp->rinv, pp);    /* h 2^-192 */
        r = e > 0 ? r + h3 : r + m - h3;
        bad |= (r >= m ? r - m : r) ^ l;
    }
    return bad == 0;
}

int rw_prob_residues_test(const mp_limb_t *x, size_t nn, int ifma, uint64_t out[2])
{
    thread_state *t = thread_primes();
    if (t == NULL || nn == 0 || nn > MAXL || (ifma && !rw_ifma_usable()))
        return 0;
    const prob_prime *P = t->P;
    const mp_limb_t *const xs[NRES4] = { x, x, x, x };
    uint64_t res[2][NRES4];
    residues_all(xs, nn, P, ifma, res);
    out[0] = res[0][3];
    out[1] = res[1][3];
    for (int j = 0; j < 3; j++)           /* every slot computes the same */
        if (res[0][j] != out[0] || res[1][j] != out[1])
            return -1;
    return 1;
}
