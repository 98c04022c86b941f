/* stateful_evp.h - helpers shared by the WOTSP / XMSS / XMSS^MT EVP test
 * programs: keys, one-shot sign and verify, PEM round trips, state-file
 * moves, and the checks every stateful scheme must pass (known answers,
 * tampering, unusable states, reservation blocks, processes, threads,
 * SIGKILL). Keys live in evp_fixture's libctx; state files in a scratch
 * folder made by stateful_load. */
#ifndef FASTSIG_XMSS_EVP_H
#define FASTSIG_XMSS_EVP_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include "testutil.h"
#include "xmss/params.h"

/* FASTSIG_SOAK set (not "0"): the long runs. */
int soak(void);
/* Test rows: load the providers and make the scratch folder; undo both. */
void stateful_load(void);
void stateful_unload(void);
/* A fresh state path in the scratch folder. */
void new_state_path(char *out, size_t len);
/* The fastsig reason code of the last error (0 if none), queue cleared. */
int last_reason(void);

/* Generates a key of alg; NULLs choose the defaults. *state gets the path. */
EVP_PKEY *gen_key(const char *alg, const char *param, const char *seedhex,
                  const char *mode, char *state, size_t statelen);
/* The same on `threads` key-generation threads (0: the provider's default). */
EVP_PKEY *gen_key_ex(const char *alg, const char *param, const char *seedhex,
                     const char *mode, unsigned threads, char *state, size_t statelen);
/* One-shot digest-sign: 0, or the fastsig reason (no signature then);
 * batch: the signature context's reservation block (0: the key's). */
int sign_msg(EVP_PKEY *k, const void *msg, size_t msglen, unsigned char **sig,
             size_t *siglen, uint64_t batch);
int verify_msg(EVP_PKEY *k, const void *msg, size_t msglen, const unsigned char *sig,
               size_t siglen);
/* A uint64 key parameter (UINT64_MAX when not available). */
uint64_t key_u64(EVP_PKEY *k, const char *name);
char *to_pem(EVP_PKEY *k, int priv);
EVP_PKEY *from_pem(const char *pem, int priv);
int get_pub(EVP_PKEY *k, unsigned char *pub, size_t cap, size_t *len);
/* Decodes pem anew and asserts that signing msg fails with reason. */
void check_decoded_refuses(const char *pem, const void *msg, size_t msglen, int reason);

/* Operator move: rewrite the key's state so that `next` is the next index. */
int state_jump(EVP_PKEY *k, const char *state, uint64_t next);
/* Forged `max` in a valid state file: the reloaded key signs nothing. */
void check_forged_max(const char *alg, const char *param, const uint64_t *maxes, size_t n);
/* The `next` recorded in a state file (UINT64_MAX if unreadable). */
uint64_t state_file_next(const char *state);
/* The index a signature carries in its first idx_bytes bytes. */
uint64_t sig_index(const unsigned char *sig, size_t idx_bytes);

/* Flipped bytes, truncation, extension and another message all fail. */
void check_tamper(EVP_PKEY *k, const char *msg, const unsigned char *sig, size_t siglen);
/* Every vector file of alg: known answers, dup/dupctx sharing, unusable
 * states, the last index. */
void check_kat_files(const char *alg, const char *const *files, size_t n, size_t idx_bytes);
/* A random key of param: signatures at the first indices (and at jump). */
void round_trip(const char *alg, const char *param, size_t idx_bytes, uint64_t jump);
/* round_trip for every row of kind (nrows of them) that skip does not
 * skip, the third signature at jump(row) (0: none); says how many ran. */
void round_trips(const char *alg, int kind, size_t nrows, int (*skip)(const xmss_params *),
                 uint64_t (*jump)(const xmss_params *));
/* Reservation blocks, give-back at close, batch 1. */
void check_batches(const char *alg, const char *param);
/* The rows of one kind of the parameter table. */
size_t rows_of(int kind, const xmss_params **out, size_t cap);

/* The key for stateful_proc_tests: made, checked, nsig signatures per process,
 * kills SIGKILL runs. */
void proc_key_make(const char *alg, const char *param, uint64_t max, size_t idx_bytes,
                   int nsig, int kills);
/* Processes, threads, fork and SIGKILL on that key, then stateful_unload. */
extern const fs_test stateful_proc_tests[];
/* A whole file (malloc'd, NULL when unreadable; *len its length). */
unsigned char *read_file(const char *path, size_t *len);
/* Runs tests, then stateful_proc_tests as "<suite> processes". */
int stateful_cu_run(const char *suite, const fs_test *tests);

#endif
