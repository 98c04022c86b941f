/* lms_params.h - the LMS and LM-OTS parameter sets of RFC 8554 and NIST
 * SP 800-208, from one table of hash families.
 *
 * Contract: a set is looked up by its typecode or its name and comes back
 * filled in by value; nothing else in crypto/lms hard-codes a size. Each
 * hash family is one row (hash, n, first LM-OTS and first LMS typecode);
 * the LM-OTS sets of a row are w = 1, 2, 4, 8 at typecodes base .. base+3,
 * its LMS sets h = 5, 10, 15, 20, 25 at base .. base+4. Typecodes (IANA
 * "Leighton-Micali Signatures (LMS)" registry):
 *   RFC 8554 section 4.1 / 5.1:   LMOTS_SHA256_N32_W1..W8  0x01..0x04
 *                                 LMS_SHA256_M32_H5..H25   0x05..0x09
 *   SP 800-208 section 4 (also draft-fluhrer-lms-more-parm-sets and the
 *   IANA registry; the published vectors of test/vectors/lms confirm them):
 *     LMOTS_SHA256_N24_W1..W8  0x05..0x08   LMS_SHA256_M24_H5..H25  0x0a..0x0e
 *     LMOTS_SHAKE_N32_W1..W8   0x09..0x0c   LMS_SHAKE_M32_H5..H25   0x0f..0x13
 *     LMOTS_SHAKE_N24_W1..W8   0x0d..0x10   LMS_SHAKE_M24_H5..H25   0x14..0x18
 * SHA-256/192 is SHA-256 truncated to 24 bytes; SHAKE256/192 and /256 are
 * SHAKE256 with 24 or 32 output bytes. An LMS set and the LM-OTS set of
 * its tree must share the family (SP 800-208 section 4); lms_pair_ok says so.
 *
 * Derived (RFC 8554 Appendix B): u = ceil(8n/w),
 * v = ceil((floor(lg((2^w - 1) u)) + 1) / w), ls = 16 - v w, p = u + v. */
#ifndef FASTSIG_LMS_PARAMS_H
#define FASTSIG_LMS_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"

#define LMS_I_BYTES 16
#define LMS_MAX_N 32
#define LMS_MAX_P 265   /* n = 32, w = 1 */
#define LMS_MAX_H 25
#define LMS_MAX_LEVELS 8

typedef struct {
    uint32_t type;
    char name[24];        /* "LMOTS_SHA256_N32_W4" */
    fs_hash_family hash;  /* FS_HASH_SHA256 or FS_HASH_SHAKE256 */
    unsigned family;      /* row of the family table */
    unsigned n, w, p, ls;
} lmots_params;

typedef struct {
    uint32_t type;
    char name[24];        /* "LMS_SHA256_M32_H10" */
    fs_hash_family hash;
    unsigned family;
    unsigned m, h;
} lms_params;

/* FASTSIG_OK, or FASTSIG_ERR_UNSUPPORTED for an unknown typecode / name. */
int lmots_params_get(lmots_params *out, uint32_t type);
int lms_params_get(lms_params *out, uint32_t type);
int lmots_params_by_name(lmots_params *out, const char *name);
int lms_params_by_name(lms_params *out, const char *name);
/* Every set, in table order: i < lmots_params_count() etc. */
size_t lmots_params_count(void);
size_t lms_params_count(void);
int lmots_params_at(lmots_params *out, size_t i);
int lms_params_at(lms_params *out, size_t i);
/* 1 when the LMS set and the LM-OTS set may form one tree. */
int lms_pair_ok(const lms_params *lp, const lmots_params *op);
/* The engine descriptor of a set's hash (pad is unused by LMS). */
fs_hash_params lms_hash_params(fs_hash_family hash, unsigned n);

/* Byte sizes of the RFC 8554 encodings. */
static inline size_t lmots_sig_bytes(const lmots_params *op)
{
    return 4 + (size_t)op->n * (op->p + 1);
}
static inline size_t lms_sig_bytes(const lms_params *lp, const lmots_params *op)
{
    return 4 + lmots_sig_bytes(op) + 4 + (size_t)lp->m * lp->h;
}
static inline size_t lms_pub_bytes(const lms_params *lp)
{
    return 4 + 4 + LMS_I_BYTES + lp->m;
}

#endif
