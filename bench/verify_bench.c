/* verify_bench.c - verification time per known answer (one per parameter
 * set: test/verify/verify_cases.h) through <fastsig/verify.h>, one-shot.
 * Built twice (bench/meson.build): fastsig-verify-bench on libfastsig-verify
 * (portable kernels, a device's stack), and fastsig-verify-bench-cores on
 * the provider's libfastsig.a, whose kernels follow FASTSIG_CPU (portable,
 * or the CPU's). Each row: the fastest of 9 rounds of at least 20 ms of the
 * thread's CPU time, in microseconds per verification (doc/performance.md):
 * on a machine shared with other work, CPU time and the minimum leave out
 * most of what the neighbours cost. With --stream MIB: the streamed message
 * hash instead, MIB MiB fed in 64 KiB pieces (fastsig_verify_update) after
 * each XMSS / HSS known answer's init, in MB/s (the message need not be the
 * signed one: final's answer is not the point). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fastsig/verify.h"
#include "vecfile.h"
#include "verify_cases.h"

#define ROUNDS 9

void fs_vector_missing(const char *msg)
{
    (void)msg; /* reported on stderr; verify_cases_load then returns 0 */
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int once(const verify_case *c)
{
    return fastsig_verify(c->scheme, c->pk, c->pklen, c->msg, c->mlen, c->sig, c->siglen);
}

/* MB/s of fastsig_verify_update over mib MiB, after c's init (best of 3). */
static double stream_rate(const verify_case *c, size_t mib)
{
    static uint8_t piece[64 * 1024];
    double best = 0;
    for (int k = 0; k < 3; k++) {
        fastsig_verify_ctx ctx;
        if (fastsig_verify_init(&ctx, c->scheme, c->pk, c->pklen, c->sig, c->siglen) != 0)
            return 0;
        double t0 = now();
        for (size_t i = 0; i < mib * 16; i++)
            fastsig_verify_update(&ctx, piece, sizeof(piece));
        (void)fastsig_verify_final(&ctx);
        double rate = mib * 1048576.0 / 1e6 / (now() - t0);
        best = rate > best ? rate : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    verify_case *c;
    size_t n = verify_cases_load(&c);
    if (n == 0)
        return 1;
    if (argc == 3 && strcmp(argv[1], "--stream") == 0) {
        size_t mib = (size_t)strtoul(argv[2], NULL, 10);
        for (size_t i = 0; i < n; i++)
            if (c[i].scheme != FASTSIG_VERIFY_LMS) /* the same hash as its HSS row */
                printf("%-44s %10.1f MB/s\n", c[i].name, stream_rate(&c[i], mib ? mib : 1));
        verify_cases_free(c, n);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (once(&c[i]) != FASTSIG_OK) {
            fprintf(stderr, "%s: does not verify\n", c[i].name);
            return 1;
        }
        size_t iters = 1;
        double t0 = now();
        once(&c[i]);
        double one = now() - t0;
        iters = one > 0 ? (size_t)(0.02 / one) + 1 : 1000;
        double r[ROUNDS];
        for (int k = 0; k < ROUNDS; k++) {
            t0 = now();
            for (size_t j = 0; j < iters; j++)
                once(&c[i]);
            r[k] = (now() - t0) / iters;
        }
        qsort(r, ROUNDS, sizeof(r[0]), cmp);
        printf("%-44s %10.1f us\n", c[i].name, r[0] * 1e6);
    }
    verify_cases_free(c, n);
    return 0;
}
