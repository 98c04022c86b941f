/* bench_tz_kernels.c - TZ throughput per kernel path (called directly, so
 * every path shows in one run whatever FASTSIG_CPU says), at 64 B, 1 KiB,
 * 64 KiB and 1 MiB, beside OpenSSL's SHA-256 and BLAKE2b-512 through EVP on
 * the same sizes. The EVP TZ rows (what applications get) are bench_tz.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "bench.h"
#include "cpu.h"
#include "tz/tz_kernel.h"

struct kernel_job {
    const fs_kernel *k;
    const unsigned char *buf;
    size_t len;
    volatile uint64_t sink;
};

static void run_kernel(void *arg, size_t iters)
{
    struct kernel_job *j = arg;
    for (size_t i = 0; i < iters; i++) {
        sl2 st;
        sl2_identity(&st);
        tz_kernel_fn(j->k)(&st, j->buf, j->len);
        j->sink ^= st.m[0].lo;
    }
}

static void bench_tz_kernels(void)
{
    static const size_t sizes[] = { 64, 1024, 65536, 1048576 };
    static const char *size_names[] = { "64B", "1KiB", "64KiB", "1MiB" };
    static const char *baselines[] = { "SHA-256", "BLAKE2B-512" };
    OSSL_LIB_CTX *lc = bench_libctx();
    unsigned char *buf = malloc(sizes[3]);
    if (buf == NULL)
        return;
    for (size_t i = 0; i < sizes[3]; i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    for (const fs_kernel *k = tz_kernel_list(); k->name != NULL; k++) {
        if ((k->flags & FS_KERNEL_TWIN) || (k->cpu & fs_cpu_detected()) != k->cpu)
            continue;
        for (size_t b = 0; b < 2; b++) {
            EVP_MD *base = EVP_MD_fetch(lc, baselines[b], "provider=default");
            for (size_t s = 0; s < 4; s++) {
                char variant[64];
                snprintf(variant, sizeof(variant), "%s-%s", k->name, size_names[s]);
                struct kernel_job ours = { k, buf, sizes[s], 0 };
                bench_digest_job theirs = { base, EVP_MD_CTX_new(), buf, sizes[s] };
                bench_spec spec = { "tz-kernel", variant, "MB/s", baselines[b], (double)sizes[s] };
                bench_compare(&spec, run_kernel, &ours, bench_run_digest, &theirs);
                EVP_MD_CTX_free(theirs.ctx);
            }
            EVP_MD_free(base);
        }
    }
    free(buf);
}

BENCH_GROUP(tz_kernels, bench_tz_kernels)
