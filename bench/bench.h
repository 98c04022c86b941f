/* bench.h - the shared machinery of fastsig-bench.
 *
 * Every measurement compares a fastsig operation with an OpenSSL built-in
 * measured in the same process, in interleaved rounds, and reports medians;
 * rows that consume something (signatures of a stateful key) time every
 * operation alone and report the mean and the tail (bench_report_tail).
 * A group (bench_<name>.c) is one function listed in main.c's table. */
#ifndef FASTSIG_BENCH_H
#define FASTSIG_BENCH_H

#include <stddef.h>
#include <openssl/crypto.h>
#include <openssl/types.h>

/* Runs `iters` repetitions of the operation. */
typedef void (*bench_fn)(void *arg, size_t iters);

typedef struct {
    const char *op;       /* operation, e.g. "tz-digest" */
    const char *variant;  /* e.g. "64B", "XMSS-SHA2_10_256", "avx512-x16" */
    const char *unit;     /* "MB/s", "ns", "us", "ms" */
    const char *baseline; /* the OpenSSL built-in beside it, e.g. "SHA-256" */
    double work;          /* bytes per repetition, for MB/s; else ignored */
} bench_spec;

/* Measures fn and base (interleaved, warm-up first), prints a row, and
 * returns 1, or 0 when the filter skipped it. speedup = base time / our
 * time, so > 1 means fastsig is faster. */
int bench_compare(const bench_spec *s, bench_fn fn, void *arg, bench_fn base, void *base_arg);
/* Kernel rows: the least cycles one repetition of the next bench_compare's
 * row can take here, and the resource that binds it (kernel_bound.h). That
 * row also times the core clock in every round (port_probe.h) and shows the
 * bound in ns at the median clock and the fraction bound / our time (text:
 * after the row; --json: bound_ns, bound_fraction, bound_by, clock_ghz).
 * Consumed by the next bench_compare, shown or filtered out. */
void bench_next_bound(double cycles, const char *by);
/* Reports a row whose numbers were measured elsewhere (e.g. a one-off key
 * generation timed by the group itself). Times in nanoseconds. */
void bench_report(const bench_spec *s, double our_ns, double base_ns);
/* The distribution of single-operation times (ns): n samples, their mean
 * and percentiles (nearest rank), the slowest. */
typedef struct {
    size_t n;
    double mean, p50, p99, p999, max;
} bench_tail;
void bench_tail_of(const double *ns, size_t n, bench_tail *t);
/* A row from two distributions: the means as bench_report, then (text) a
 * line with both sides' p50/p99/p99.9/max, or (--json) the same as fields
 * n, p50, p99, p999, max and baseline_n, baseline_p50, ... in the row's unit. */
void bench_report_tail(const bench_spec *s, const bench_tail *ours, const bench_tail *base);
/* The fastsig build folder the bench loaded the provider from (for child
 * processes such as `openssl -provider-path`), or NULL. */
const char *bench_module_dir(void);

/* 1 if op/variant pass --filter. */
int bench_selected(const char *op, const char *variant);

double bench_now_ns(void);
double bench_median(double *v, size_t n);

/* Groups register themselves at load time, in file order of the build:
 *   BENCH_GROUP(rw, bench_rw_run)   -- run(void) is called once. */
void bench_register_group(const char *name, void (*run)(void));
#define BENCH_GROUP(name, fn) \
    __attribute__((constructor)) static void bench_register_##name(void) \
    { bench_register_group(#name, fn); }

/* One EVP digest per repetition (init, update of len bytes, final): the
 * runner for digest rows on either side of a comparison. */
typedef struct {
    EVP_MD *md;
    EVP_MD_CTX *ctx;
    const unsigned char *buf;
    size_t len;
} bench_digest_job;
void bench_run_digest(void *arg, size_t iters);

/* The library context with fastsig and default loaded. */
OSSL_LIB_CTX *bench_libctx(void);

#endif
