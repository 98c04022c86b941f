/* rw_internal.h - what the RW core's files share (not part of the API). */
#ifndef FASTSIG_RW_INTERNAL_H
#define FASTSIG_RW_INTERNAL_H

#include <gmp.h>
#include "rw/rw.h"
#include "rw/rw_ifma.h"
#include "kernel_cost.h"

struct rw_key {
    unsigned bits;          /* bit length of n; 0 = empty */
    size_t nbytes;          /* bits / 8 */
    int has_priv;
    mpz_t n;
    uint8_t kid[32];        /* SHAKE256("FASTSIG-RW-KID-v1" || n) */
    rw_mont52 *nmont;       /* n for the IFMA compact verifier; NULL: GMP */
    /* private part (has_priv) */
    mpz_t p, q;
    mpz_t u;                /* q^-1 mod p */
    mpz_t dp, dq;           /* (p+1)/4, (q+1)/8 */
    size_t dpbits, dqbits;  /* their bit lengths (public: loop bounds of signing) */
    mpz_t ap, aq;           /* (1/2)^((p+1)/4) mod p, (1/2)^((q+1)/4) mod q */
    uint8_t prf[RW_PRF_BYTES];
    rw_mont52 *mont;        /* [2]: p, q for the IFMA path; NULL: GMP path (secmem.h) */
    mp_limb_t *sealed;      /* the private numbers' limbs (rw_key_seal), or NULL */
};

/* Bit length of z (0 for 0). */
static inline size_t rw_bitlen(const mpz_t z)
{
    return mpz_sgn(z) ? mpz_sizeinbase(z, 2) : 0;
}

/* Big-endian bytes <-> little-endian limb arrays of a fixed limb count.
 * from_be: blen <= 8 * nl required; the rest is zero-filled. */
void rw_from_be(mp_limb_t *r, size_t nl, const uint8_t *in, size_t blen);
/* Its kernels, the rows of rw_from_be_table ("rw-from-be": "portable", the
 * twin, and "avx2"; calibrated): fn(r, full, end) writes the full whole
 * limbs that end at end (limb i from the 8 bytes before end - 8 i). */
typedef void rw_from_be_fn(mp_limb_t *r, size_t full, const uint8_t *end);
extern const fs_kernel_table rw_from_be_table;
static inline rw_from_be_fn *rw_from_be_of(const fs_kernel *row)
{
    return (rw_from_be_fn *)row->fn;
}
/* rw_from_be on a given row (rw_from_be: the process's). */
void rw_from_be_with(const fs_kernel *row, mp_limb_t *r, size_t nl, const uint8_t *in,
                     size_t blen);
/* to_be: writes exactly blen bytes (high limbs beyond blen must be zero). */
void rw_to_be(uint8_t *out, size_t blen, const mp_limb_t *a, size_t nl);
void rw_mpz_to_be(uint8_t *out, size_t blen, const mpz_t z);
void rw_wipe(void *p, size_t len);

/* n = p*q by mpn_sec_mul with scratch of its own, wiped (p, q secret). */
int rw_modulus(mpz_t r, const mpz_t a, const mpz_t b);
/* Wipes an mpz's limbs (allocated ones, not just the used ones). */
void rw_mpz_wipe(mpz_t z);
/* Declassifies a size (public: a check's outcome, the sizes of p and q). */
size_t rw_public_size(size_t v);

/* Key validation (rw_key.c): n alone; n, p, q without variable-time work on
 * p and q; the signing self-test a private key passes at import. */
int rw_check_public(const mpz_t n, unsigned min_bits);
int rw_check_private(const mpz_t n, const mpz_t p, const mpz_t q, unsigned min_bits);
int rw_key_self_test(const rw_key *k);
/* Drops a key's private part (wiped). */
void rw_key_clear_private(rw_key *k);

/* Fills the derived private values (u, dp, dq, ap, aq, kid, bits) of a key
 * whose n, p, q (and prf) are set; no validation. */
int rw_key_derive(rw_key *k);
/* Moves the private numbers (p, q, u, dp, dq, ap, aq) into one secmem.h
 * block (out of core dumps) as read-only views; unseal makes them GMP's
 * (writable) again and wipes the block. */
int rw_key_seal(rw_key *k);
void rw_key_unseal(rw_key *k);
/* Swaps two keys' contents (the stack copy wiped). */
void rw_key_swap(rw_key *a, rw_key *b);

/* The signing primitive: the |principal| root s of e*h/f mod n, with
 * e in {1,-1}, f in {1,2} (h: nbytes-limb array < n). s: limbs(n) limbs.
 * Constant-time in the secrets; the fault check is the caller's. */
int rw_root(const rw_key *k, const mp_limb_t *h, mp_limb_t *s, int *e, int *f);

/* Test hook: when nonzero, rw_root corrupts its CRT output (to prove the
 * fault check withholds the signature). Tests only; not thread-safe. */
extern int rw_test_inject_fault;
/* Signing's two exponentiations, V = hp^dp mod p and U = hq^dq mod q (hp,
 * hq reduced, of limbs(p) and limbs(q) limbs), with scratch enough for
 * mpn_sec_powm on either prime: the rows of rw_powm2_table ("rw-powm2":
 * "gmp", the twin, and "ifma"; cpu.h fs_kernel rows, static costs). */
typedef void rw_powm2_fn(const rw_key *k, mp_limb_t *V, const mp_limb_t *hp, mp_limb_t *U,
                         const mp_limb_t *hq, mp_limb_t *scratch);
extern const fs_kernel_table rw_powm2_table;
/* rw_root on a given row of rw_powm2_table (rw_root: the process's). */
int rw_root_with(const fs_kernel *powm2, const rw_key *k, const mp_limb_t *h, mp_limb_t *s,
                 int *e, int *f);

#endif
