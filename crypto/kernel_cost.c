/* kernel_cost.c - the once-per-process calibration of kernel costs and its
 * FASTSIG_KERNEL_COSTS override (kernel_cost.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernel_cost.h"

/* Timed calls per row after one warm-up: the best of them is its cost
 * (interruptions only make a call slower). */
#define TRIALS 5

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long total_ns;

static unsigned long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* One timed call of row k, in ns. */
static unsigned long long time_trial(const fs_kernel_table *t, const fs_kernel *k)
{
    unsigned long long start = now_ns();
    t->trial(k);
    return now_ns() - start;
}

/* A best time per call as a cost: per lane, in picoseconds (at least 1). */
static unsigned to_cost(unsigned long long best_ns, const fs_kernel *k)
{
    unsigned long long ps = best_ns * 1000 / k->lanes;
    return ps == 0 ? 1 : ps >= FS_KERNEL_COST_NONE ? FS_KERNEL_COST_NONE - 1 : (unsigned)ps;
}

/* The usable rows' costs: each warmed up once (code, data and the vector
 * unit's power state), then TRIALS rounds of one call of every row in
 * turn, the best kept. Interleaved, not row after row: the clock and the
 * vector unit's state move during the first milliseconds of a process,
 * and timed one row after another the LM-OTS table's 32-lane row lost to
 * the 16-lane one it beats by 16% in 50 of 200 processes on this Zen 5. */
static void measure_rows(const fs_kernel_table *t, unsigned mask, unsigned cost[])
{
    unsigned long long best[FS_KERNEL_MAX_ROWS];
    size_t n = 0;
    while (n < FS_KERNEL_MAX_ROWS && t->rows[n].name != NULL)
        n++;
    for (size_t i = 0; i < n; i++) {
        best[i] = ~0ull;
        if (fs_kernel_usable(&t->rows[i], mask, 0))
            t->trial(&t->rows[i]);
    }
    for (int r = 0; r < TRIALS; r++)
        for (size_t i = 0; i < n; i++) {
            if (!fs_kernel_usable(&t->rows[i], mask, 0))
                continue;
            unsigned long long d = time_trial(t, &t->rows[i]);
            best[i] = d < best[i] ? d : best[i];
        }
    for (size_t i = 0; i < n; i++)
        cost[i] = fs_kernel_usable(&t->rows[i], mask, 0) ? to_cost(best[i], &t->rows[i])
                                                          : FS_KERNEL_COST_NONE;
}

int fs_kernel_costs_parse(const fs_kernel_table *t, const char *spec, unsigned *cost)
{
    char buf[512];
    int is_static = 0;
    size_t tlen = strlen(t->name);
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save)) {
        char *eq = strchr(tok, '=');
        if (strcmp(tok, "static") == 0)
            is_static = 1;
        if (eq == NULL || strncmp(tok, t->name, tlen) != 0 || tok[tlen] != ':')
            continue;
        *eq = 0;
        for (size_t i = 0; t->rows[i].name != NULL; i++)
            if (strcmp(tok + tlen + 1, t->rows[i].name) == 0) {
                unsigned long v = strtoul(eq + 1, NULL, 10);
                cost[i] = v == 0 || v >= FS_KERNEL_COST_NONE ? FS_KERNEL_COST_NONE - 1
                                                             : (unsigned)v;
            }
    }
    return is_static;
}

/* Fills st->cost for t (under the lock). */
static void calibrate(const fs_kernel_table *t, fs_kernel_costs_state *st)
{
    const char *env = secure_getenv("FASTSIG_KERNEL_COSTS");
    unsigned cost[FS_KERNEL_MAX_ROWS];
    unsigned long long start = now_ns();
    for (size_t i = 0; i < FS_KERNEL_MAX_ROWS; i++)
        cost[i] = FS_KERNEL_COST_NONE;
    unsigned mask = fs_cpu_features();
    int is_static = env != NULL && fs_kernel_costs_parse(t, env, cost) == 1;
    int timed = t->trial != NULL && !is_static;
    if (timed)
        measure_rows(t, mask, cost);
    else
        for (size_t i = 0; t->rows[i].name != NULL && i < FS_KERNEL_MAX_ROWS; i++)
            cost[i] = t->rows[i].cost;
    if (env != NULL)
        fs_kernel_costs_parse(t, env, cost);
    memcpy(st->cost, cost, sizeof(cost));
    st->ns = now_ns() - start;
    total_ns += st->ns;
    __atomic_store_n(&st->ready, timed ? 2 : 1, __ATOMIC_RELEASE);
}

const unsigned *fs_kernel_costs(const fs_kernel_table *t)
{
    fs_kernel_costs_state *st = t->state;
    if (__builtin_expect(__atomic_load_n(&st->ready, __ATOMIC_ACQUIRE) == 0, 0)) {
        pthread_mutex_lock(&lock);
        if (__atomic_load_n(&st->ready, __ATOMIC_ACQUIRE) == 0)
            calibrate(t, st);
        pthread_mutex_unlock(&lock);
    }
    return st->cost;
}

int fs_kernel_costs_measured(const fs_kernel_table *t)
{
    return __atomic_load_n(&t->state->ready, __ATOMIC_ACQUIRE) == 2;
}

unsigned long long fs_kernel_calibration_ns(void)
{
    pthread_mutex_lock(&lock);
    unsigned long long ns = total_ns;
    pthread_mutex_unlock(&lock);
    return ns;
}
