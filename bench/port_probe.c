/* port_probe.c - runs the probes of port_probe_asm.c (port_probe.h): every
 * probe once per round, rounds interleaved, the minimum time of each kept;
 * the clock probe runs in the same rounds, and its fastest round turns the
 * other minima into cycles (all minima come from the machine's quietest
 * moments, so the clock's too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cpu.h"
#include "port_probe.h"
#include "port_probe_asm.h"

enum { ROUNDS = 150, ITERS = 1000 };

static _Alignas(64) unsigned char probe_buf[1024];

static const char *const class_names[MIX_CLASSES] = {
    "valu.x", "valu.y", "valu.z", "vtern.x", "vtern.y", "vtern.z", "vrot.x", "vrot.y",
    "vrot.z", "vshift.x", "vshift.y", "vshift.z", "vshuf.x", "vshuf.y", "vshuf.z", "vmov.x",
    "vmov.y", "vmov.z", "sha.rnds", "sha.msg", "load", "store", "scalar", "vterns.x",
    "vterns.y", "vterns.z", "vternr.x", "vternr.y", "vternr.z", "vternx.x",
    "vternx.y", "vternx.z", "store.z", "insn",
};

const char *bench_mix_class_name(int c)
{
    return c >= 0 && c < MIX_CLASSES ? class_names[c] : "?";
}

static int probe_runs(const bench_probe *p)
{
    return p->fn != NULL && (p->cpu & ~fs_cpu_detected()) == 0;
}

/* ns per instruction of one sample */
static double sample(const bench_probe *p)
{
    double t0 = bench_now_ns();
    p->fn(ITERS, probe_buf);
    return (bench_now_ns() - t0) / ((double)ITERS * p->ops);
}

double bench_ports_clock_ghz(void)
{
    const bench_probe *clk = &bench_probes[0];
    double best = 1e30;
    if (clk->kind != PROBE_CLOCK)
        return 0;
    for (int r = 0; r < 40; r++) {
        double ns = sample(clk);
        if (ns < best)
            best = ns;
    }
    return 1.0 / best;
}

/* The vector ALU width class of a vector class (VALU_X/Y/Z), or -1. */
static int valu_of(int c)
{
    if (c < MIX_VALU_X || c > MIX_VMOV_Z)
        return c == MIX_SHA_RNDS || c == MIX_SHA_MSG ? MIX_VALU_X : -1;
    return MIX_VALU_X + (c - MIX_VALU_X) % 3;
}

double bench_ports_vec_weight(const bench_ports *p, int c)
{
    /* an op on the vector ALU pipes takes 1/tp(add of its width) of them;
     * moves faster than adds are eliminated at rename: none */
    int v = valu_of(c);
    if (v < 0 || p->tp[v] <= 0 || p->tp[c] <= 0 || p->tp[c] > p->tp[v] * 1.05)
        return 0;
    return 1.0 / p->tp[v];
}

static void pair_model(bench_ports *p, bench_port_pair *q)
{
    double m = 0, vec = 0;
    if (p->tp[q->a] > 0)
        m = q->na / p->tp[q->a];
    if (p->tp[q->b] > 0 && q->nb / p->tp[q->b] > m)
        m = q->nb / p->tp[q->b];
    vec = q->na * bench_ports_vec_weight(p, q->a) + q->nb * bench_ports_vec_weight(p, q->b);
    q->model = vec > m ? vec : m;
    q->shared = q->cycles > 1.1 * q->model;
}

static void measure(bench_ports *p)
{
    size_t n = 0;
    while (bench_probes[n].kind != PROBE_END)
        n++;
    double *best = malloc(n * sizeof(double));
    if (best == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        best[i] = 1e30;
    for (int r = -1; r < ROUNDS; r++) /* round -1 warms up */
        for (size_t i = 0; i < n; i++)
            if (probe_runs(&bench_probes[i])) {
                double ns = sample(&bench_probes[i]);
                if (r >= 0 && ns < best[i])
                    best[i] = ns;
            }
    p->ghz = 1.0 / best[0];
    for (size_t i = 1; i < n; i++) {
        const bench_probe *q = &bench_probes[i];
        double cyc = best[i] * p->ghz; /* cycles per instruction */
        if (!probe_runs(q))
            continue;
        if (q->kind == PROBE_TP)
            p->tp[q->a] = 1.0 / cyc;
        else if (q->kind == PROBE_LAT)
            p->lat[q->a] = cyc;
        else if (q->kind == PROBE_LAT_AFTER) /* pairs of b then a */
            p->lat[q->a] = 2 * cyc - p->lat[q->b];
        else if (q->kind == PROBE_INFO && p->ninfo < 8) {
            p->info[p->ninfo].name = q->name;
            p->info[p->ninfo++].per_cycle = 1.0 / cyc;
        } else if (q->kind == PROBE_FE && p->fe == 0)
            p->fe = 1.0 / cyc;
        else if (q->kind == PROBE_PAIR && p->npair < BENCH_MAX_PAIRS)
            p->pair[p->npair++] = (bench_port_pair){ q->a, q->b, q->na, q->nb,
                                                     cyc * (q->na + q->nb), 0, 0 };
    }
    free(best);
    p->lat[MIX_SCALAR] = 1; /* the clock's definition */
    for (unsigned i = 0; i < p->npair; i++)
        pair_model(p, &p->pair[i]);
}

const bench_ports *bench_ports_get(void)
{
    static bench_ports ports;
    static int done;
    if (!done) {
        done = 1;
        if (bench_probes[0].kind == PROBE_CLOCK) {
            measure(&ports);
            bench_ports_print(&ports);
        }
    }
    return ports.ghz > 0 ? &ports : NULL;
}

void bench_ports_print(const bench_ports *p)
{
    char names[128];
    printf("# ports   clock %.3f GHz (dependent adds), cpu %s, front end %.2f insn/cycle\n",
           p->ghz, fs_cpu_names(fs_cpu_detected(), names, sizeof(names)), p->fe);
    printf("# ports   class: throughput insn/cycle, latency cycles:");
    for (int c = 0; c < MIX_CLASSES; c++)
        if (p->tp[c] > 0 || p->lat[c] > 0)
            printf(" %s %.2f/%.2g", class_names[c], p->tp[c], p->lat[c]);
    for (unsigned i = 0; i < p->ninfo; i++)
        printf(" %s %.2f", p->info[i].name, p->info[i].per_cycle);
    printf("\n# ports   pairs (cycles per group, separate limits' model):");
    for (unsigned i = 0; i < p->npair; i++) {
        const bench_port_pair *q = &p->pair[i];
        printf(" %u %s + %u %s %.2f/%.2f%s", q->na, class_names[q->a], q->nb,
               class_names[q->b], q->cycles, q->model, q->shared ? " SHARED" : "");
    }
    printf("\n");
    fflush(stdout);
}
