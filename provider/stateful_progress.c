/* stateful_progress.c - key-generation progress of the tree-building rows
 * (stateful_key.h: STATEFUL_PROGRESS). Two audiences:
 *
 * - the application's OSSL_CALLBACK (OSSL_FUNC_keymgmt_gen's callback:
 *   "potential" 0 and "iteration" i, once per fortieth of the leaves; it
 *   may stop the generation by returning 0). `openssl genpkey` prints a
 *   '.' per call, and cannot be told more: the callback carries no
 *   figures;
 * - a person at a terminal: a line on stderr with the percentage, the rate
 *   in leaves per second and the time left, rewritten in place at most 4
 *   times a second. FASTSIG_PROGRESS (read at each generation): unset or
 *   "auto" shows it when stderr is a terminal and the application asked
 *   for progress (gave a callback, as genpkey does); "1" always (not a
 *   terminal: a line per tenth); "0" never. A library writes nothing to a
 *   program that did not ask, nor into a pipe unless told.
 *
 * The core calls stateful_progress per leaf (or per batch of leaves) on the
 * generating thread; the clock is read once per thousandth of the work. */
#define _GNU_SOURCE /* secure_getenv */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "prov.h"
#include "stateful_key.h"
#include "fastsig_err.h"

enum { DETAIL_OFF, DETAIL_TTY, DETAIL_LINES };

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void stateful_progress_init(STATEFUL_PROGRESS *g, const FSP_GENOPTS *o, const char *name)
{
    const char *env = secure_getenv("FASTSIG_PROGRESS");
    int tty = isatty(STDERR_FILENO);

    memset(g, 0, sizeof(*g));
    g->o = o;
    g->name = name;
    if (env != NULL && strcmp(env, "0") == 0)
        g->detail = DETAIL_OFF;
    else if (env != NULL && strcmp(env, "1") == 0)
        g->detail = tty ? DETAIL_TTY : DETAIL_LINES;
    else
        g->detail = tty && o->listened ? DETAIL_TTY : DETAIL_OFF;
    clock_gettime(CLOCK_MONOTONIC, &g->start);
}

/* The person's line: percent, rate, time left, once the rate means
 * something: a second has passed or a tenth of the leaves to build are
 * built (a key built in about a second still shows its rate). */
static void show(STATEFUL_PROGRESS *g, uint64_t done, uint64_t total, double t)
{
    uint64_t built = done > g->skipped ? done - g->skipped : 0;
    double rate = t > 0 ? (double)built / t : 0;
    char eta[48] = "";
    if ((t >= 1 || built >= (total - g->skipped) / 10) && rate > 0)
        snprintf(eta, sizeof(eta), ", %.0f leaves/s, %.0f s left", rate,
                 (double)(total - done) / rate);
    fprintf(stderr, "%sfastsig: %s key: %3" PRIu64 "%% (%" PRIu64 " of %" PRIu64 " leaves)%s%s",
            g->detail == DETAIL_TTY ? "\r" : "", g->name, done * 100 / total, done, total, eta,
            g->detail == DETAIL_TTY ? "\033[K" : "\n");
    fflush(stderr);
}

static void detail(STATEFUL_PROGRESS *g, uint64_t done, uint64_t total)
{
    uint64_t permille = done * 1000 / total;
    double t;
    if (permille == g->permille || (g->detail == DETAIL_LINES && done == total))
        return; /* the closing line says 100% */
    g->permille = permille;
    t = since(&g->start);
    if (g->detail == DETAIL_TTY ? t - g->last >= 0.25 : permille / 100 != g->tenth) {
        g->last = t;
        g->tenth = permille / 100;
        show(g, done, total, t);
    }
}

int stateful_progress(void *arg, uint64_t done, uint64_t total)
{
    STATEFUL_PROGRESS *g = arg;
    uint64_t step = total > 0 ? done * 40 / total : 40;
    int go = 1;
    for (; g->shown < step && go; g->shown++)
        go = g->o->progress(g->o->progress_arg, 0, (int)g->shown);
    if (g->detail != DETAIL_OFF && total > 0 && done <= total) {
        /* the leaves of the pieces a resumed generation took from its
         * checkpoint (stateful_resume.c says how many): not in the rate. A
         * guess from jumps in done cannot tell them from a core that
         * reports a piece of many leaves at once (an H25 top tree). */
        if (g->total == 0 && g->pieces > 0)
            g->skipped = g->resumed >= g->pieces ? total : total / g->pieces * g->resumed;
        g->total = total;
        detail(g, done, total);
    }
    return !go; /* cores: nonzero = stop; FSP_GENOPTS: 0 = stop */
}

void stateful_progress_end(STATEFUL_PROGRESS *g, int err)
{
    if (g->detail == DETAIL_OFF || g->total == 0)
        return;
    if (err == FASTSIG_OK)
        fprintf(stderr, "%sfastsig: %s key: 100%% (%" PRIu64 " leaves) in %.1f s%s\n",
                g->detail == DETAIL_TTY ? "\r" : "", g->name, g->total, since(&g->start),
                g->detail == DETAIL_TTY ? "\033[K" : "");
    else if (g->detail == DETAIL_TTY)
        fputc('\n', stderr); /* the line stays, the error follows */
    fflush(stderr);
}
