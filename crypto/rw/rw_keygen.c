/* rw_keygen.c - key generation: balanced primes p = 3 (mod 8) and
 * q = 7 (mod 8) with their top two bits set (so n has exactly `bits` bits),
 * found by sieving a window of candidates c + 8i and testing survivors with
 * constant-time exponentiations (Fermat base 2, then Miller-Rabin; for these
 * residues p - 1 = 2 * odd, so each MR round is one exponentiation), and a
 * random 32-byte randomizer key. Candidates live in limb buffers of our own,
 * wiped when the search ends. (The sieve and the tests' outcomes depend on
 * the candidate's value: keygen is not constant time, signing is.) */
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

/* Limb buffers of one prime search (ours: wiped before they are freed, so
 * no candidate, which shares its top bits with the prime found, and no GMP
 * temporary of the tests reaches free()). */
typedef struct {
    size_t n;                /* limbs of a candidate */
    mp_limb_t *base, *c, *cm1, *e, *x, *b, *scratch;
    size_t total;
    mp_limb_t *buf;
} search;

static int search_init(search *s, unsigned pbits)
{
    s->n = (pbits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS;
    size_t sl = (size_t)mpn_sec_powm_itch((mp_size_t)s->n, pbits, (mp_size_t)s->n);
    s->total = 6 * s->n + sl;
    s->buf = calloc(s->total, sizeof(mp_limb_t));
    if (s->buf == NULL)
        return FASTSIG_ERR_NOMEM;
    s->base = s->buf;
    s->c = s->base + s->n;
    s->cm1 = s->c + s->n;
    s->e = s->cm1 + s->n;
    s->x = s->e + s->n;
    s->b = s->x + s->n;
    s->scratch = s->b + s->n;
    return FASTSIG_OK;
}

static void search_free(search *s)
{
    rw_wipe(s->buf, s->total * sizeof(mp_limb_t));
    free(s->buf);
}

/* x == v (one-limb v) over n limbs. */
static int limbs_eq_ui(const mp_limb_t *x, size_t n, mp_limb_t v)
{
    mp_limb_t acc = x[0] ^ v;
    for (size_t i = 1; i < n; i++)
        acc |= x[i];
    return acc == 0;
}

/* Fermat base 2 (a^(c-1) = 1), then Miller-Rabin: for c = 3 (mod 4) each
 * round is a^((c-1)/2) = +-1 (mod c). The candidate is s->c (pbits bits). */
static int probable_prime(search *s, unsigned pbits)
{
    static const unsigned bases[MR_ROUNDS] = { 3, 5, 7, 11, 13, 17, 19, 23 };
    mp_size_t n = (mp_size_t)s->n;
    mpn_sub_1(s->cm1, s->c, n, 1);
    mpn_rshift(s->e, s->cm1, n, 1);
    memset(s->b, 0, s->n * sizeof(mp_limb_t));
    s->b[0] = 2;
    mpn_sec_powm(s->x, s->b, n, s->cm1, pbits, s->c, n, s->scratch);
    int ok = limbs_eq_ui(s->x, s->n, 1);
    for (int i = 0; ok && i < MR_ROUNDS; i++) {
        s->b[0] = bases[i];
        mpn_sec_powm(s->x, s->b, n, s->e, pbits - 1, s->c, n, s->scratch);
        ok = limbs_eq_ui(s->x, s->n, 1) || mpn_cmp(s->x, s->cm1, n) == 0;
    }
    return ok;
}

static int gen_prime(mpz_t out, unsigned pbits, unsigned residue, rw_rand_fn rnd, void *arg)
{
    size_t nb = (pbits + 7) / 8;
    uint8_t buf[RW_MAX_BITS / 16 + 1];
    search s;
    uint8_t *sieve = malloc(WINDOW);
    if (sieve == NULL || search_init(&s, pbits) != FASTSIG_OK) {
        free(sieve);
        return FASTSIG_ERR_NOMEM;
    }
    size_t top = (pbits - 1) / GMP_NUMB_BITS;
    mp_limb_t topmask = (mp_limb_t)-1 >> (GMP_NUMB_BITS - 1 - (pbits - 1) % GMP_NUMB_BITS);
    int rc = FASTSIG_ERR_INTERNAL;
    for (int attempt = 0; attempt < 1000; attempt++) {
        if (rnd(arg, buf, nb) != 1) {
            rc = FASTSIG_ERR_RNG;
            break;
        }
        /* base: pbits bits, the top two set, = residue (mod 8) */
        rw_from_be(s.base, s.n, buf, nb);
        s.base[top] &= topmask;
        s.base[(pbits - 1) / GMP_NUMB_BITS] |= (mp_limb_t)1 << ((pbits - 1) % GMP_NUMB_BITS);
        s.base[(pbits - 2) / GMP_NUMB_BITS] |= (mp_limb_t)1 << ((pbits - 2) % GMP_NUMB_BITS);
        s.base[0] = (s.base[0] & ~(mp_limb_t)7) | residue;
        memset(sieve, 0, WINDOW);
        for (unsigned j = 0; j < NSMALL; j++) {
            unsigned long pr = small_primes[j], r = mpn_mod_1(s.base, (mp_size_t)s.n, pr);
            /* first i with base + 8i = 0 (mod pr): i = -r * 8^-1 */
            for (unsigned long i = ((pr - r) % pr) * inv8[j] % pr; i < WINDOW; i += pr)
                sieve[i] = 1;
        }
        for (unsigned i = 0; i < WINDOW; i++) {
            if (sieve[i])
                continue;
            mp_limb_t carry = mpn_add_1(s.c, s.base, (mp_size_t)s.n, 8UL * i);
            if (carry != 0 || (s.c[top] & ~topmask) != 0)
                break;          /* past pbits bits: the next window */
            if (probable_prime(&s, pbits)) {
                mp_limb_t *ol = mpz_limbs_write(out, (mp_size_t)s.n);
                memcpy(ol, s.c, s.n * sizeof(mp_limb_t));
                mpz_limbs_finish(out, (mp_size_t)s.n);
                rc = FASTSIG_OK;
                goto done;
            }
        }
    }
done:
    rw_wipe(buf, sizeof(buf));
    search_free(&s);
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
        t->has_priv = 1;
        rc = rw_modulus(t->n, t->p, t->q);
        if (rc == FASTSIG_OK)
            rc = rw_bitlen(t->n) == bits ? rw_key_derive(t) : FASTSIG_ERR_INTERNAL;
    }
    if (rc == FASTSIG_OK)
        rw_key_swap(k, t); /* the old contents freed with t */
    rw_key_free(t);
    return rc;
}
