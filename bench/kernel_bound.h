/* kernel_bound.h - the least time a kernel row can take on this CPU: its
 * instruction mix (kernel_mix.h, from the code) scheduled on the ports the
 * bench measured (port_probe.h).
 *
 * Per call, the bound in cycles is the largest of:
 *   each class alone: its count over its measured throughput;
 *   the vector ALU pipes: every vector instruction weighted by 1 over the
 *     throughput of adds of its width (so rotates, shifts and shuffles, which
 *     run on fewer pipes, are bound by their own line above as well);
 *   a measured pair that shares ports: both counts over the pair's rate;
 *   the front end: all instructions over the mixed-adds rate;
 *   the dependency path: its classes times their measured latencies
 *     (register dataflow only: a lower bound).
 * Loads and stores are bound by 128-bit accesses' rate (the fastest: still a
 * lower bound for wider ones). */
#ifndef FASTSIG_BENCH_KERNEL_BOUND_H
#define FASTSIG_BENCH_KERNEL_BOUND_H

#include "bench.h"

/* Gives the next row (bench_next_bound) the bound of a kernel table's row,
 * per unit of its mix (lane-compression, lane-permutation or lane-step), or
 * none when the row has no mix or a class of it was not measured here. Runs
 * the port probes the first time (bench_ports_get), unless the filter skips
 * op/variant. */
void bench_kernel_bound(const char *op, const char *variant, const char *table, const char *row);

#endif
