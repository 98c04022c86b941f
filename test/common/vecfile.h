/* vecfile.h - the known-answer vectors folder and its files, for the
 * readers of test/unit (xmss_vec.c ...) and for runners without CUnit
 * (libfastsig-verify's known-answer test, which also runs under qemu-arm). */
#ifndef FASTSIG_TEST_VECFILE_H
#define FASTSIG_TEST_VECFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The vectors folder: $FASTSIG_VECTORS, else the one meson was told. */
const char *fs_vectors_dir(void);
/* Opens vectors/<rel>; on failure prints where it looked, calls
 * fs_vector_missing with that text and returns NULL. */
FILE *fs_open_vector(const char *rel);
/* Defined by the runner that links this file: records the failure (testutil.c: a
 * CUnit failure). */
void fs_vector_missing(const char *msg);

/* fs_unhex, allocating: *len gets the byte count; NULL on bad hex. */
uint8_t *fs_unhex_alloc(const char *hex, size_t *len);

#endif
