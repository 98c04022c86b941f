/* bench.c - timing, interleaving, filtering and output for fastsig-bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/evp.h>
#include "bench.h"
#include "port_probe.h"
#include "bench_internal.h"

static struct bench_options opts = { NULL, 0, 11, 20.0 };
/* The bound of the next row (bench_next_bound), and the clock measured
 * beside the row being reported (bench_compare), or 0. */
static double next_bound, row_ghz, row_bound, row_short;
static const char *next_bound_by;

void bench_next_bound(double cycles, const char *by)
{
    next_bound = cycles;
    next_bound_by = by;
}

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

/* A bound row's round: the clock, and the fastest of 16 samples of ~50 us
 * (a 20 ms sample on a shared machine holds other processes' time slices;
 * the bound is compared with the kernel's own time). */
static double short_samples(bench_fn fn, void *arg, size_t iters, double *ghz)
{
    double best = 1e30;
    *ghz = bench_ports_clock_ghz();
    for (int k = 0; k < 16; k++) {
        double ns = sample(fn, arg, iters);
        best = ns < best ? ns : best;
    }
    return best;
}

int bench_compare(const bench_spec *s, bench_fn fn, void *arg, bench_fn base, void *base_arg)
{
    double bound = next_bound;
    next_bound = 0;
    if (!bench_selected(s->op, s->variant))
        return 0;
    fprintf(stderr, "[bench] %s %s ...\n", s->op, s->variant);
    size_t n = opts.rounds, it = calibrate(fn, arg, opts.sample_ms);
    size_t bit = calibrate(base, base_arg, opts.sample_ms);
    double *ours = calloc(n, sizeof(double)), *theirs = calloc(n, sizeof(double));
    double *ghz = calloc(n, sizeof(double)), *quick = calloc(n, sizeof(double));
    size_t qit = bound > 0 ? calibrate(fn, arg, 0.05) : 0;
    for (size_t r = 0; r < n; r++) {
        ours[r] = sample(fn, arg, it);
        if (bound > 0)
            quick[r] = short_samples(fn, arg, qit, &ghz[r]);
        theirs[r] = sample(base, base_arg, bit);
    }
    row_ghz = bound > 0 ? bench_median(ghz, n) : 0;
    row_short = bound > 0 ? bench_median(quick, n) : 0;
    row_bound = bound;
    bench_report(s, bench_median(ours, n), bench_median(theirs, n));
    row_ghz = row_bound = row_short = 0;
    free(ours);
    free(theirs);
    free(ghz);
    free(quick);
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
    double bound = row_ghz > 0 ? row_bound / row_ghz : 0;
    if (opts.json) {
        printf("{\"op\":\"%s\",\"variant\":\"%s\",\"value\":%.6g,\"unit\":\"%s\","
               "\"baseline\":\"%s\",\"baseline_value\":%.6g,\"speedup\":%.4g",
               s->op, s->variant, v, s->unit, s->baseline, bv, speedup);
        if (bound > 0)
            printf(",\"bound_ns\":%.4g,\"short_ns\":%.4g,\"bound_fraction\":%.3f,"
                   "\"bound_by\":\"%s\",\"clock_ghz\":%.3f",
                   in_unit(s, bound), in_unit(s, row_short), bound / row_short, next_bound_by,
                   row_ghz);
        printf("}\n");
    } else {
        printf("%-22s %-24s %12.4g %-5s  %-14s %12.4g %-5s  %8.3fx", s->op, s->variant,
               v, s->unit, s->baseline, bv, s->unit, speedup);
        if (bound > 0)
            printf("  bound %.4g = %.0f%% of %.4g %s (%s, %.2f GHz)", in_unit(s, bound),
                   100 * bound / row_short, in_unit(s, row_short), s->unit, next_bound_by,
                   row_ghz);
        printf("\n");
    }
    fflush(stdout);
}

/* Nearest rank: the smallest of the sorted v[n] with at least per_mille
 * thousandths of the samples at or below it. */
static double rank(const double *v, size_t n, size_t per_mille)
{
    size_t k = (per_mille * n + 999) / 1000;
    return v[k > 0 ? k - 1 : 0];
}

void bench_tail_of(const double *ns, size_t n, bench_tail *t)
{
    double *v = malloc((n ? n : 1) * sizeof(double)), sum = 0;
    memset(t, 0, sizeof(*t));
    if (v == NULL || n == 0) {
        free(v);
        return;
    }
    for (size_t i = 0; i < n; i++)
        sum += v[i] = ns[i];
    qsort(v, n, sizeof(*v), cmp_double);
    t->n = n;
    t->mean = sum / (double)n;
    t->p50 = rank(v, n, 500);
    t->p99 = rank(v, n, 990);
    t->p999 = rank(v, n, 999);
    t->max = v[n - 1];
    free(v);
}

void bench_report_tail(const bench_spec *s, const bench_tail *o, const bench_tail *b)
{
    if (opts.json) {
        /* the bench_report fields first, then the tails (same unit) */
        printf("{\"op\":\"%s\",\"variant\":\"%s\",\"value\":%.6g,\"unit\":\"%s\","
               "\"baseline\":\"%s\",\"baseline_value\":%.6g,\"speedup\":%.4g,"
               "\"n\":%zu,\"p50\":%.6g,\"p99\":%.6g,\"p999\":%.6g,\"max\":%.6g,"
               "\"baseline_n\":%zu,\"baseline_p50\":%.6g,\"baseline_p99\":%.6g,"
               "\"baseline_p999\":%.6g,\"baseline_max\":%.6g}\n",
               s->op, s->variant, in_unit(s, o->mean), s->unit, s->baseline, in_unit(s, b->mean),
               b->mean / o->mean, o->n, in_unit(s, o->p50), in_unit(s, o->p99),
               in_unit(s, o->p999), in_unit(s, o->max), b->n, in_unit(s, b->p50),
               in_unit(s, b->p99), in_unit(s, b->p999), in_unit(s, b->max));
        fflush(stdout);
        return;
    }
    bench_report(s, o->mean, b->mean);
    printf("  %-20s n=%-5zu p50 %-8.4g p99 %-8.4g p99.9 %-8.4g max %-8.4g | "
           "%s p50 %.4g p99 %.4g p99.9 %.4g max %.4g %s\n",
           "  (mean above)", o->n, in_unit(s, o->p50), in_unit(s, o->p99), in_unit(s, o->p999),
           in_unit(s, o->max), s->baseline, in_unit(s, b->p50), in_unit(s, b->p99),
           in_unit(s, b->p999), in_unit(s, b->max), s->unit);
    fflush(stdout);
}

void bench_print_header(void)
{
    if (!opts.json) {
        printf("%-22s %-24s %18s  %-14s %18s  %9s\n", "op", "variant", "fastsig",
               "baseline", "baseline", "speedup");
    }
}
