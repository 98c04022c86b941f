/* rw_prob.c - the expanded form's probabilistic check: f*s^2 = e*h + k*n
 * modulo two secret random 61-bit primes drawn once per process (getrandom;
 * a forked child draws its own, via pthread_atfork). Without the primes, a
 * forger who makes the identity fail over the integers passes with
 * probability < 2^-50. */
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include "rw/rw_sig.h"

#define MAXL (RW_MAX_BITS / GMP_NUMB_BITS + 1)

/* A secret prime with the powers 2^(64 i) mod P, so that a residue is a
 * sum of limb products (no divisions on the verification path). */
typedef struct {
    uint64_t p;
    uint64_t pinv;         /* -p^-1 mod 2^64 (Montgomery reduction) */
    uint64_t w[MAXL];      /* 2^(64 i) mod p */
    uint64_t r64, r128;    /* 2^64, 2^128 mod p */
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

/* A random prime in [2^60, 2^61); 0 if the OS RNG failed. */
static uint64_t draw_prime(void)
{
    uint64_t v;
    if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
        return 0;
    v = (v & ((1ULL << 61) - 1)) | (1ULL << 60) | 1;
    while (!is_prime_u64(v))
        v = v + 2 < (1ULL << 61) ? v + 2 : (1ULL << 60) | 1;
    return v;
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((unsigned __int128)a * b % m);
}

static void prime_init(prob_prime *pp, uint64_t p)
{
    uint64_t r64 = (uint64_t)(((unsigned __int128)1 << 64) % p);
    pp->p = p;
    pp->w[0] = 1;
    for (size_t i = 1; i < MAXL; i++)
        pp->w[i] = mulmod(pp->w[i - 1], r64, p);
    pp->r64 = r64;
    pp->r128 = mulmod(r64, r64, p);
    uint64_t inv = p;                    /* Newton: p^-1 mod 2^64 */
    for (int i = 0; i < 6; i++)
        inv *= 2 - p * inv;
    pp->pinv = 0 - inv;
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
        /* hi * 2^128 + a1 * 2^64 + a0, with hi < 2^8: below 2^123 < p * 2^64 */
        out[j] = redc((unsigned __int128)hi[j] * pp->r128 + (unsigned __int128)a1 * pp->r64 + a0,
                      pp);
    }
}

int rw_prob_check(const mp_limb_t *s, const mp_limb_t *kq, const mp_limb_t *n,
                  const mp_limb_t *h, size_t nn, int e, int f)
{
    static __thread prob_prime P[2];     /* this thread's copy of the secret primes */
    static __thread unsigned have;      /* generation P was copied in */
    unsigned gen = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
    if (have != gen) {
        if (!get_primes(P))
            return 0;    /* no secret primes: refuse rather than guess */
        have = gen;
    }
    uint64_t bad = 0;
    for (int i = 0; i < 2; i++) {
        const prob_prime *pp = &P[i];
        uint64_t m = pp->p;
        /* all scaled by 2^-64: S, K, N, H; products by 2^-192 after redc */
        const mp_limb_t *const x0[NRES] = { s, kq }, *const x1[NRES] = { n, h };
        uint64_t r0[NRES], r1[NRES];
        residues(x0, nn, pp, r0);
        residues(x1, nn, pp, r1);
        uint64_t sm = r0[0], km = r0[1], nm = r1[0], hm = r1[1];
        uint64_t l = redc((unsigned __int128)sm * sm, pp);           /* s^2 2^-192 */
        if (f == 2)                                                  /* public: no division */
            l = 2 * l >= m ? 2 * l - m : 2 * l;
        uint64_t r = redc((unsigned __int128)km * nm, pp);           /* k n 2^-192 */
        uint64_t h3 = redc(redc(hm, pp), pp);                        /* h 2^-192 */
        r = e > 0 ? r + h3 : r + m - h3;
        bad |= (r >= m ? r - m : r) ^ l;
    }
    return bad == 0;
}
