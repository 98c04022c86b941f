/* kernel_path.c - see kernel_path.h. */
#include <stdio.h>
#include "cpu.h"
#include "kernel_path.h"

int kernel_on_path(const char *kind, const char *name, unsigned cpu)
{
    static const char *noted[32];
    static unsigned nnoted;
    if (fs_cpu_allows(cpu))
        return 1;
    for (unsigned i = 0; i < nnoted; i++)
        if (noted[i] == name)
            return 0;
    if (nnoted < sizeof(noted) / sizeof(noted[0]))
        noted[nnoted++] = name;
    printf("\n  note: skipping %s kernel %s (CPU lacks it or FASTSIG_CPU)\n", kind, name);
    return 0;
}
