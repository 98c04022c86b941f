/* cpu_none.c - the CPU of the freestanding verify-only build
 * (libfastsig-verify), in place of cpu.c: no extension (portable kernels
 * only, as FASTSIG_CPU=portable), no CPUID, no environment. A bootloader
 * or a kernel may not own the vector registers, and the same C runs on
 * every target (32-bit ARM included). */
#include "cpu.h"

unsigned fs_cpu_detected(void)
{
    return 0;
}

unsigned fs_cpu_features(void)
{
    return 0;
}
