/* rw_sig.h - what signing and verification share (internal). */
#ifndef FASTSIG_RW_SIG_H
#define FASTSIG_RW_SIG_H

#include "rw/rw_internal.h"
#include "kernel_cost.h"

/* Tweak byte T of the "RW" formats. */
#define RW_T_E 0x01   /* e = -1 */
#define RW_T_F 0x02   /* f = 2 */
#define RW_T_R 0x04   /* randomizer bit */

int rw_is_p1363(int format);
/* q = (f*s^2 - e*h) / n; returns 1 iff the division is exact (s, h: limbs(n)
 * limbs; q: limbs(n) + 2 limbs). This is the equation e*f*s^2 = h (mod n). */
int rw_quotient(const rw_key *k, const mp_limb_t *s, const mp_limb_t *h, int e, int f,
                mp_limb_t *q);
/* Expanded-form verification modulo the per-process secret primes
 * (rw_prob.c): hashes msg with randomizer bit rbit to h and checks
 * f*s^2 = e*h + kq*n modulo both. rw_prob_verify takes s and kq as limbs(n)
 * limbs; rw_prob_verify_be, for keys where rw_fdh_dot_usable(k), the
 * signature's s || kq bytes as sent (range checks are the caller's). */
int rw_prob_verify(const rw_key *k, const mp_limb_t *s, const mp_limb_t *kq, int rbit,
                   const uint8_t *msg, size_t msglen, int e, int f);
int rw_prob_verify_be(const rw_key *k, const uint8_t *sig, int rbit, const uint8_t *msg,
                      size_t msglen, int e, int f);
/* Verification's checks on public data, the rows of rw_check_table
 * ("rw-check": "gmp", the twin, and "ifma"; static costs): fn 1 iff
 * e*f*s^2 = h (mod n) (the compact form), aux 1 iff f*s^2 - e*h == kq*n
 * (the expanded form's exact check); s, h, kq: limbs(n) limbs. */
typedef int rw_check_square_fn(const rw_key *k, const mp_limb_t *s, const mp_limb_t *h, int e,
                               int f);
typedef int rw_check_expanded_fn(const rw_key *k, const mp_limb_t *s, const mp_limb_t *kq,
                                 const mp_limb_t *h, int e, int f);
extern const fs_kernel_table rw_check_table;
static inline rw_check_square_fn *rw_check_square(const fs_kernel *row)
{
    return (rw_check_square_fn *)row->fn;
}

static inline rw_check_expanded_fn *rw_check_expanded(const fs_kernel *row)
{
    return (rw_check_expanded_fn *)row->aux;
}

/* The probabilistic check's residue kernels ("rw-residues": "portable", the
 * twin, and "ifma"; cpu.h fs_kernel rows, static costs). */
extern const fs_kernel_table rw_residues_table;
/* Test hook: out = x * 2^-64 mod the two secret primes (x: nn limbs) through
 * row (of rw_residues_table), in every number slot of the check. Returns 1,
 * or 0 when the row is not usable here (or no primes), -1 if the slots
 * disagree. */
int rw_prob_residues_test(const fs_kernel *row, const mp_limb_t *x, size_t nn, uint64_t out[2]);

#endif
