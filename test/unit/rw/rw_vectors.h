/* rw_vectors.h - the Crypto++ RW vectors (test/vectors/rw/): the original
 * Crypto++ TestData file and the derived JSON (sig_p1363, tweaks). */
#ifndef FASTSIG_RW_VECTORS_H
#define FASTSIG_RW_VECTORS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *n, *p, *q, *msg, *sig;  /* hex strings (malloc'd) */
} rwv_record;

/* cryptopp-rw.txt: one record per "Test: Verify" (key fields carried over).
 * Returns the count (records malloc'd into *out), -1 when the file is missing. */
int rwv_load_txt(rwv_record **out);

typedef struct {
    int bits, e, f;
    char *n, *p, *q, *u, *msg, *sig_vector, *sig_p1363;
} rwv_derived;

/* cryptopp-rw-derived.json, in file order; -1 when missing. */
int rwv_load_json(rwv_derived **out);

/* fs_unhex_alloc that also takes an odd digit count (a leading 0 implied):
 * the JSON writes integers minimally. */
uint8_t *rwv_unhex(const char *hex, size_t *len);

void rwv_free_txt(rwv_record *r, int n);
void rwv_free_json(rwv_derived *d, int n);

#endif
