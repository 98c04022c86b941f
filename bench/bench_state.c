/* bench_state.c - what durable index reservation costs: per durable write
 * (reserve a block of 1, 16, 64, 256), per index handed out (take with those
 * batch sizes), and a one-signature run (open, take, close), each beside an
 * Ed25519 signature measured in the same run. The state file lives in
 * $TMPDIR (default /tmp): the figures are that filesystem's fdatasync. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include "bench.h"
#include "fastsig_err.h"
#include "state/statefile.h"

struct ed_job {
    EVP_PKEY *key;
    OSSL_LIB_CTX *lc;
};

static void run_ed25519_sign(void *arg, size_t iters)
{
    struct ed_job *j = arg;
    unsigned char msg[32] = { 1 }, sig[64];
    for (size_t i = 0; i < iters; i++) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        size_t len = sizeof(sig);
        EVP_DigestSignInit_ex(ctx, NULL, NULL, j->lc, NULL, j->key, NULL);
        EVP_DigestSign(ctx, sig, &len, msg, sizeof(msg));
        EVP_MD_CTX_free(ctx);
    }
}

struct state_job {
    fastsig_state *st;
    const char *path;
    const uint8_t *id;
    uint64_t block;
    int failed;
};

static void run_reserve(void *arg, size_t iters)
{
    struct state_job *j = arg;
    uint64_t first, count;
    for (size_t i = 0; i < iters; i++)
        j->failed |= fastsig_state_reserve(j->st, j->block, &first, &count) != FASTSIG_OK;
}

static void run_take(void *arg, size_t iters)
{
    struct state_job *j = arg;
    uint64_t idx;
    for (size_t i = 0; i < iters; i++)
        j->failed |= fastsig_state_take(j->st, &idx) != FASTSIG_OK;
}

static void run_one_signature_process(void *arg, size_t iters)
{
    struct state_job *j = arg;
    uint64_t idx;
    for (size_t i = 0; i < iters; i++) {
        fastsig_state *st = NULL;
        j->failed |= fastsig_state_open(j->path, j->id, &st) != FASTSIG_OK ||
                     fastsig_state_take(st, &idx) != FASTSIG_OK ||
                     fastsig_state_close(st) != FASTSIG_OK;
    }
}

static void bench_state(void)
{
    static const uint64_t blocks[] = { 1, 16, 64, 256 };
    char dir[PATH_MAX], path[PATH_MAX + 16], variant[64];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof(dir), "%s/fastsig-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("bench_state: mkdtemp");
        return;
    }
    snprintf(path, sizeof(path), "%s/bench.state", dir);
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN] = { 0x5a };
    fastsig_state *st = NULL;
    struct ed_job ed = { NULL, bench_libctx() };
    ed.key = EVP_PKEY_Q_keygen(ed.lc, NULL, "ED25519");
    if (ed.key == NULL || fastsig_state_create(path, id, UINT64_C(1) << 62, 0, 0) != FASTSIG_OK ||
        fastsig_state_open(path, id, &st) != FASTSIG_OK) {
        fprintf(stderr, "bench_state: setup failed\n");
        goto done;
    }
    struct state_job job = { st, path, id, 0, 0 };
    for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
        job.block = blocks[b];
        snprintf(variant, sizeof(variant), "block=%llu", (unsigned long long)blocks[b]);
        bench_spec per_write = { "state-reserve", variant, "us", "Ed25519-sign", 0 };
        bench_compare(&per_write, run_reserve, &job, run_ed25519_sign, &ed);
    }
    for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
        fastsig_state_release(st);
        fastsig_state_set_batch(st, blocks[b]);
        snprintf(variant, sizeof(variant), "batch=%llu", (unsigned long long)blocks[b]);
        bench_spec per_index = { "state-take", variant, "us", "Ed25519-sign", 0 };
        bench_compare(&per_index, run_take, &job, run_ed25519_sign, &ed);
    }
    bench_spec cli = { "state-take", "open+take+close", "us", "Ed25519-sign", 0 };
    bench_compare(&cli, run_one_signature_process, &job, run_ed25519_sign, &ed);
    if (job.failed)
        fprintf(stderr, "bench_state: a state operation failed; figures are void\n");
done:
    fastsig_state_close(st);
    EVP_PKEY_free(ed.key);
    unlink(path);
    rmdir(dir);
}

BENCH_GROUP(state, bench_state)
