/* bench_pq.c - fastsig's hash-based and RW signatures beside the post-quantum
 * signatures of OpenSSL 3.5's default provider (ML-DSA-44, FIPS 204;
 * SLH-DSA-SHA2-128s and -128f, FIPS 205), measured in the same run: XMSS and
 * XMSS^MT signing and verification, RW-2048 verification. With an OpenSSL
 * that has none of them (3.0) the group says so and reports no row. */
#include <stdio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "bench.h"
#include "bench_stateful.h"

static const char *const baselines[] = { "ML-DSA-44", "SLH-DSA-SHA2-128s", "SLH-DSA-SHA2-128f" };
#define NBASE (sizeof(baselines) / sizeof(baselines[0]))

/* Signing rows: `iters` signatures per round for ours (an index each). */
static void sign_rows(const char *op, const char *set, EVP_PKEY *k, size_t iters,
                      EVP_PKEY *const base[NBASE])
{
    for (size_t b = 0; b < NBASE; b++) {
        bench_spec s = { op, set, "us", baselines[b], 0 };
        bench_stateful_compare_fixed(&s, bench_stateful_run_sign, k, iters, bench_stateful_run_sign, base[b]);
    }
}

static void verify_rows(const char *op, const char *set, EVP_PKEY *k, EVP_PKEY *const base[NBASE])
{
    for (size_t b = 0; b < NBASE; b++) {
        bench_spec s = { op, set, "us", baselines[b], 0 };
        bench_stateful_verify_row(&s, k, base[b], NULL);
    }
}

static void bench_pq(void)
{
    static const char *const rows[][2] = {
        { "pq-xmss-sign", "XMSS-SHA2_10_256" },   { "pq-xmss-verify", "XMSS-SHA2_10_256" },
        { "pq-xmssmt-sign", "XMSSMT-SHA2_20/4_256" }, { "pq-xmssmt-verify", "XMSSMT-SHA2_20/4_256" },
        { "pq-rw-verify", "RW-2048" },
    };
    EVP_PKEY *base[NBASE] = { NULL }, *k;
    char dir[512];
    size_t have = 0, any = 0;

    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
        any |= (size_t)bench_selected(rows[r][0], rows[r][1]);
    if (!any) /* no keygens for nothing */
        return;

    for (size_t b = 0; b < NBASE; b++)
        have += (base[b] = bench_stateful_base_keygen(baselines[b])) != NULL;
    ERR_clear_error();
    if (have != NBASE) {
        fprintf(stderr, "[bench] pq: this OpenSSL has no ML-DSA / SLH-DSA (3.5 and later do); "
                        "no rows\n");
        goto done;
    }
    if (!bench_stateful_tmpdir(dir, sizeof(dir)))
        goto done;
    if ((k = bench_stateful_keygen("XMSS", "XMSS-SHA2_10_256", NULL, dir, 0)) != NULL) {
        sign_rows("pq-xmss-sign", "XMSS-SHA2_10_256", k, 16, base);
        verify_rows("pq-xmss-verify", "XMSS-SHA2_10_256", k, base);
        EVP_PKEY_free(k);
    }
    if ((k = bench_stateful_keygen("XMSSMT", "XMSSMT-SHA2_20/4_256", NULL, dir, 0)) != NULL) {
        sign_rows("pq-xmssmt-sign", "XMSSMT-SHA2_20/4_256", k, 16, base);
        verify_rows("pq-xmssmt-verify", "XMSSMT-SHA2_20/4_256", k, base);
        EVP_PKEY_free(k);
    }
    if ((k = bench_rw_keygen(bench_libctx(), "RW", "provider=fastsig", 2048)) != NULL) {
        verify_rows("pq-rw-verify", "RW-2048", k, base);
        EVP_PKEY_free(k);
    }
    bench_stateful_rmdir(dir);
done:
    for (size_t b = 0; b < NBASE; b++)
        EVP_PKEY_free(base[b]);
}

BENCH_GROUP(pq, bench_pq)
