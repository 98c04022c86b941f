/* kernel_cost_static.c - the costs of the freestanding verify-only build
 * (libfastsig-verify), in place of kernel_cost.c's calibration: no clock, no
 * lock, no environment. NULL makes fs_kernel_pick use every row's static
 * cost; with no CPU extension (cpu_none.c) only the portable rows qualify,
 * so the choice is the one the provider makes under FASTSIG_CPU=portable. */
#include <stddef.h>
#include "kernel_cost.h"

const unsigned *fs_kernel_costs(const fs_kernel_table *t)
{
    (void)t;
    return NULL;
}
