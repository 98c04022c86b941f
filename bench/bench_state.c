/* bench_state.c - what durable index reservation costs: per durable write
 * (reserve a block of 1, 16, 64, 256), per index handed out (reservations of
 * those sizes, amortized), and a one-signature run (open, take, close: one
 * fdatasync), each beside an Ed25519 signature measured in the same run. The state file lives in
 * $TMPDIR (default /var/tmp, see bench_stateful_tmpdir): the figures are that
 * filesystem's fdatasync. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include "bench.h"
#include "bench_stateful.h"
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
        j->failed |= fastsig_state_reserve(j->st, j->block, &first, &count, NULL) != FASTSIG_OK;
}

/* n blocks of `block` indices: one durable reservation, then a take() for
 * each index of it (the handle's block is empty before and after). */
static void run_blocks(struct state_job *j, size_t n)
{
    uint64_t first, count, idx;
    for (size_t b = 0; b < n; b++) {
        j->failed |= fastsig_state_reserve(j->st, j->block, &first, &count, NULL) != FASTSIG_OK;
        for (uint64_t i = 0; i < count; i++)
            j->failed |= fastsig_state_take(j->st, &idx, NULL) != FASTSIG_OK;
    }
}

/* Cost per index handed out, reservations included. Measured here rather
 * than by bench_compare so that every sample holds whole blocks (a sample
 * cut inside a block would miss or double its fdatasync). */
static void take_row(struct state_job *j, struct ed_job *ed)
{
    enum { ROUNDS = 11, ED_SIGNS = 64 };
    char variant[32];
    snprintf(variant, sizeof(variant), "batch=%llu", (unsigned long long)j->block);
    bench_spec spec = { "state-take", variant, "us", "Ed25519-sign", 0 };
    if (!bench_selected(spec.op, spec.variant))
        return;
    fprintf(stderr, "[bench] %s %s ...\n", spec.op, spec.variant);
    size_t blocks = j->block >= 32 ? 4 : 128 / j->block;
    double ours[ROUNDS], theirs[ROUNDS];
    run_blocks(j, 1); /* warm-up */
    run_ed25519_sign(ed, 8);
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = bench_now_ns();
        run_blocks(j, blocks);
        ours[r] = (bench_now_ns() - t0) / (double)(blocks * j->block);
        t0 = bench_now_ns();
        run_ed25519_sign(ed, ED_SIGNS);
        theirs[r] = (bench_now_ns() - t0) / ED_SIGNS;
    }
    bench_report(&spec, bench_median(ours, ROUNDS), bench_median(theirs, ROUNDS));
}

static void run_take(void *arg, size_t iters)
{
    struct state_job *j = arg;
    uint64_t idx;
    for (size_t i = 0; i < iters; i++)
        j->failed |= fastsig_state_take(j->st, &idx, NULL) != FASTSIG_OK;
}

static void run_one_signature_process(void *arg, size_t iters)
{
    struct state_job *j = arg;
    uint64_t idx;
    for (size_t i = 0; i < iters; i++) {
        fastsig_state *st = NULL;
        j->failed |= fastsig_state_open(j->path, j->id, &st, NULL) != FASTSIG_OK ||
                     fastsig_state_take(st, &idx, NULL) != FASTSIG_OK ||
                     fastsig_state_close(st) != FASTSIG_OK;
    }
}

static void bench_state(void)
{
    static const uint64_t blocks[] = { 1, 16, 64, 256 };
    char dir[PATH_MAX], path[PATH_MAX + 16], variant[64];
    int any = bench_selected("state-take", "within a reserved block") ||
              bench_selected("state-take", "open+take+close");
    for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
        snprintf(variant, sizeof(variant), "block=%llu", (unsigned long long)blocks[b]);
        any |= bench_selected("state-reserve", variant);
        snprintf(variant, sizeof(variant), "batch=%llu", (unsigned long long)blocks[b]);
        any |= bench_selected("state-take", variant);
    }
    if (!any)
        return;
    if (!bench_stateful_tmpdir(dir, sizeof(dir)))
        return;
    snprintf(path, sizeof(path), "%s/bench.state", dir);
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN] = { 0x5a };
    fastsig_state *st = NULL;
    struct ed_job ed = { NULL, bench_libctx() };
    ed.key = EVP_PKEY_Q_keygen(ed.lc, NULL, "ED25519");
    if (ed.key == NULL || fastsig_state_create(path, id, UINT64_C(1) << 62, 0, 0, NULL) != FASTSIG_OK ||
        fastsig_state_open(path, id, &st, NULL) != FASTSIG_OK) {
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
    fastsig_state_release(st, NULL);
    for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
        job.block = blocks[b];
        take_row(&job, &ed);
    }
    /* the bookkeeping alone: take() inside a block reserved beforehand */
    uint64_t first, count;
    job.failed |= fastsig_state_reserve(st, UINT64_C(1) << 40, &first, &count, NULL) != FASTSIG_OK;
    bench_spec in_block = { "state-take", "within a reserved block", "us", "Ed25519-sign", 0 };
    bench_compare(&in_block, run_take, &job, run_ed25519_sign, &ed);
    fastsig_state_release(st, NULL);
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
