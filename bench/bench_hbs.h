/* bench_hbs.h - helpers shared by the hash-based groups (bench_wots.c,
 * bench_xmss.c, bench_xmssmt.c); defined in bench_xmss.c. Stateful keys get
 * their state and cache files in a scratch folder made by bench_hbs_tmpdir. */
#ifndef FASTSIG_BENCH_HBS_H
#define FASTSIG_BENCH_HBS_H

#include <stddef.h>
#include <openssl/evp.h>
#include "bench.h"

/* threads: the "threads" key-generation option, 0 = the provider's default. */
EVP_PKEY *bench_hbs_keygen(const char *alg, const char *param, const char *mode, const char *dir,
                           unsigned threads);
EVP_PKEY *bench_hbs_base_keygen(const char *alg);
double bench_hbs_keygen_ns(const char *alg, const char *param, const char *mode, const char *dir,
                           unsigned threads, int n);
void bench_hbs_run_sign(void *key, size_t iters);
void bench_hbs_run_sign_sha256(void *key, size_t iters);
/* A verify job: one signature of the bench message by key (md: a digest
 * name or NULL), freed with free(); bench_hbs_run_verify runs it (one
 * EVP_DigestVerifyInit + EVP_DigestVerify per repetition). */
void *bench_hbs_verify_job(EVP_PKEY *key, const char *md);
void bench_hbs_run_verify(void *job, size_t iters);
int bench_hbs_verify_row(const bench_spec *s, EVP_PKEY *key, EVP_PKEY *base, const char *base_md);
double bench_hbs_op_ns(bench_fn fn, void *arg, size_t iters);
/* Signing spends indices, so stateful rows run a fixed count per round. */
int bench_hbs_compare_fixed(const bench_spec *s, bench_fn fn, void *arg, size_t iters, bench_fn base,
                            void *base_arg);
int bench_hbs_tmpdir(char *dir, size_t len);
/* bench_rw.c: a key of alg with the "bits" generation parameter (0: default). */
EVP_PKEY *bench_rw_keygen(OSSL_LIB_CTX *lc, const char *alg, const char *props, size_t bits);
void bench_hbs_rmdir(const char *dir);

#endif
