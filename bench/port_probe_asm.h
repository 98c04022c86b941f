/* port_probe_asm.h - the table of port_probe.c's probes (port_probe_asm.c):
 * each a function running n iterations of an unrolled body over a 1 KiB
 * buffer (loads and stores), the CPU bits it needs, its instructions per
 * iteration and what it measures. Empty (PROBE_END only) off x86-64. */
#ifndef FASTSIG_BENCH_PORT_PROBE_ASM_H
#define FASTSIG_BENCH_PORT_PROBE_ASM_H

#include "kernel_mix.h"

typedef enum {
    PROBE_END,
    PROBE_CLOCK, /* dependent scalar adds: one cycle each */
    PROBE_TP,    /* class a's throughput */
    PROBE_LAT,   /* class a's latency */
    PROBE_LAT_AFTER, /* class a's latency after class b: a chain of b, a, b, a ... */
    PROBE_FE,    /* vector and scalar adds mixed: instructions per cycle */
    PROBE_PAIR,  /* na of class a and nb of class b per group, mixed */
    PROBE_INFO,  /* shown, not used by the bounds */
} bench_probe_kind;

typedef struct {
    bench_probe_kind kind;
    const char *name;
    void (*fn)(long n, void *buf);
    unsigned cpu;  /* FS_CPU_* bits it needs */
    unsigned ops;  /* instructions per iteration */
    int a;
    unsigned na;
    int b;
    unsigned nb;
} bench_probe;

extern const bench_probe bench_probes[];

#endif
