/* kernel_pick.c - the one kernel picker (cpu.h): pure, so it builds
 * freestanding with the verification paths (libfastsig-verify). */
#include <stddef.h>
#include "cpu.h"

const fs_kernel *fs_kernel_pick(const fs_kernel *rows, const unsigned *cost, unsigned mask,
                                unsigned skip, unsigned lanes)
{
    const fs_kernel *best = NULL;
    unsigned long long best_cost = ~0ull;
    lanes = lanes ? lanes : 1;
    for (size_t i = 0; rows[i].name != NULL; i++) {
        const fs_kernel *k = &rows[i];
        if (!fs_kernel_usable(k, mask, skip))
            continue;
        unsigned long long calls = (lanes + k->lanes - 1) / k->lanes;
        unsigned long long c = (unsigned long long)(cost ? cost[i] : k->cost) * k->lanes * calls;
        if (c < best_cost) {
            best = k;
            best_cost = c;
        }
    }
    return best;
}
