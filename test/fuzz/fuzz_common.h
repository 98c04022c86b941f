/* fuzz_common.h - shared by the fuzz targets: the provider loaded once into
 * a library context, and the entry points every target defines. Built two
 * ways: with libFuzzer (clang, -Dfuzz) and as a replay program that runs
 * the files of test/fuzz/corpus/<target>/ (every normal test run). */
#ifndef FASTSIG_FUZZ_COMMON_H
#define FASTSIG_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/types.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Called once before the first input (by libFuzzer, and by replay.c): loads
 * the provider, so that no input pays for it. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The library context with fastsig and default loaded (aborts on failure). */
OSSL_LIB_CTX *fuzz_libctx(void);
/* Signature algorithms the loaded module offers (NULL-terminated). */
const char *const *fuzz_algorithms(void);
/* The key a SubjectPublicKeyInfo DER decodes to (free it), or NULL; one
 * decoder chain serves every call. */
EVP_PKEY *fuzz_spki(const uint8_t *der, size_t len);

/* The message the verify targets' signatures are over (seeds: make_corpus.sh). */
#define FUZZ_MSG "fuzz"
#define FUZZ_MSG_LEN 4
/* Finishes a verification of FUZZ_MSG begun with EVP_DigestVerifyInit*: one
 * call, or streamed in two parts. The result does not matter. */
void fuzz_verify_msg(EVP_MD_CTX *m, int streamed, const uint8_t *sig, size_t siglen);

#endif
