/* bench_shards.c - two signers, one key: two shards of one
 * XMSSMT-SHA2_20/4_256 key (carved through the "shard-range" key
 * parameter) signing in two processes at once, against one process with a
 * shard of its own.
 *
 * Row xmssmt-sign-2shards: wall time per signature of the pair (both
 * processes' signatures together) beside the single signer's, so the
 * speedup is the throughput gained by the second process (2x at best, on
 * two free cores). Each process decodes its shard and signs once before the
 * clock starts (a pipe barrier), then signs SIGS more, durable state and
 * default batch included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include "bench.h"
#include "bench_stateful.h"
#include "fastsig/provider.h"

#define SET "XMSSMT-SHA2_20/4_256"
#define SIGS 1024
#define SHARD "+2048" /* a multiple of the bottom subtree (32) */

/* The parent key in PEM (memory), carved anew per signer. */
static EVP_PKEY *shard_of(const char *pem)
{
    BIO *b = BIO_new_mem_buf(pem, -1);
    EVP_PKEY *k = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, bench_libctx(), NULL);
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, SHARD, 0),
                       OSSL_PARAM_END };
    BIO_free(b);
    if (k != NULL && EVP_PKEY_set_params(k, p) != 1) {
        EVP_PKEY_free(k);
        k = NULL;
    }
    return k;
}

/* Runs nproc signers, one shard each, and returns the wall time of their
 * SIGS signatures each in ns (< 0 on failure). */
static double run_signers(const char *pem, int nproc)
{
    int ready[2], go[2], ok = 1, status;
    pid_t pid[2];
    char c = 0;
    double t0, t1;

    if (pipe(ready) != 0 || pipe(go) != 0)
        return -1;
    for (int i = 0; i < nproc; i++) {
        EVP_PKEY *k = shard_of(pem);
        if (k == NULL || (pid[i] = fork()) < 0)
            return -1;
        if (pid[i] == 0) {
            bench_stateful_run_sign(k, 1); /* the shard's state open, its cache warm */
            if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
                _exit(1);
            bench_stateful_run_sign(k, SIGS);
            _exit(0);
        }
        EVP_PKEY_free(k); /* the parent's copy: the child has its own */
    }
    for (int i = 0; i < nproc; i++)
        ok &= read(ready[0], &c, 1) == 1;
    t0 = bench_now_ns();
    for (int i = 0; i < nproc; i++)
        ok &= write(go[1], &c, 1) == 1;
    for (int i = 0; i < nproc; i++)
        ok &= waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status)
              && WEXITSTATUS(status) == 0;
    t1 = bench_now_ns();
    close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
    return ok ? t1 - t0 : -1;
}

static void bench_shards(void)
{
    bench_spec s = { "xmssmt-sign-2shards", SET, "us", "1 signer", 0 };
    char dir[512], *pem = NULL;
    EVP_PKEY *k;
    BIO *b;
    long len;

    if (!bench_selected(s.op, s.variant) || !bench_stateful_tmpdir(dir, sizeof(dir)))
        return;
    fprintf(stderr, "[bench] %s %s (2 x %d signatures) ...\n", s.op, s.variant, SIGS);
    if ((k = bench_stateful_keygen("XMSSMT", SET, NULL, dir, 0)) != NULL
        && (b = BIO_new(BIO_s_mem())) != NULL) {
        if (PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL) == 1
            && (len = BIO_get_mem_data(b, &pem)) > 0 && (pem = strndup(pem, (size_t)len)) != NULL) {
            double one = run_signers(pem, 1), two = run_signers(pem, 2);
            if (one > 0 && two > 0)
                bench_report(&s, two / (2.0 * SIGS), one / SIGS);
            free(pem);
        }
        BIO_free(b);
    }
    EVP_PKEY_free(k);
    bench_stateful_rmdir(dir);
}

BENCH_GROUP(shards, bench_shards)
