/* hss_key.h - private: the HSS key object, shared by the hss_*.c files
 * (hss.h states the contract). */
#ifndef FASTSIG_LMS_HSS_KEY_H
#define FASTSIG_LMS_HSS_KEY_H

#include <stdint.h>
#include "lms/hss.h"

struct hss_key {
    unsigned L;
    lms_params lp[LMS_MAX_LEVELS];
    lmots_params op[LMS_MAX_LEVELS];
    lms_tree *tree[LMS_MAX_LEVELS];
    uint64_t tree_idx[LMS_MAX_LEVELS]; /* which tree of its level */
    lms_tree *next[LMS_MAX_LEVELS];    /* tree_idx + 1, being built, or NULL */
    uint8_t *sig[LMS_MAX_LEVELS];      /* sig[i]: level i-1's signature of pub_i */
    unsigned below[LMS_MAX_LEVELS];    /* sum of the heights under level i */
    unsigned threads;                  /* for whole trees built at once */
    uint64_t first, last;              /* the indices it signs: first .. last */
};

/* hss_keygen.c: level i's (>= 1) tree number t, now: the prepared next tree
 * when it is that one, else built from scratch; then the next one is
 * started. */
int hss_descend(hss_key *k, unsigned i, uint64_t t);
/* hss_keygen.c: once the top tree is built, the lower levels' trees of the
 * key's first index (hss_key_gen_range, hss_key_gen_resume). */
int hss_key_gen_lower(hss_key *k);

#endif
