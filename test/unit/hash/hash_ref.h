/* hash_ref.h - one-lane reference hashes for the hash tests, through
 * OpenSSL's EVP: the truth that every kernel and batch call is held to. */
#ifndef FASTSIG_TEST_HASH_REF_H
#define FASTSIG_TEST_HASH_REF_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"

/* First n bytes of SHA-256/SHA-512/SHAKE128/SHAKE256(in). */
void ref_hash(fs_hash_family f, uint8_t *out, size_t n, const uint8_t *in, size_t len);
/* Hash(toByte(domain, pad) || a || b || c) (NULL parts are skipped). */
void ref_prefixed(const fs_hash_params *p, unsigned domain, uint8_t *out, const uint8_t *a,
                  size_t alen, const uint8_t *b, size_t blen, const uint8_t *c, size_t clen);
/* RFC 8391 chain step and RAND_HASH, one lane, from the definitions. */
void ref_chain(const fs_hash_params *p, const uint8_t *seed, uint8_t *x, const uint8_t *adrs,
               uint32_t start, uint32_t steps);
void ref_rand_hash(const fs_hash_params *p, const uint8_t *seed, uint8_t *out,
                   const uint8_t *in, const uint8_t *adrs);

/* The parameter descriptors the tests cover (NPARAMS rows). */
#define NPARAMS 7
extern const fs_hash_params test_params[NPARAMS];
const char *param_name(const fs_hash_params *p);
/* Runs fn for every descriptor on every distinct CPU path this machine
 * has (portable, each extension alone, all), then restores the default
 * selection. */
void each_path_param(void (*fn)(const fs_hash_params *p));

#endif
