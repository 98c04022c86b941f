/* bench.c - timing, interleaving, filtering and output for fastsig-bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/evp.h>
#include "bench.h"
#include "bench_internal.h"

static struct bench_options opts = { NULL, 0, 11, 20.0 };

void bench_set_options(const struct bench_options *o)
{
    opts = *o;
}

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_selected(const char *op, const char *variant)
{
    char full[512];
    if (opts.filter == NULL)
        return 1;
    snprintf(full, sizeof(full), "%s %s", op, variant);
    return strstr(full, opts.filter) != NULL;
}

/* Repetitions that take about `ms` milliseconds, found by doubling. */
static size_t calibrate(bench_fn fn, void *arg, double ms)
{
    size_t iters = 1;
    for (;;) {
        double t0 = bench_now_ns();
        fn(arg, iters);
        double dt = bench_now_ns() - t0;
        if (dt >= ms * 1e6 || iters >= ((size_t)1 << 40))
            return iters;
        if (dt < ms * 1e4)
            iters *= 16;
        else
            iters = (size_t)((double)iters * (ms * 1e6 / dt) * 1.05) + 1;
    }
}

static double sample(bench_fn fn, void *arg, size_t iters)
{
    double t0 = bench_now_ns();
    fn(arg, iters);
    return (bench_now_ns() - t0) / (double)iters;
}

int bench_compare(const bench_spec *s, bench_fn fn, void *arg, bench_fn base, void *base_arg)
{
    if (!bench_selected(s->op, s->variant))
        return 0;
    fprintf(stderr, "[bench] %s %s ...\n", s->op, s->variant);
    size_t n = opts.rounds, it = calibrate(fn, arg, opts.sample_ms);
    size_t bit = calibrate(base, base_arg, opts.sample_ms);
    double *ours = calloc(n, sizeof(double)), *theirs = calloc(n, sizeof(double));
    for (size_t r = 0; r < n; r++) {
        ours[r] = sample(fn, arg, it);
        theirs[r] = sample(base, base_arg, bit);
    }
    bench_report(s, bench_median(ours, n), bench_median(theirs, n));
    free(ours);
    free(theirs);
    return 1;
}

void bench_run_digest(void *arg, size_t iters)
{
    bench_digest_job *j = arg;
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int outl;
    for (size_t i = 0; i < iters; i++) {
        EVP_DigestInit_ex(j->ctx, j->md, NULL);
        EVP_DigestUpdate(j->ctx, j->buf, j->len);
        EVP_DigestFinal_ex(j->ctx, out, &outl);
    }
}

static double in_unit(const bench_spec *s, double ns)
{
    if (strcmp(s->unit, "MB/s") == 0)
        return s->work / ns * 1e3; /* bytes per ns -> MB/s */
    if (strcmp(s->unit, "us") == 0)
        return ns / 1e3;
    if (strcmp(s->unit, "ms") == 0)
        return ns / 1e6;
    if (strcmp(s->unit, "s") == 0)
        return ns / 1e9;
    return ns;
}

void bench_report(const bench_spec *s, double our_ns, double base_ns)
{
    double v = in_unit(s, our_ns), bv = in_unit(s, base_ns), speedup = base_ns / our_ns;
    if (opts.json) {
        printf("{\"op\":\"%s\",\"variant\":\"%s\",\"value\":%.6g,\"unit\":\"%s\","
               "\"baseline\":\"%s\",\"baseline_value\":%.6g,\"speedup\":%.4g}\n",
               s->op, s->variant, v, s->unit, s->baseline, bv, speedup);
    } else {
        printf("%-22s %-24s %12.4g %-5s  %-14s %12.4g %-5s  %8.3fx\n", s->op, s->variant,
               v, s->unit, s->baseline, bv, s->unit, speedup);
    }
    fflush(stdout);
}

void bench_print_header(void)
{
    if (!opts.json) {
        printf("%-22s %-24s %18s  %-14s %18s  %9s\n", "op", "variant", "fastsig",
               "baseline", "baseline", "speedup");
    }
}
