/* rw_msg.h - message representatives (internal). h and F are limbs(n) limbs. */
#ifndef FASTSIG_RW_MSG_H
#define FASTSIG_RW_MSG_H

#include "hash/keccak.h"
#include "rw/rw_internal.h"
#include "rw/rw_keccak_dot.h"

/* r = bit 0 of SHAKE256("FASTSIG-RW-R-v1" || prf || M). */
int rw_randomizer_bit(const rw_key *k, const uint8_t *msg, size_t msglen);
/* h = (T_0 || T_1 || ...)[0, nbytes) with the top bit cleared, where
 * T_j = SHAKE256("FASTSIG-RW-H-v1" || kid || BE8(r) || M || BE8(j), 136 bytes). */
void rw_fdh(const rw_key *k, int r, const uint8_t *msg, size_t msglen, mp_limb_t *h);
/* The same hash for keys where rw_fdh_dot_usable(k) (two 136-byte lanes,
 * nbytes a multiple of 8, <= RW_KECCAK_DOT_LEN limbs, the asm two-lane
 * kernel), with job's dot products computed on the integer pipes while it
 * permutes (rw_keccak_dot.h). It leaves the two-lane state
 * (word i of lane l at st[2 i + l]): limb nl-1-(17 l + i) of h is word i of
 * lane l byte-swapped (h's top bit cleared); rw_fdh_state_to_h reads h. */
int rw_fdh_dot_usable(const rw_key *k);
void rw_fdh_dot(const rw_key *k, int r, const uint8_t *msg, size_t msglen, uint64_t st[2 * 25],
                rw_keccak_dot_job *job);
void rw_fdh_state_to_h(const rw_key *k, const uint64_t st[2 * 25], mp_limb_t *h);
/* IEEE 1363 EMSA2 with SHA-1 or SHA-256 (format RW_FMT_P1363_*). */
int rw_emsa2(const rw_key *k, int format, unsigned flags, const uint8_t *msg, size_t msglen,
             mp_limb_t *F);

#endif
