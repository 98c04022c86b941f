/* rw_prob.h - what the probabilistic check's files share: the secret primes'
 * type and their per-process setup (rw_prob_primes.c), and the modular
 * reductions both the residue rows (rw_prob_residues.c) and the check
 * (rw_prob.c) run, inline (they are on the verification path). */
#ifndef FASTSIG_RW_PROB_H
#define FASTSIG_RW_PROB_H

#include <stdint.h>
#include "rw/rw_sig.h"

#define MAXL (RW_MAX_BITS / GMP_NUMB_BITS + 1)
#define MAXW ((MAXL + 7) & ~7)   /* power tables padded to whole 8-limb vectors */
#define NRES4 4                  /* numbers per residue-row call */
#define SW_VECS 5          /* words 0..39: the 34 that carry h, for <= 36 limbs */

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

/* Bumped in a forked child: threads look again (rw_prob_primes.c). */
extern unsigned rw_prob_generation;
/* The primes of this process, drawn at the first call (and again at the
 * first call in a forked child, which has one thread then); NULL if the OS
 * RNG failed. Once drawn they do not change in this process. */
const prob_prime *rw_prob_get_primes(void);

static inline uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((unsigned __int128)a * b % m);
}

/* Montgomery reduction: T * 2^-64 mod p, for T < p * 2^64. */
static inline uint64_t redc(unsigned __int128 T, const prob_prime *pp)
{
    uint64_t m = (uint64_t)T * pp->pinv;
    uint64_t t = (uint64_t)((T + (unsigned __int128)m * pp->p) >> 64);
    return t >= pp->p ? t - pp->p : t;
}

/* x * 2^-64 mod p from a[0..2], the 192-bit sum of x's limbs times
 * 2^(64 i) mod p: with a[1] in 32-bit halves, a[2] * 2^128 + a1h * 2^96 +
 * a1l * 2^64 + a[0] (a[2] < 2^6: products < 2^125, at most 257 of them) is
 * below 2^95 < p * 2^64 after the powers are reduced; no division. */
static inline uint64_t fold192(const uint64_t a[3], const prob_prime *pp)
{
    return redc((unsigned __int128)a[2] * pp->r128 + (unsigned __int128)(a[1] >> 32) * pp->r96 +
                (unsigned __int128)(uint32_t)a[1] * pp->r64 + a[0], pp);
}

/* The rows of rw_residues_table (rw_prob_residues.c): fn computes the
 * residues of x[0..3] modulo both primes (all scaled by 2^-64; a NULL x[j]
 * is skipped); aux, when set, h's residues straight from the hash's
 * two-lane state, else the caller converts the state to h and uses fn. */
typedef void residues_fn(const mp_limb_t *const x[NRES4], size_t nn, const prob_prime P[2],
                         uint64_t out[2][NRES4]);
typedef void residue_state_fn(const uint64_t *st, const uint64_t (*const W[2])[4][8],
                              const prob_prime P[2], uint64_t out[2]);

#endif
