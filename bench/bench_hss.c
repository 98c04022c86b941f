/* bench_hss.c - LMS / HSS through EVP with the durable state (state files
 * in the bench's scratch folder, default batch 64), beside OpenSSL Ed25519
 * in the same run: the signing rows of bench_stateful_sign_rows (at least 2000
 * signatures in a row; an H10 key holds 1024: two fresh keys of 1021 each;
 * HSS L = 2 H10/H10 crosses into its second lower tree at index 1024, the
 * -boundary row) and EVP verify. The core alone (no provider, no state)
 * is bench_lms.c's. */
#include <stdio.h>
#include <openssl/evp.h>
#include "bench.h"
#include "bench_stateful.h"

#define SERIES 2000

static void bench_hss(void)
{
    /* boundary: the first index under a new lower tree (0: none) */
    static const struct {
        const char *prefix, *variant, *param;
        unsigned total_h;
        size_t boundary;
    } sets[] = {
        { "lms", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4",
          10, 0 },
        { "hss", "L=2 H10/H10 W4",
          "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", 20, 1024 },
    };
    char dir[512];
    int any = 0;
    static const char *const ops[] = { "-sign", "-sign-worst", "-sign-boundary", "-verify" };
    for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++)
        for (size_t o = 0; o < 4; o++) {
            char op[32], v[64];
            snprintf(op, sizeof(op), "%s%s", sets[s].prefix, ops[o]);
            snprintf(v, sizeof(v), "%s %s", sets[s].variant, o < 3 ? "b64" : "evp");
            any |= bench_selected(op, v);
        }
    if (!any || !bench_stateful_tmpdir(dir, sizeof(dir)))
        return;
    EVP_PKEY *ed = bench_stateful_base_keygen("ED25519");
    for (size_t s = 0; ed != NULL && s < sizeof(sets) / sizeof(sets[0]); s++) {
        char vb[64], ve[64], op[32];
        snprintf(vb, sizeof(vb), "%s b64", sets[s].variant);
        snprintf(ve, sizeof(ve), "%s evp", sets[s].variant);
        /* a key of 2^total_h indices holds the series, or as many keys as it
         * takes; the first keeps one index for the verify row's signature */
        size_t per_key = ((size_t)1 << sets[s].total_h) - BENCH_XMSS_OPENERS - 1;
        size_t nkeys = (SERIES + per_key - 1) / per_key;
        per_key = nkeys > 1 ? per_key : SERIES + 48;
        EVP_PKEY *keys[4] = { NULL };
        int ok = nkeys <= 4;
        for (size_t k = 0; ok && k < nkeys; k++)
            ok = (keys[k] = bench_stateful_keygen("HSS", sets[s].param, NULL, dir, 2)) != NULL;
        if (ok)
            bench_stateful_sign_rows(sets[s].prefix, vb, keys, nkeys, per_key, sets[s].boundary, ed);
        snprintf(op, sizeof(op), "%s-verify", sets[s].prefix);
        bench_spec vs = { op, ve, "us", "Ed25519", 0 };
        if (ok)
            bench_stateful_verify_row(&vs, keys[0], ed, NULL);
        for (size_t k = 0; k < nkeys && k < 4; k++)
            EVP_PKEY_free(keys[k]);
    }
    EVP_PKEY_free(ed);
    bench_stateful_rmdir(dir);
}

BENCH_GROUP(hss, bench_hss)
