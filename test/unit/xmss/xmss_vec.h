/* xmss_vec.h - reads the "key = value" files of vectors/xmss/. */
#ifndef FASTSIG_TEST_XMSS_VEC_H
#define FASTSIG_TEST_XMSS_VEC_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t count;
    char **keys, **vals;
} xmss_vec;

/* Loads vectors/xmss/<file>; NULL (with a CUnit failure saying where it
 * looked) when missing. */
xmss_vec *xmss_vec_load(const char *file);
void xmss_vec_free(xmss_vec *v);
/* The value of key, or NULL. */
const char *xmss_vec_get(const xmss_vec *v, const char *key);
/* The value decoded from hex (malloc'd, *len set), or NULL. */
uint8_t *xmss_vec_bytes(const xmss_vec *v, const char *key, size_t *len);

#endif
