/* rw_keygen.c - key generation: balanced primes p = 3 (mod 8) and
 * q = 7 (mod 8) with their top two bits set (so n has exactly `bits` bits),
 * found by sieving a window of candidates c + 8i and testing survivors with
 * constant-time exponentiations (Fermat base 2, then Miller-Rabin; for these
 * residues p - 1 = 2 * odd, so each MR round is one exponentiation), and a
 * random 32-byte randomizer key. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "rw/rw_internal.h"

#define WINDOW 4096          /* candidates c + 8i, i < WINDOW */
#define NSMALL 2048          /* odd sieving primes */
#define MR_ROUNDS 8          /* after Fermat: error far below 2^-100 for random candidates */

static unsigned small_primes[NSMALL], inv8[NSMALL];   /* p_j and 8^-1 mod p_j */

static void init_small_primes(void)
{
    unsigned cnt = 0;
    for (unsigned v = 3; cnt < NSMALL; v += 2) {
        int prime = 1;
        for (unsigned d = 3; d * d <= v && prime; d += 2)
            prime = v % d != 0;
        if (prime) {
            unsigned i = 1;
            while ((i * 8) % v != 1)
                i++;
            inv8[cnt] = i;
            small_primes[cnt++] = v;
        }
    }
}

/* a^((c-1)/2) = +-1 (mod c) for MR with c = 3 (mod 4), or a^(c-1) = 1 (Fermat). */
static int probable_prime(const mpz_t c)
{
    static const unsigned bases[MR_ROUNDS] = { 3, 5, 7, 11, 13, 17, 19, 23 };
    mpz_t x, e, b, cm1;
    mpz_inits(x, e, b, cm1, NULL);
    mpz_sub_ui(cm1, c, 1);
    mpz_set_ui(b, 2);
    mpz_powm_sec(x, b, cm1, c);
    int ok = mpz_cmp_ui(x, 1) == 0;
    mpz_tdiv_q_2exp(e, cm1, 1);
    for (int i = 0; ok && i < MR_ROUNDS; i++) {
        mpz_set_ui(b, bases[i]);
        mpz_powm_sec(x, b, e, c);
        ok = mpz_cmp_ui(x, 1) == 0 || mpz_cmp(x, cm1) == 0;
    }
    mpz_clears(x, e, b, cm1, NULL);
    return ok;
}

static int gen_prime(mpz_t out, unsigned pbits, unsigned residue, rw_rand_fn rnd, void *arg)
{
    size_t nb = (pbits + 7) / 8;
    uint8_t buf[RW_MAX_BITS / 16 + 1];
    uint8_t *sieve = malloc(WINDOW);
    if (sieve == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = FASTSIG_ERR_INTERNAL;
    for (int attempt = 0; attempt < 1000; attempt++) {
        if (rnd(arg, buf, nb) != 1) {
            rc = FASTSIG_ERR_RNG;
            break;
        }
        mpz_import(out, nb, 1, 1, 1, 0, buf);
        mpz_fdiv_r_2exp(out, out, pbits);
        mpz_setbit(out, pbits - 1);
        mpz_setbit(out, pbits - 2);
        mpz_fdiv_q_2exp(out, out, 3);
        mpz_mul_2exp(out, out, 3);
        mpz_add_ui(out, out, residue);
        memset(sieve, 0, WINDOW);
        for (unsigned j = 0; j < NSMALL; j++) {
            unsigned long pr = small_primes[j], r = mpz_fdiv_ui(out, pr);
            /* first i with out + 8i = 0 (mod pr): i = -r * 8^-1 */
            for (unsigned long i = ((pr - r) % pr) * inv8[j] % pr; i < WINDOW; i += pr)
                sieve[i] = 1;
        }
        for (unsigned i = 0; i < WINDOW; i++) {
            if (sieve[i])
                continue;
            mpz_t c;
            mpz_init(c);
            mpz_add_ui(c, out, 8UL * i);
            int top_ok = rw_bitlen(c) == pbits;
            if (top_ok && probable_prime(c)) {
                mpz_swap(out, c);
                mpz_clear(c);
                rc = FASTSIG_OK;
                goto done;
            }
            mpz_clear(c);
        }
    }
done:
    rw_wipe(buf, sizeof(buf));
    free(sieve);
    return rc;
}

int rw_keygen(rw_key *k, unsigned bits, rw_rand_fn rnd, void *rnd_arg)
{
    if (k == NULL || rnd == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (bits == 0)
        bits = RW_DEFAULT_BITS;
    if (bits % 8 != 0 || bits < RW_MIN_BITS || bits > RW_MAX_BITS)
        return FASTSIG_ERR_BAD_PARAM;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_small_primes);
    rw_key *t = rw_key_new();
    if (t == NULL)
        return FASTSIG_ERR_NOMEM;
    unsigned pbits = bits / 2;
    int rc = gen_prime(t->p, pbits, 3, rnd, rnd_arg);
    if (rc == FASTSIG_OK)
        rc = gen_prime(t->q, bits - pbits, 7, rnd, rnd_arg);
    if (rc == FASTSIG_OK && rnd(rnd_arg, t->prf, RW_PRF_BYTES) != 1)
        rc = FASTSIG_ERR_RNG;
    if (rc == FASTSIG_OK) {
        mpz_mul(t->n, t->p, t->q);
        t->has_priv = 1;
        rc = rw_bitlen(t->n) == bits ? rw_key_derive(t) : FASTSIG_ERR_INTERNAL;
    }
    if (rc == FASTSIG_OK) {
        rw_key tmp = *k;
        *k = *t;
        *t = tmp;
    }
    rw_key_free(t);
    return rc;
}
