/* hash_internal.h - internal: what the RFC 8391 functions (hash.c) share
 * with the WOTS+ chain walk (chains.c): argument checks, the toByte domain
 * prefixes, keyed midstates, padded message templates, ADRS words. */
#ifndef FASTSIG_HASH_INTERNAL_H
#define FASTSIG_HASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"
#include "hash/lanes.h"

/* toByte(x, pad) domains of F, H, H_msg, PRF and PRF_keygen. */
enum { FS_DOM_F = 0, FS_DOM_H = 1, FS_DOM_HMSG = 2, FS_DOM_PRF = 3, FS_DOM_KEYGEN = 4 };
/* ADRS words the engine writes: the hash address and keyAndMask. */
enum { FS_ADRS_HASH = 6, FS_ADRS_KEYMASK = 7 };

static inline void fs_adrs_set_word(uint8_t *adrs, unsigned word, uint32_t v)
{
    fs_be32_store(adrs + 4 * word, v);
}

/* FASTSIG_OK when s, in and out are set and lanes is in range (hash.h). */
int fs_hash_check_seeds(const fs_hash_seeds *s, const void *out, const void *in, size_t lanes);
/* k = state after the whole blocks of toByte(domain, pad) || key. */
void fs_hash_keyed_init(fs_hash_keyed *k, const fs_hash_params *p, unsigned domain,
                        const uint8_t *key, size_t keylen);
/* A padded message template: k's leftover prefix bytes, len message bytes
 * (left as they are, filled per lane), the padding. Returns its blocks. */
size_t fs_hash_msg_template(fs_hash_family fam, const fs_hash_keyed *k, uint8_t *tmpl, size_t len);

#endif
