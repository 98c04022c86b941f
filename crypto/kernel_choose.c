/* kernel_choose.c - a table's row by its process costs (kernel_cost.h):
 * no lock and no libc, so it builds freestanding with the verification
 * paths (libfastsig-verify), over either source of costs: the calibration
 * of kernel_cost.c or the static costs of kernel_cost_static.c. */
#include <stddef.h>
#include "kernel_cost.h"

const fs_kernel *fs_kernel_choose(const fs_kernel_table *t, unsigned mask, unsigned skip,
                                  unsigned lanes)
{
    return fs_kernel_pick(t->rows, fs_kernel_costs(t), mask, skip, lanes);
}

const fs_kernel *fs_kernel_default(const fs_kernel_table *t)
{
    /* threads that race store the same row: the costs are published once */
    const fs_kernel *k = __atomic_load_n(&t->state->chosen, __ATOMIC_ACQUIRE);
    if (__builtin_expect(k == NULL, 0)) {
        k = fs_kernel_choose(t, fs_cpu_features(), 0, 1);
        __atomic_store_n(&t->state->chosen, k, __ATOMIC_RELEASE);
    }
    return k;
}
