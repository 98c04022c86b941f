/* port_probe.h - what this CPU's core does per cycle, measured in the bench's
 * own run (x86-64; a measuring tool, not a kernel):
 *   the clock: a chain of dependent scalar adds (one cycle each) timed with
 *     clock_gettime, so cycles per ns on whatever CPU runs it;
 *   per instruction class of kernel_mix.h (each width): the throughput of long
 *     unrolled runs of 12 independent chains (VTERNX, the ternlogs another
 *     ternlog reads through a non-destination operand: two banks of 12, each
 *     taking the other's last result so), and the latency of one chain
 *     (through the destination; VTERNS: through another operand), in cycles;
 *   the front end: vector and scalar adds mixed;
 *   pairs of classes mixed (add+rotate, add+ternlog, rotate+ternlog, ...):
 *     when a pair runs slower than the classes' separate limits allow, the two
 *     share ports, and the pair becomes one resource of its own.
 * Each figure is the minimum over many short samples, all probes interleaved
 * round by round (a shared machine: a slow sample is someone else's). */
#ifndef FASTSIG_BENCH_PORT_PROBE_H
#define FASTSIG_BENCH_PORT_PROBE_H

#include "kernel_mix.h"

enum { BENCH_MAX_PAIRS = 16 };

typedef struct {
    int a, b;          /* classes; na and nb of them per group */
    unsigned na, nb;
    double cycles;     /* measured cycles per group */
    double model;      /* cycles per group the separate limits predict */
    int shared;        /* cycles > 1.1 * model: a resource of its own */
} bench_port_pair;

typedef struct {
    double ghz;               /* core cycles per ns */
    double tp[MIX_CLASSES];   /* instructions per cycle (0: not measured here) */
    double lat[MIX_CLASSES];  /* cycles */
    double fe;                /* instructions per cycle, vector and scalar mixed */
    bench_port_pair pair[BENCH_MAX_PAIRS];
    unsigned npair;
    struct {
        const char *name;
        double per_cycle;
    } info[8];                /* probes shown only (vpermq, zmm loads) */
    unsigned ninfo;
} bench_ports;

/* Measured once per process (~0.1 s), on the first call; NULL when this
 * build or CPU has no probes (not x86-64). */
const bench_ports *bench_ports_get(void);
/* A fresh measurement of the clock alone (~1 ms): cycles per ns. */
double bench_ports_clock_ghz(void);
/* The figures as "# ports ..." lines on stdout (JSON readers skip them). */
void bench_ports_print(const bench_ports *p);
/* The share of the vector ALU pipes one instruction of class c takes (1 over
 * the throughput of adds of its width), 0 for classes off those pipes (and
 * moves that run faster than adds: eliminated at rename). */
double bench_ports_vec_weight(const bench_ports *p, int c);
/* Names of the classes ("valu.z", ...), for the lines above and the rows. */
const char *bench_mix_class_name(int c);

#endif
