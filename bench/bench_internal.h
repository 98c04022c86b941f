/* bench_internal.h - what main.c and bench.c share, not the groups. */
#ifndef FASTSIG_BENCH_INTERNAL_H
#define FASTSIG_BENCH_INTERNAL_H

struct bench_options {
    const char *filter; /* substring of "op variant", or NULL */
    int json;
    int rounds;         /* interleaved rounds per row (median taken) */
    double sample_ms;   /* target length of one timed sample */
};

void bench_set_options(const struct bench_options *o);
void bench_print_header(void);
/* The kernel plan of this process (bench_plan.c). */
void bench_print_plan(void);

#endif
