/* hbs_vec.h - reads the "key = value" files of vectors/xmss/. */
#ifndef FASTSIG_TEST_HBS_VEC_H
#define FASTSIG_TEST_HBS_VEC_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t count;
    char **keys, **vals;
} hbs_vec;

/* Loads vectors/xmss/<file>; NULL (with a CUnit failure saying where it
 * looked) when missing. */
hbs_vec *hbs_vec_load(const char *file);
void hbs_vec_free(hbs_vec *v);
/* The value of key, or NULL. */
const char *hbs_vec_get(const hbs_vec *v, const char *key);
/* The value decoded from hex (malloc'd, *len set), or NULL. */
uint8_t *hbs_vec_bytes(const hbs_vec *v, const char *key, size_t *len);

#endif
