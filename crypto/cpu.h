/* cpu.h - which x86-64 extensions the kernels may use, decided once.
 *
 * Contract: fs_cpu_features() returns the extensions that this CPU and OS
 * support (CPUID, and XGETBV for the AVX register state), narrowed by the
 * environment variable FASTSIG_CPU when it is set: a comma-separated list of
 * the names below, or "portable" for none, or "native" for all detected.
 * A name the CPU lacks is ignored (never forced on); a name this file does not
 * know is ignored too (the known names still narrow), and fs_cpu_env_bad()
 * says so: the library never prints. Without FASTSIG_HAVE_ASM the answer is
 * always 0. This file is the only place that asks the CPU what it has; every
 * dispatcher picks its kernel from this mask, so tests and benchmarks can
 * compare paths in one build. */
#ifndef FASTSIG_CPU_H
#define FASTSIG_CPU_H

enum fs_cpu_feature {
    FS_CPU_SHANI   = 1u << 0, /* SHA-NI (sha256rnds2...) with SSE4.1 */
    FS_CPU_AVX2    = 1u << 1, /* AVX2 (+BMI2) */
    FS_CPU_AVX512  = 1u << 2, /* AVX-512 F, BW, VL with zmm state enabled */
    FS_CPU_PCLMUL  = 1u << 3, /* PCLMULQDQ with SSE4.1 */
    FS_CPU_VPCLMUL = 1u << 4, /* VPCLMULQDQ (used with AVX-512) */
    FS_CPU_IFMA    = 1u << 5, /* AVX-512 IFMA (vpmadd52*); its users need FS_CPU_AVX512 too */
};

/* Threads a key generation or tree build uses by default: the CPUs this
 * process may run on (the affinity mask, so taskset and cpusets count), at
 * most 8. */
unsigned fs_cpu_threads(void);

/* The usable set (detected, narrowed by FASTSIG_CPU); computed once,
 * thread-safe. */
unsigned fs_cpu_features(void);
/* 1 when the usable set has every bit of need (0 needs nothing). */
static inline int fs_cpu_allows(unsigned need)
{
    return (need & ~fs_cpu_features()) == 0;
}
/* What the hardware and OS offer, ignoring FASTSIG_CPU. */
unsigned fs_cpu_detected(void);
/* 1 when FASTSIG_CPU held a name that fs_cpu_parse does not know. */
int fs_cpu_env_bad(void);
/* Parses a FASTSIG_CPU value into the mask of its known names; returns 0,
 * or -1 when it also held an unknown one. */
int fs_cpu_parse(const char *spec, unsigned *mask);
/* Names of a mask, e.g. "shani,avx2" ("portable" for 0), into buf. */
const char *fs_cpu_names(unsigned mask, char *buf, unsigned buflen);

/* Flags of an entry in a kernel table. Each primitive keeps one table beside
 * its kernels, with the FS_CPU_* bits each entry needs; its dispatcher picks
 * once among the entries the usable set allows and these flags admit:
 *   FS_KERNEL_TWIN  the portable twin of an asm kernel: tests and benchmarks
 *                   run it, no dispatcher picks it;
 *   FS_KERNEL_PAIR  a two-lane kernel for callers with one or two messages;
 *                   the lane engine, which splits batches by width, leaves
 *                   it out. */
enum fs_kernel_flag {
    FS_KERNEL_TWIN = 1u << 0,
    FS_KERNEL_PAIR = 1u << 1,
};

#endif
