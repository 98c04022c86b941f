/* bench_xmssmt.c - XMSS^MT through EVP beside OpenSSL Ed25519 measured in
 * the same run: keygen, sign (mean, tail, worst case), verify, for
 * XMSSMT-SHA2_20/2, 20/4, 40/8 and 60/12 (n = 32).
 *
 * The sign rows sign on one key (durable state, default batch 64): the two
 * signatures that open the process's first two blocks (reserved on the spot
 * by design: a process that signs once reserves exactly one index), then a
 * series of at least 2048 signatures and whole bottom subtrees plus 8
 * (2^(h/d) + 8 when a subtree is that large), so that the figures include
 * the preparation of many next subtrees and the reservation of many blocks,
 * as a signer's steady state does. Each signature is timed alone, followed
 * by an Ed25519 signature timed alone; the rows report the mean with
 * p50/p99/p99.9/max of each side, the maximum alone (xmssmt-sign-worst),
 * and the one signature at index 2^(h/d), the first of the next bottom
 * subtree (the core prepares it while signing, so it should cost no more
 * than the others). The index of our maximum goes to stderr: a block
 * reservation the worker had not finished, or the machine's load, usually
 * sets it. */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include "bench.h"

#include "bench_stateful.h"

#define SERIES 2048

static void bench_xmssmt(void)
{
    static const struct { const char *name; unsigned subtree_h; } sets[] = {
        { "XMSSMT-SHA2_20/2_256", 10 },
        { "XMSSMT-SHA2_20/4_256", 5 },
        { "XMSSMT-SHA2_40/8_256", 5 },
        { "XMSSMT-SHA2_60/12_256", 5 },
    };
    char dir[512];
    if (!bench_stateful_tmpdir(dir, sizeof(dir)))
        return;
    EVP_PKEY *ed = bench_stateful_base_keygen("ED25519");
    for (size_t s = 0; ed != NULL && s < sizeof(sets) / sizeof(sets[0]); s++) {
        const char *set = sets[s].name;
        bench_spec ks = { "xmssmt-keygen", set, "ms", "Ed25519", 0 };
        if (bench_selected(ks.op, ks.variant)) {
            fprintf(stderr, "[bench] xmssmt-keygen %s ...\n", set);
            double ours = bench_stateful_keygen_ns("XMSSMT", set, NULL, dir, 0, 3);
            bench_report(&ks, ours, bench_stateful_keygen_ns("ED25519", NULL, NULL, NULL, 0, 15));
        }
        int sign_sel = bench_selected("xmssmt-sign", set) || bench_selected("xmssmt-sign-worst", set)
                       || bench_selected("xmssmt-sign-boundary", set);
        bench_spec vs = { "xmssmt-verify", set, "us", "Ed25519", 0 };
        int verify_sel = bench_selected(vs.op, vs.variant);
        if (!sign_sel && !verify_sel)
            continue;
        EVP_PKEY *k = bench_stateful_keygen("XMSSMT", set, NULL, dir, 0);
        if (k == NULL)
            continue;
        size_t sub = (size_t)1 << sets[s].subtree_h;
        if (sign_sel)
            bench_stateful_sign_rows("xmssmt", set, &k, 1, sub + 8 > SERIES ? sub + 8 : SERIES, sub, ed);
        bench_stateful_verify_row(&vs, k, ed, NULL);
        EVP_PKEY_free(k);
    }
    EVP_PKEY_free(ed);
    bench_stateful_rmdir(dir);
}

BENCH_GROUP(xmssmt, bench_xmssmt)
