/* bench_wots.c - WOTSP (SHA-256, W16 and W4) through EVP beside OpenSSL
 * Ed25519 measured in the same run: keygen (state file included), sign,
 * verify.
 *
 * A WOTSP key signs once, so the sign row signs keys generated beforehand,
 * outside the timed region, one per repetition (bench_stateful_compare_fixed). */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include "bench.h"

#include "bench_stateful.h"

#define PER_ROUND 4
#define NKEYS (11 * PER_ROUND)

/* Signs with the next fresh key. */
struct onetime_job {
    EVP_PKEY *keys[NKEYS];
    size_t next;
};

static void run_sign_fresh(void *arg, size_t iters)
{
    struct onetime_job *j = arg;
    for (size_t i = 0; i < iters && j->next < NKEYS; i++)
        bench_stateful_run_sign(j->keys[j->next++], 1);
}

/* Ed25519 keygen, the baseline of the keygen rows. */
static void run_ed_keygen(void *arg, size_t iters)
{
    (void)arg;
    for (size_t i = 0; i < iters; i++)
        EVP_PKEY_free(bench_stateful_base_keygen("ED25519"));
}

/* Generates a key per repetition into the scratch folder. */
static const char *kg_mode, *kg_dir;
static void run_wots_keygen(void *arg, size_t iters)
{
    (void)arg;
    for (size_t i = 0; i < iters; i++)
        EVP_PKEY_free(bench_stateful_keygen("WOTSP", NULL, kg_mode, kg_dir, 0));
}

static void bench_wots(void)
{
    static const struct { const char *mode, *name; } sets[] = {
        { "w16", "WOTSP-SHA2_256 W16" },
        { "w4", "WOTSP-SHA2_256 W4" },
    };
    char dir[512];
    if (!bench_stateful_tmpdir(dir, sizeof(dir)))
        return;
    EVP_PKEY *ed = bench_stateful_base_keygen("ED25519");
    for (size_t s = 0; ed != NULL && s < sizeof(sets) / sizeof(sets[0]); s++) {
        kg_mode = sets[s].mode;
        kg_dir = dir;
        bench_spec ks = { "wots-keygen", sets[s].name, "us", "Ed25519", 0 };
        bench_stateful_compare_fixed(&ks, run_wots_keygen, NULL, PER_ROUND, run_ed_keygen, NULL);

        if (bench_selected("wots-sign", sets[s].name)) {
            struct onetime_job j = { { NULL }, 0 };
            for (size_t i = 0; i < NKEYS; i++)
                j.keys[i] = bench_stateful_keygen("WOTSP", NULL, sets[s].mode, dir, 0);
            bench_spec ss = { "wots-sign", sets[s].name, "us", "Ed25519", 0 };
            bench_stateful_compare_fixed(&ss, run_sign_fresh, &j, PER_ROUND, bench_stateful_run_sign, ed);
            for (size_t i = 0; i < NKEYS; i++)
                EVP_PKEY_free(j.keys[i]);
        }

        bench_spec vs = { "wots-verify", sets[s].name, "us", "Ed25519", 0 };
        if (bench_selected(vs.op, vs.variant)) {
            EVP_PKEY *k = bench_stateful_keygen("WOTSP", NULL, sets[s].mode, dir, 0);
            bench_stateful_verify_row(&vs, k, ed, NULL);
            EVP_PKEY_free(k);
        }
    }
    EVP_PKEY_free(ed);
    bench_stateful_rmdir(dir);
}

BENCH_GROUP(wots, bench_wots)
