/* tz_vectors.h - reads test/vectors/tz/tzhash.txt for the TZ tests. */
#ifndef FASTSIG_TZ_VECTORS_H
#define FASTSIG_TZ_VECTORS_H

#include <stddef.h>
#include <stdint.h>

/* Expands an input spec of the file (hex:, ascii:, seq:n, pat131:n,
 * rep:BB:n) into a malloc'd buffer; NULL on an unknown spec. */
uint8_t *tzv_expand(const char *spec, size_t *len);

/* Calls fn for every digest line (id, len, spec, 64-byte digest); returns
 * the number of lines seen, or -1 when the file is missing (a CUnit failure
 * that names the path is recorded then). */
typedef void (*tzv_digest_fn)(const char *id, const uint8_t *msg, size_t len,
                              const uint8_t digest[64], void *arg);
int tzv_for_each_digest(tzv_digest_fn fn, void *arg);

/* Returns a malloc'd copy of the first line whose first tab-separated field
 * is `id`, or NULL. */
char *tzv_line(const char *id);

#endif
