/* genckpt.h - the checkpoint of a key generation in pieces (doc/state.md
 * section 2, "Resuming a key generation"): the generation's seed and the
 * roots of the pieces (bottom subtrees of the top tree) finished so far, so
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
 *     8        4  version (1)
 *    12        4  kind (the parameter set's family: XMSS, XMSS^MT)
 *    16        4  oid of the parameter set
 *    20        4  n (hash bytes)
 *    24        8  total: pieces of the generation
 *    32        8  done: pieces whose roots follow (<= total)
 *    40   seedlen  the seed (seedlen = 3n)
 *     .   done*n  the roots of pieces 0 .. done-1
 *     .        8  CRC-64/XZ of everything before
 *
 * Errors: STATE_MISSING (no file), STATE_CORRUPT (size, magic, version,
 * lengths or CRC), STATE_NOT_FILE / STATE_UNTRUSTED / STATE_IO as a state
 * file's; cause (may be NULL) names the path and errno. */
#ifndef FASTSIG_GENCKPT_H
#define FASTSIG_GENCKPT_H

#include <stddef.h>
#include <stdint.h>
#include "statecause.h"

#define FS_GENCKPT_SEED_MAX 192 /* 3 x 64 */
#define FS_GENCKPT_PIECES_MAX 1024 /* 2^(20 - 10): the tallest layer tree */

typedef struct {
    uint32_t kind, oid, n;
    uint64_t total, done;
    uint8_t seed[FS_GENCKPT_SEED_MAX]; /* 3n bytes */
    uint8_t *roots;                    /* total * n bytes (malloc'd) */
} fs_genckpt;

/* Reads path into *ck (roots allocated for total pieces; free with
 * fs_genckpt_free, which wipes the seed). */
int fs_genckpt_load(const char *path, fs_genckpt *ck, fastsig_cause *cause);
/* Writes ck (done pieces) to path, replacing it atomically and durably. */
int fs_genckpt_save(const char *path, const fs_genckpt *ck, fastsig_cause *cause);
/* Removes path (and fsyncs its directory); FASTSIG_OK when it is gone. */
int fs_genckpt_remove(const char *path, fastsig_cause *cause);
void fs_genckpt_free(fs_genckpt *ck);

#endif
