/* lanes_plan.c - the lane engine's group plan for one family's kernel
 * table: the kernel for a group of each size 1..max (lanes_select.c).
 *
 * Small groups take the picker's row (cpu.c: one row, as many calls as it
 * needs). A group wider than half of the widest row (the 32-lane SHA-256
 * and 16-lane SHA-512 kernels: two states interleaved) may go to that row
 * or be split, so from there on each size takes the row with the least
 * cost of one call plus the plan of the lanes it leaves (the run loops in
 * lanes.c follow the plan group by group just so); on a tie, the picker's
 * row at that half first, as when plans stopped at it. Tables whose rows
 * are 8 lanes or fewer keep the picker up to 16 lanes, as before. */
#include "kernel_cost.h"
#include "hash/lanes_select.h"

/* Up to here at most, the picker's row as it always was. */
#define PICKER_LANES 16

static unsigned long long row_cost(const fs_kernel *k, const unsigned *cost, size_t i)
{
    return (unsigned long long)(cost ? cost[i] : k->cost) * k->lanes;
}

unsigned fs_lanes_picker_lanes(const fs_kernel_table *t, unsigned mask, unsigned buf)
{
    unsigned widest = 0;
    for (size_t i = 0; t->rows[i].name != NULL; i++) {
        const fs_kernel *k = &t->rows[i];
        if (fs_kernel_usable(k, mask, FS_KERNEL_PAIR) && k->lanes <= buf && k->lanes > widest)
            widest = k->lanes;
    }
    return widest > 8 && widest / 2 < PICKER_LANES ? widest / 2 : PICKER_LANES;
}

void fs_lanes_plan(const fs_kernel_table *t, unsigned mask, unsigned buf, unsigned max,
                   const fs_kernel *plan[])
{
    const unsigned *cost = fs_kernel_costs(t);
    const unsigned picker = fs_lanes_picker_lanes(t, mask, buf);
    unsigned long long total[MAX_KERNEL_LANES + 1] = { 0 }; /* plan[left]'s groups */
    for (unsigned left = 1; left <= max; left++) {
        const fs_kernel *best = NULL;
        unsigned long long best_cost = ~0ull;
        if (left <= picker) {
            best = fs_kernel_choose(t, mask, FS_KERNEL_PAIR, left);
            if (best->lanes > buf)
                best = &t->rows[0]; /* the tables start with their portable one-lane row */
            unsigned used = left < best->lanes ? left : best->lanes;
            best_cost = row_cost(best, cost, (size_t)(best - t->rows)) + total[left - used];
        } else { /* a full group first, as before, unless a row costs less */
            best = plan[picker];
            best_cost = row_cost(best, cost, (size_t)(best - t->rows)) +
                        total[left - (left < best->lanes ? left : best->lanes)];
            for (size_t i = 0; t->rows[i].name != NULL; i++) {
                const fs_kernel *k = &t->rows[i];
                if (!fs_kernel_usable(k, mask, FS_KERNEL_PAIR) || k->lanes > buf)
                    continue;
                unsigned used = left < k->lanes ? left : k->lanes;
                unsigned long long c = row_cost(k, cost, i) + total[left - used];
                if (c < best_cost) {
                    best = k;
                    best_cost = c;
                }
            }
        }
        plan[left] = best;
        total[left] = best_cost;
    }
}
