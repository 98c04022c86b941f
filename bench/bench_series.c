/* bench_series.c - rows whose operations consume something (indices of a
 * stateful key, one-time keys): every operation is timed alone, beside
 * baseline operations timed alone, and the row reports the mean (so a durable
 * reservation inside the run counts in full) with p50/p99/p99.9/max of both
 * sides (bench_report_tail). Also the scratch folder of the stateful
 * groups: on a disk, so that fdatasync costs what it costs there. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <openssl/evp.h>
#include "bench.h"
#include "bench_stateful.h"

#define ROUNDS 11

static double timed(bench_fn fn, void *arg)
{
    double t0 = bench_now_ns();
    fn(arg, 1);
    return bench_now_ns() - t0;
}

int bench_stateful_compare_fixed(const bench_spec *s, bench_fn fn, void *arg, size_t iters, bench_fn base,
                            void *base_arg)
{
    if (!bench_selected(s->op, s->variant))
        return 0;
    fprintf(stderr, "[bench] %s %s ...\n", s->op, s->variant);
    size_t n = ROUNDS * iters, nb = 0;
    double *ours = calloc(n, sizeof(double)), *theirs = calloc(n, sizeof(double));
    if (ours == NULL || theirs == NULL) {
        free(ours);
        free(theirs);
        return 0;
    }
    /* warm-up of the baseline, whose time sets how many of its operations
     * follow a round: about as long as ours (at least one, at most iters),
     * so that a slow baseline (SLH-DSA-128s: 0.2 s) does not make the row
     * last minutes. fn is not warmed up: what it consumes is counted. */
    double one = timed(base, base_arg);
    for (size_t r = 0; r < ROUNDS; r++) {
        double round = 0;
        for (size_t i = 0; i < iters; i++)
            round += ours[r * iters + i] = timed(fn, arg);
        size_t k = one > 0 ? (size_t)(round / one + 0.5) : iters;
        k = k < 1 ? 1 : k > iters ? iters : k;
        for (size_t i = 0; i < k; i++)
            theirs[nb++] = timed(base, base_arg);
    }
    bench_tail o, b;
    bench_tail_of(ours, n, &o);
    bench_tail_of(theirs, nb, &b);
    bench_report_tail(s, &o, &b);
    free(ours);
    free(theirs);
    return 1;
}

void bench_stateful_sign_series(EVP_PKEY *const *keys, size_t per_key, size_t n,
                           const bench_stateful_base *bases, size_t nbases, double *ours,
                           double *const *theirs)
{
    for (size_t b = 0; b < nbases; b++)
        bench_stateful_run_sign_md(bases[b].key, bases[b].md, 1); /* warm-up */
    for (size_t i = 0; i < n; i++) {
        double t0 = bench_now_ns();
        bench_stateful_run_sign(keys[i / per_key], 1);
        ours[i] = bench_now_ns() - t0;
        for (size_t b = 0; b < nbases; b++) {
            t0 = bench_now_ns();
            bench_stateful_run_sign_md(bases[b].key, bases[b].md, 1);
            theirs[b][i] = bench_now_ns() - t0;
        }
    }
}

void bench_stateful_report_series(const bench_spec *s, const double *ours, const double *theirs,
                             size_t n)
{
    bench_tail o, b;
    bench_tail_of(ours, n, &o);
    bench_tail_of(theirs, n, &b);
    bench_report_tail(s, &o, &b);
}

/* FASTSIG_BENCH_SERIES_OUT=file appends every signature of the series, one
 * a line: op, variant, key, the key's index, ours and Ed25519's ns, to find
 * where in the blocks the slow ones fall. Written after the series: the
 * timed loop does no I/O of its own. */
static void dump_series(const char *op, const char *variant, const double *ours,
                        const double *theirs, size_t n, size_t per_key)
{
    const char *path = getenv("FASTSIG_BENCH_SERIES_OUT");
    FILE *f = path && path[0] ? fopen(path, "a") : NULL;
    if (f == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\t%s\t%zu\t%zu\t%.0f\t%.0f\n", op, variant, i / per_key,
                i % per_key + BENCH_XMSS_OPENERS, ours[i], theirs[i]);
    fclose(f);
}

void bench_stateful_sign_rows(const char *prefix, const char *variant, EVP_PKEY *const *keys,
                         size_t nkeys, size_t per_key, size_t boundary, EVP_PKEY *ed)
{
    char op[3][48];
    snprintf(op[0], sizeof(op[0]), "%s-sign", prefix);
    snprintf(op[1], sizeof(op[1]), "%s-sign-worst", prefix);
    snprintf(op[2], sizeof(op[2]), "%s-sign-boundary", prefix);
    bench_spec ms = { op[0], variant, "us", "Ed25519", 0 }, ws = { op[1], variant, "us", "Ed25519", 0 },
               bs = { op[2], variant, "us", "Ed25519", 0 };
    int msel = bench_selected(ms.op, variant), wsel = bench_selected(ws.op, variant),
        bsel = boundary > BENCH_XMSS_OPENERS && boundary - BENCH_XMSS_OPENERS < per_key && bench_selected(bs.op, variant);
    size_t n = nkeys * per_key, worst_at = 0;
    if (!msel && !wsel && !bsel)
        return;
    double *ours = calloc(n, sizeof(double)), *theirs = calloc(n, sizeof(double));
    bench_stateful_base base = { "Ed25519", ed, NULL };
    if (ours != NULL && theirs != NULL) {
        for (size_t k = 0; k < nkeys; k++)
            bench_stateful_run_sign(keys[k], BENCH_XMSS_OPENERS);
        fprintf(stderr, "[bench] %s %s (%zu signatures) ...\n", ms.op, variant, n);
        bench_stateful_sign_series(keys, per_key, n, &base, 1, ours, &theirs);
        double worst = 0, ed_worst = 0;
        for (size_t i = 0; i < n; i++) {
            if (ours[i] > worst)
                worst = ours[i], worst_at = i % per_key + BENCH_XMSS_OPENERS;
            ed_worst = theirs[i] > ed_worst ? theirs[i] : ed_worst;
        }
        fprintf(stderr, "[bench] %s %s: slowest signature at index %zu (boundary %zu)\n", ms.op,
                variant, worst_at, boundary);
        dump_series(ms.op, variant, ours, theirs, n, per_key);
        if (msel)
            bench_stateful_report_series(&ms, ours, theirs, n);
        if (wsel)
            bench_report(&ws, worst, ed_worst);
        if (bsel)
            bench_report(&bs, ours[boundary - BENCH_XMSS_OPENERS], theirs[boundary - BENCH_XMSS_OPENERS]);
    }
    free(ours);
    free(theirs);
}

int bench_stateful_tmpdir(char *dir, size_t len)
{
    /* $TMPDIR, else /var/tmp: /tmp is a tmpfs on many systems, whose
     * fdatasync costs nothing */
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/fastsig-bench-XXXXXX", tmp && tmp[0] ? tmp : "/var/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("bench: mkdtemp");
        return 0;
    }
    struct statfs fs;
    if (statfs(dir, &fs) == 0 && (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC))
        fprintf(stderr, "[bench] warning: %s is in memory (tmpfs): the durable state rows do "
                        "not include a disk's fdatasync; set TMPDIR to a disk folder\n", dir);
    return 1;
}
