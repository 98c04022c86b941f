/* verify_bench.c - verification time per known answer (one per parameter
 * set: test/verify/verify_cases.h) through <fastsig/verify.h>, one-shot.
 * Built twice (bench/meson.build): fastsig-verify-bench on libfastsig-verify
 * (portable kernels, a device's stack), and fastsig-verify-bench-cores on
 * the provider's libfastsig.a, whose kernels follow FASTSIG_CPU (portable,
 * or the CPU's). Each row: the fastest of 9 rounds of at least 20 ms of the
 * thread's CPU time, in microseconds per verification (doc/performance.md):
 * on a machine shared with other work, CPU time and the minimum leave out
 * most of what the neighbours cost. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "fastsig/verify.h"
#include "verify_cases.h"

#define ROUNDS 9

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

int main(void)
{
    verify_case *c;
    size_t n = verify_cases_load(&c);
    if (n == 0)
        return 1;
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
