/* keygen_resume.h - a key generation in pieces, the same for every kind
 * that has one (XMSS, XMSS^MT: xmss_keygen_resume; LMS/HSS:
 * hss_key_gen_resume): the top tree is built piece by piece in a fixed
 * order, and what a piece leaves behind (public tree nodes, `per` nodes of
 * n bytes) is all a later run needs to skip it. The caller keeps those
 * nodes with the seed in a checkpoint file (crypto/state/genckpt.h;
 * provider/stateful_resume.c). No OpenSSL, no file here. */
#ifndef FASTSIG_KEYGEN_RESUME_H
#define FASTSIG_KEYGEN_RESUME_H

#include <stddef.h>
#include <stdint.h>

/* roots[0 .. have * per * n) come from an earlier run of the same seed
 * (have <= total) and are taken instead of building those pieces; save
 * (may be NULL) is called after each piece with every piece's nodes done so
 * far (done of total) and stops the generation by returning nonzero
 * (FASTSIG_ERR_INTERNAL, as a progress stop). */
typedef struct fs_keygen_resume_s {
    const uint8_t *roots;
    uint64_t have;
    int (*save)(void *arg, const uint8_t *roots, uint64_t done, uint64_t total);
    void *arg;
} fs_keygen_resume;

#define FS_RESUME_SET_MAX 64 /* HSS: 8 levels x (lms type, ots type) */

/* What a checkpoint is bound to, from the kind's set: a checkpoint of
 * another plan is another generation's. */
typedef struct {
    uint32_t kind;   /* XMSS_KIND_XMSS / _XMSSMT (1, 2), FS_RESUME_KIND_HSS */
    uint32_t oid;    /* XMSS, XMSS^MT: the set's oid; HSS: 0 (set says) */
    uint32_t n;      /* bytes of a node */
    uint32_t per;    /* nodes a piece leaves (XMSS: its root, 1) */
    uint64_t total;  /* pieces of the generation */
    size_t seedlen;  /* XMSS: 3n; HSS: n + 16 (SEED, I) */
    size_t setlen;   /* HSS: L x (u32 lms type || u32 ots type), big-endian */
    uint8_t set[FS_RESUME_SET_MAX];
} fs_resume_plan;

#define FS_RESUME_KIND_HSS 4

#endif
