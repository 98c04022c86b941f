/* rw_prob_primes.c - the probabilistic check's two secret random 61-bit
 * primes, drawn once per process (getrandom; a forked child draws its own,
 * via pthread_atfork), with their power tables (see rw_prob.c). */
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include "rw/rw_prob.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static prob_prime primes[2];
static int drawn;                 /* primes[] valid in this process (then fixed) */
unsigned rw_prob_generation = 1;  /* bumped in a forked child: threads look again */

static void forked_child(void)
{
    drawn = 0;                    /* the child draws its own primes */
    __atomic_add_fetch(&rw_prob_generation, 1, __ATOMIC_SEQ_CST);
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

const prob_prime *rw_prob_get_primes(void)
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
