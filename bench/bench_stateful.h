/* bench_stateful.h - helpers shared by the hash-based groups (bench_wots.c,
 * bench_xmss.c, bench_xmssmt.c); defined in bench_xmss.c. Stateful keys get
 * their state and cache files in a scratch folder made by bench_stateful_tmpdir. */
#ifndef FASTSIG_BENCH_XMSS_H
#define FASTSIG_BENCH_XMSS_H

#include <stddef.h>
#include <openssl/evp.h>
#include "bench.h"

/* threads: the "threads" key-generation option, 0 = the provider's default. */
EVP_PKEY *bench_stateful_keygen(const char *alg, const char *param, const char *mode, const char *dir,
                           unsigned threads);
EVP_PKEY *bench_stateful_base_keygen(const char *alg);
double bench_stateful_keygen_ns(const char *alg, const char *param, const char *mode, const char *dir,
                           unsigned threads, int n);
void bench_stateful_run_sign(void *key, size_t iters);
void bench_stateful_run_sign_sha256(void *key, size_t iters);
/* A verify job: one signature of the bench message by key (md: a digest
 * name or NULL), freed with free(); bench_stateful_run_verify runs it (one
 * EVP_DigestVerifyInit + EVP_DigestVerify per repetition). */
void *bench_stateful_verify_job(EVP_PKEY *key, const char *md);
void bench_stateful_run_verify(void *job, size_t iters);
int bench_stateful_verify_row(const bench_spec *s, EVP_PKEY *key, EVP_PKEY *base, const char *base_md);
double bench_stateful_op_ns(bench_fn fn, void *arg, size_t iters);
/* One signature with md (NULL: none) per repetition. */
void bench_stateful_run_sign_md(EVP_PKEY *key, const char *md, size_t iters);

/* bench_series.c. Signing spends indices, so stateful rows run a fixed
 * count: 11 rounds of iters operations, each timed alone, each round
 * followed by about as long of baseline operations (1 to iters), each timed
 * alone; the row gives the mean and the tail of both. */
int bench_stateful_compare_fixed(const bench_spec *s, bench_fn fn, void *arg, size_t iters, bench_fn base,
                            void *base_arg);
/* A baseline of a signing series: key and its digest (NULL: none). */
typedef struct {
    const char *name;
    EVP_PKEY *key;
    const char *md;
} bench_stateful_base;
/* n signatures in a row, keys[i / per_key] for the i-th, each timed alone
 * into ours[i] and followed by one signature of every baseline, timed alone
 * into theirs[b][i]. */
void bench_stateful_sign_series(EVP_PKEY *const *keys, size_t per_key, size_t n,
                           const bench_stateful_base *bases, size_t nbases, double *ours,
                           double *const *theirs);
/* A row from a series: means and tails of ours and theirs (n each). */
void bench_stateful_report_series(const bench_spec *s, const double *ours, const double *theirs,
                             size_t n);
/* The signing rows of a stateful kind on keys with the durable state:
 * OPENERS signatures open each key (a process start's cost: its first
 * block is one index), then nkeys * per_key signatures in a row, keys[i /
 * per_key] for the i-th, each followed by an Ed25519 one; rows
 * <prefix>-sign (mean and tail), <prefix>-sign-worst (the max) and, when
 * boundary (an index of the first key) is in the series,
 * <prefix>-sign-boundary (the signature at that index). */
#define BENCH_XMSS_OPENERS 2
void bench_stateful_sign_rows(const char *prefix, const char *variant, EVP_PKEY *const *keys,
                         size_t nkeys, size_t per_key, size_t boundary, EVP_PKEY *ed);
/* A scratch folder on a disk ($TMPDIR, else /var/tmp; a warning on stderr
 * when it is in memory). */
int bench_stateful_tmpdir(char *dir, size_t len);
/* bench_cli.c: one `openssl pkeyutl -sign -rawin` process per signature. */
typedef struct {
    const char *name;    /* e.g. "RSA-2048" */
    const char *keyfile; /* its private key PEM */
} bench_cli_base;
/* Writes k's private key to <dir>/<name>.pem (path gets it); 1 on success. */
int bench_cli_write_key(EVP_PKEY *k, const char *dir, const char *name, char *path, size_t len);
/* Wall time of one process signing with keyfile (fastsig: load the
 * provider), in ns; -1 when it failed. */
double bench_cli_sign_ns(const char *keyfile, const char *msgfile, const char *sigfile,
                         int fastsig);
/* n processes with keyfile, each followed by one per baseline (at most 4);
 * one row per selected baseline, in ms. */
int bench_cli_rows(const char *op, const char *variant, const char *keyfile,
                   const bench_cli_base *bases, size_t nbases, size_t n, const char *dir);

/* bench_rw.c: a key of alg with the "bits" generation parameter (0: default). */
EVP_PKEY *bench_rw_keygen(OSSL_LIB_CTX *lc, const char *alg, const char *props, size_t bits);
void bench_stateful_rmdir(const char *dir);

#endif
