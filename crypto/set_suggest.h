/* set_suggest.h - the parameter-set names nearest to a name that is none,
 * for the error that refuses it ("nearest: XMSS-SHA2_10_256, ..."). Reads
 * the cores' own tables (xmss/params.h, lms/lms_params.h); no OpenSSL. */
#ifndef FASTSIG_SET_SUGGEST_H
#define FASTSIG_SET_SUGGEST_H

#include <stddef.h>

/* Which table to search. */
typedef enum {
    FS_SETS_XMSS,   /* XMSS rows */
    FS_SETS_XMSSMT, /* XMSS^MT rows */
    FS_SETS_WOTSP,  /* WOTS+ rows */
    FS_SETS_LMS,    /* LMS sets (LMS_SHA256_M32_H10) */
    FS_SETS_LMOTS,  /* LM-OTS sets (LMOTS_SHA256_N32_W4) */
} fs_set_table;

/* Writes to out the up to 3 names of table closest to name (edit distance,
 * case ignored), joined by ", ", best first: out is "" when the table is
 * empty. Returns how many were written. */
size_t fs_sets_nearest(fs_set_table table, const char *name, char *out, size_t outlen);

/* Edit distance (insertions, deletions, substitutions; case ignored) of a
 * and b, capped at 255. */
unsigned fs_name_distance(const char *a, const char *b);

#endif
