/* genckpt.h - the checkpoint of a key generation in pieces (doc/state.md
 * section 2, "Resuming a key generation"): the generation's seed and the
 * nodes the pieces of the top tree finished so far left (XMSS: their
 * roots; HSS: the level of the tree's node row, lms_tree.h), so
 * that an interrupted `genpkey -pkeyopt resume:PATH` goes on where it
 * stopped. POSIX only, no OpenSSL; every open through fileio.h (a file or
 * directory open to other users is refused, as for a state file).
 *
 * The seed is the private key: the file is made mode 0600 with O_EXCL and
 * replaced atomically (written to a temporary name, fsync'd, renamed over,
 * directory fsync'd), and removed when the generation succeeds. Layout,
 * little-endian:
 *
 *   off      len  field
 *     0        8  magic "FSIGCKPT"
 *     8        4  version (2)
 *    12        4  kind (keygen_resume.h: XMSS, XMSS^MT, HSS)
 *    16        4  oid of the parameter set (HSS: 0, the set follows)
 *    20        4  n (bytes of a node)
 *    24        8  total: pieces of the generation
 *    32        8  done: pieces whose nodes follow (<= total)
 *    40        4  per: nodes a piece leaves (XMSS: 1, its root)
 *    44        2  seedlen (XMSS: 3n; HSS: n + 16)
 *    46        2  setlen (HSS: L x (lms type, ots type) as in its key)
 *    48   setlen  the set
 *     .  seedlen  the seed
 *     . done*per*n  the nodes of pieces 0 .. done-1
 *     .        8  CRC-64/XZ of everything before
 *
 * (Version 1, without per, seedlen and setlen, was XMSS's alone: it is
 * read as per 1, seedlen 3n.)
 *
 * Errors: STATE_MISSING (no file), STATE_CORRUPT (size, magic, version,
 * lengths or CRC), STATE_NOT_FILE / STATE_UNTRUSTED / STATE_IO as a state
 * file's; cause (may be NULL) names the path and errno. */
#ifndef FASTSIG_GENCKPT_H
#define FASTSIG_GENCKPT_H

#include <stddef.h>
#include <stdint.h>
#include "statecause.h"
#include "keygen_resume.h"

#define FS_GENCKPT_SEED_MAX 192 /* 3 x 64 */
#define FS_GENCKPT_PIECES_MAX 1024 /* 2^(20 - 10): the tallest layer tree */
#define FS_GENCKPT_NODES_MAX ((size_t)1 << 20) /* bytes: HSS 2^15 nodes of 32 */

typedef struct {
    fs_resume_plan plan;               /* what the file is bound to */
    uint64_t done;
    uint8_t seed[FS_GENCKPT_SEED_MAX]; /* plan.seedlen bytes */
    uint8_t *roots;                    /* total * per * n bytes (malloc'd) */
} fs_genckpt;

/* Reads path into *ck (roots allocated for total pieces; free with
 * fs_genckpt_free, which wipes the seed). */
int fs_genckpt_load(const char *path, fs_genckpt *ck, fastsig_cause *cause);
/* Writes ck (done pieces) to path, replacing it atomically and durably. */
int fs_genckpt_save(const char *path, const fs_genckpt *ck, fastsig_cause *cause);
/* Removes path (and fsyncs its directory); FASTSIG_OK when it is gone. */
int fs_genckpt_remove(const char *path, fastsig_cause *cause);
void fs_genckpt_free(fs_genckpt *ck);
/* 1 when a and b are the same generation's plan (kind, set and sizes). */
int fs_genckpt_plan_same(const fs_resume_plan *a, const fs_resume_plan *b);

#endif
