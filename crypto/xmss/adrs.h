/* adrs.h - the RFC 8391 hash address (ADRS), kept in its 32-byte wire form
 * (eight big-endian 32-bit words) so batches hand it to crypto/hash as is.
 *
 * Words: 0 layer, 1-2 tree (64-bit), 3 type, then per type:
 *   OTS (0):    4 OTS address, 5 chain, 6 hash
 *   L-tree (1): 4 L-tree address, 5 tree height, 6 tree index
 *   tree (2):   4 padding (0), 5 tree height, 6 tree index
 * and 7 keyAndMask. Setting the type zeroes words 4..7 (RFC 8391 2.7.3). */
#ifndef FASTSIG_XMSS_ADRS_H
#define FASTSIG_XMSS_ADRS_H

#include <stdint.h>
#include <string.h>
#include "bytes.h"

#define XMSS_ADRS_BYTES 32
enum { XMSS_ADRS_OTS = 0, XMSS_ADRS_LTREE = 1, XMSS_ADRS_TREE = 2 };

typedef struct {
    uint8_t b[XMSS_ADRS_BYTES];
} xmss_adrs;

static inline void xmss_adrs_word(xmss_adrs *a, unsigned word, uint32_t v)
{
    fs_store_be32(a->b + 4 * word, v);
}

static inline void xmss_adrs_init(xmss_adrs *a, uint32_t layer, uint64_t tree, uint32_t type)
{
    memset(a->b, 0, sizeof(a->b));
    xmss_adrs_word(a, 0, layer);
    xmss_adrs_word(a, 1, (uint32_t)(tree >> 32));
    xmss_adrs_word(a, 2, (uint32_t)tree);
    xmss_adrs_word(a, 3, type);
}

/* Same layer and tree, new type, words 4..7 zero. */
static inline void xmss_adrs_set_type(xmss_adrs *a, uint32_t type)
{
    xmss_adrs_word(a, 3, type);
    memset(a->b + 16, 0, 16);
}

#define xmss_adrs_set_ots(a, v) xmss_adrs_word((a), 4, (v))
#define xmss_adrs_set_ltree(a, v) xmss_adrs_word((a), 4, (v))
#define xmss_adrs_set_chain(a, v) xmss_adrs_word((a), 5, (v))
#define xmss_adrs_set_tree_height(a, v) xmss_adrs_word((a), 5, (v))
#define xmss_adrs_set_hash(a, v) xmss_adrs_word((a), 6, (v))
#define xmss_adrs_set_tree_index(a, v) xmss_adrs_word((a), 6, (v))

#endif
