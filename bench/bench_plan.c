/* bench_plan.c - the kernel plan this process chose: per primitive, the row
 * cpu.c's picker takes for one message and for a full-width call, and the
 * costs it picked by (measured: picoseconds per lane; static: the table's
 * own unit). Printed before the rows ("# " lines, which --json readers skip). */
#include <stdio.h>
#include "bench_internal.h"
#include "cpu.h"
#include "kernel_cost.h"
#include "hash/keccak.h"
#include "hash/lanes_select.h"
#include "hash/sha256.h"
#include "hash/sha256_chain.h"
#include "hash/sha512.h"
#include "rw/rw_internal.h"
#include "rw/rw_keccak_dot.h"
#include "rw/rw_sig.h"
#include "tz/tz_kernel.h"

static void print_table(const fs_kernel_table *t)
{
    const unsigned *cost = fs_kernel_costs(t), mask = fs_cpu_features();
    unsigned wide = 1;
    for (const fs_kernel *k = t->rows; k->name; k++)
        wide = fs_kernel_usable(k, mask, 0) && k->lanes > wide ? k->lanes : wide;
    const fs_kernel *one = fs_kernel_choose(t, mask, 0, 1), *full = fs_kernel_choose(t, mask, 0, wide);
    printf("# plan %-13s x1 %-14s x%-2u %-14s %s:", t->name, one ? one->name : "none", wide,
           full ? full->name : "none",
           fs_kernel_costs_measured(t) ? "measured ps/lane" : "static cost");
    for (size_t i = 0; t->rows[i].name; i++)
        if (fs_kernel_usable(&t->rows[i], mask, 0))
            printf(" %s=%u", t->rows[i].name, cost[i]);
    printf(" (%.3f ms)\n", (double)t->state->ns / 1e6);
}

/* The lane engine's plan for a SHA-2 / Keccak table (lanes_plan.c): the
 * row for each group size 1..32 (two-lane rows left out), runs of one row
 * merged. */
static void print_groups(const fs_kernel_table *t)
{
    const fs_kernel *plan[MAX_KERNEL_LANES + 1];
    unsigned from = 1;
    fs_lanes_plan(t, fs_cpu_features(), MAX_KERNEL_LANES, MAX_KERNEL_LANES, plan);
    printf("# groups %-11s", t->name);
    for (unsigned left = 1; left <= MAX_KERNEL_LANES; left++) {
        const fs_kernel *k = plan[left];
        if (left < MAX_KERNEL_LANES && plan[left + 1] == k)
            continue;
        if (from == left)
            printf(" %u:%s", left, k->name);
        else
            printf(" %u-%u:%s", from, left, k->name);
        from = left + 1;
    }
    printf("\n");
}

void bench_print_plan(void)
{
    static const fs_kernel_table *const tables[] = {
        &fs_sha256_table, &fs_sha512_table, &fs_keccak_table, &tz_kernel_table,
        &rw_keccak_dot_table, &rw_powm2_table, &rw_check_table, &rw_residues_table,
        &rw_from_be_table, &fs_wots_chain_table, &fs_lmots_chain_table,
    };
    char cpu[64];
    printf("# kernels for %s\n", fs_cpu_names(fs_cpu_features(), cpu, sizeof(cpu)));
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
        print_table(tables[i]);
    for (size_t i = 0; i < 3; i++)
        print_groups(tables[i]);
    printf("# calibration: %.3f ms in all\n", (double)fs_kernel_calibration_ns() / 1e6);
    fflush(stdout);
}
