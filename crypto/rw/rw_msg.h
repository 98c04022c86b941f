/* rw_msg.h - message representatives (internal). h and F are limbs(n) limbs. */
#ifndef FASTSIG_RW_MSG_H
#define FASTSIG_RW_MSG_H

#include "rw/rw_internal.h"

/* r = bit 0 of SHAKE256("FASTSIG-RW-R-v1" || prf || M). */
int rw_randomizer_bit(const rw_key *k, const uint8_t *msg, size_t msglen);
/* h = (T_0 || T_1 || ...)[0, nbytes) with the top bit cleared, where
 * T_j = SHAKE256("FASTSIG-RW-H-v1" || kid || BE8(r) || M || BE8(j), 136 bytes). */
void rw_fdh(const rw_key *k, int r, const uint8_t *msg, size_t msglen, mp_limb_t *h);
/* IEEE 1363 EMSA2 with SHA-1 or SHA-256 (format RW_FMT_P1363_*). */
int rw_emsa2(const rw_key *k, int format, unsigned flags, const uint8_t *msg, size_t msglen,
             mp_limb_t *F);

#endif
