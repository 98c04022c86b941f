/* rw_ifma.h - constant-time modular exponentiation with AVX-512 IFMA
 * (52-bit limbs, almost-Montgomery multiplication), two moduli in lockstep:
 * RW signing's x^dp mod p and x^dq mod q are independent, so one loop runs
 * both and each hides the other's latency. The GMP path (mpn_sec_powm) is
 * the portable twin; the tests hold this one against it. */
#ifndef FASTSIG_RW_IFMA_H
#define FASTSIG_RW_IFMA_H

#include <gmp.h>
#include <stdint.h>

#define RW_IFMA_MAXNV 5                 /* up to 40 limbs: moduli of <= 2078 bits */
#define RW_IFMA_MAXL (8 * RW_IFMA_MAXNV)

typedef struct {
    unsigned L;                         /* 52-bit limbs; R = 2^(52 L), 4m < R */
    unsigned nv;                        /* 8-limb vectors: ceil(L / 8) */
    uint64_t k0;                        /* -m^-1 mod 2^52 */
    uint64_t m[RW_IFMA_MAXL];
    uint64_t rr[RW_IFMA_MAXL];          /* R^2 mod m */
} rw_mont52;

/* The features of the IFMA rows of RW's kernel tables. */
#define RW_IFMA_CPU (FS_CPU_AVX512 | FS_CPU_IFMA)

/* 1 when the usable set (FASTSIG_CPU too) allows the IFMA rows of RW's
 * kernel tables: keys then get the contexts they need (rw_key_derive);
 * which row runs is the picker's choice. */
int rw_ifma_usable(void);
/* Precomputes for an odd modulus m (secret: constant-time). 0 when the size
 * is out of range (the caller keeps the GMP path). */
int rw_mont52_init(rw_mont52 *c, const mpz_t m);
/* r1 = x1^e1 mod m1 and r2 = x2^e2 mod m2 (x, r: GMP limb arrays of n1 / n2
 * = limbs(m) limbs, x < m), fully reduced. c1->L must equal c2->L. ebits
 * bounds both exponents' bit lengths (public). */
void rw_powm2_ifma(mp_limb_t *r1, const mp_limb_t *x1, size_t n1, const mpz_t e1,
                   const rw_mont52 *c1, mp_limb_t *r2, const mp_limb_t *x2, size_t n2,
                   const mpz_t e2, const rw_mont52 *c2, unsigned ebits);

/* Verification (public data): 1 iff e*f*s^2 = h (mod n) for c built on n
 * (s, h: nn GMP limbs, < n), by two almost-Montgomery products in one call
 * (s*s/R and h/R) instead of a long division. */
int rw_ifma_check_square(const rw_mont52 *c, const mp_limb_t *s, const mp_limb_t *h, size_t nn,
                         int e, int f);

/* Exact expanded check over the integers: 1 iff f*s^2 - e*h == kq*n, with
 * both products computed by IFMA product scanning (c built on n). */
int rw_ifma_check_expanded(const rw_mont52 *c, const mp_limb_t *s, const mp_limb_t *kq,
                           const mp_limb_t *h, size_t nn, int e, int f);

#endif
