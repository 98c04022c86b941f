/* rw_prob.c - the expanded form's probabilistic check: f*s^2 = e*h + k*n
 * modulo two secret random 61-bit primes drawn once per process (getrandom;
 * a forked child draws its own). Without the primes a forger who makes the
 * identity fail over the integers passes with probability < 2^-50. */
#include <pthread.h>
#include <sys/random.h>
#include <unistd.h>
#include "rw/rw_sig.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t primes[2];
static pid_t owner;   /* process that drew them (0: none yet) */

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

static int get_primes(uint64_t out[2])
{
    pid_t me = getpid();
    pthread_mutex_lock(&lock);
    if (owner != me) {
        uint64_t a = draw_prime(), b = draw_prime();
        while (a != 0 && b == a)
            b = draw_prime();
        if (a != 0 && b != 0) {
            primes[0] = a;
            primes[1] = b;
            owner = me;
        }
    }
    int ok = owner == me;
    out[0] = primes[0];
    out[1] = primes[1];
    pthread_mutex_unlock(&lock);
    return ok;
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((unsigned __int128)a * b % m);
}

int rw_prob_check(const mp_limb_t *s, const mp_limb_t *kq, const mp_limb_t *n,
                  const mp_limb_t *h, size_t nn, int e, int f)
{
    uint64_t P[2];
    if (!get_primes(P))
        return 0;    /* no secret primes: refuse rather than guess */
    for (int i = 0; i < 2; i++) {
        uint64_t m = P[i];
        uint64_t sm = mpn_mod_1(s, (mp_size_t)nn, m), km = mpn_mod_1(kq, (mp_size_t)nn, m);
        uint64_t nm = mpn_mod_1(n, (mp_size_t)nn, m), hm = mpn_mod_1(h, (mp_size_t)nn, m);
        uint64_t l = mulmod(mulmod(sm, sm, m), (uint64_t)f, m);
        uint64_t r = mulmod(km, nm, m);
        r = e > 0 ? (r + hm) % m : (r + m - hm) % m;
        if (l != r)
            return 0;
    }
    return 1;
}
