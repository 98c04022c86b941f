/* hash_internal.h - internal: what the RFC 8391 functions (hash.c) share
 * with the WOTS+ chain walk (chains.c): argument checks, the toByte domain
 * prefixes, keyed midstates, padded message templates, ADRS words. */
#ifndef FASTSIG_HASH_INTERNAL_H
#define FASTSIG_HASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "bytes.h"
#include "hash/hash.h"
#include "hash/lanes.h"

/* toByte(x, pad) domains of F, H, H_msg, PRF and PRF_keygen. */
enum { FS_DOM_F = 0, FS_DOM_H = 1, FS_DOM_HMSG = 2, FS_DOM_PRF = 3, FS_DOM_KEYGEN = 4 };
/* ADRS words the engine writes: the hash address and keyAndMask. */
enum { FS_ADRS_HASH = 6, FS_ADRS_KEYMASK = 7 };

static inline void fs_adrs_set_word(uint8_t *adrs, unsigned word, uint32_t v)
{
    fs_store_be32(adrs + 4 * word, v);
}

/* FASTSIG_OK when s, in and out are set and lanes is in range (hash.h). */
int fs_hash_check_seeds(const fs_hash_seeds *s, const void *out, const void *in, size_t lanes);
/* k = state after the whole blocks of toByte(domain, pad) || key. */
void fs_hash_keyed_init(fs_hash_keyed *k, const fs_hash_params *p, unsigned domain,
                        const uint8_t *key, size_t keylen);
/* A padded message template: k's leftover prefix bytes, len message bytes
 * (left as they are, filled per lane), the padding. Returns its blocks. */
size_t fs_hash_msg_template(fs_hash_family fam, const fs_hash_keyed *k, uint8_t *tmpl, size_t len);

/* The padded templates of a batch that hashes PRF messages of PUB_SEED's
 * midstate || ADRS, and messages toByte(domain, pad) || KEY || M of mlen
 * bytes after KEY (F: the chain value, H: the masked nodes), filled per
 * lane: ADRS at aoff of a PRF message, KEY at koff of the other. */
typedef struct {
    fs_hash_keyed k;          /* toByte(domain, pad), the other message's prefix */
    size_t aoff, koff;
    size_t pnb, mnb;          /* blocks of a PRF message, of the other */
    size_t pbytes, mbytes;
    _Alignas(64) uint8_t ptmpl[4 * 168], mtmpl[4 * 168];
} fs_hash_tmpl;

void fs_hash_tmpl_init(fs_hash_tmpl *t, const fs_hash_seeds *s, unsigned domain, size_t mlen);

#endif
