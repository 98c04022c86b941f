/* bench_tz.c - TZ digest throughput through EVP beside SHA-256 and
 * BLAKE2b-512 (also through EVP), at 64 B, 1 KiB, 64 KiB and 1 MiB. */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include "bench.h"

static void bench_tz(void)
{
    static const size_t sizes[] = { 64, 1024, 65536, 1048576 };
    static const char *names[] = { "64B", "1KiB", "64KiB", "1MiB" };
    static const char *baselines[] = { "SHA-256", "BLAKE2B-512" };
    OSSL_LIB_CTX *lc = bench_libctx();
    EVP_MD *tz = EVP_MD_fetch(lc, "TZ", "provider=fastsig");
    if (tz == NULL) {
        fprintf(stderr, "bench_tz: TZ not available\n");
        return;
    }
    unsigned char *buf = malloc(sizes[3]);
    for (size_t i = 0; i < sizes[3]; i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    for (size_t b = 0; b < 2; b++) {
        EVP_MD *base = EVP_MD_fetch(lc, baselines[b], "provider=default");
        for (size_t s = 0; s < 4; s++) {
            bench_digest_job ours = { tz, EVP_MD_CTX_new(), buf, sizes[s] };
            bench_digest_job theirs = { base, EVP_MD_CTX_new(), buf, sizes[s] };
            bench_spec spec = { "tz-digest", names[s], "MB/s", baselines[b], (double)sizes[s] };
            bench_compare(&spec, bench_run_digest, &ours, bench_run_digest, &theirs);
            EVP_MD_CTX_free(ours.ctx);
            EVP_MD_CTX_free(theirs.ctx);
        }
        EVP_MD_free(base);
    }
    free(buf);
    EVP_MD_free(tz);
}

BENCH_GROUP(tz, bench_tz)
