/* cpu.h - which x86-64 extensions the kernels may use, decided once.
 *
 * Contract: fs_cpu_features() returns the extensions that this CPU and OS
 * support (CPUID, and XGETBV for the AVX register state), narrowed by the
 * environment variable FASTSIG_CPU when it is set: a comma-separated list of
 * the names below, or "portable" for none, or "native" for all detected.
 * A name the CPU lacks is ignored (never forced on). Without FASTSIG_HAVE_ASM
 * the answer is always 0. Every dispatcher picks its kernel from this mask, so
 * tests and benchmarks can compare paths in one build. */
#ifndef FASTSIG_CPU_H
#define FASTSIG_CPU_H

enum fs_cpu_feature {
    FS_CPU_SHANI   = 1u << 0, /* SHA-NI (sha256rnds2...) with SSE4.1 */
    FS_CPU_AVX2    = 1u << 1, /* AVX2 (+BMI2) */
    FS_CPU_AVX512  = 1u << 2, /* AVX-512 F, BW, VL with zmm state enabled */
    FS_CPU_PCLMUL  = 1u << 3, /* PCLMULQDQ with SSE4.1 */
    FS_CPU_VPCLMUL = 1u << 4, /* VPCLMULQDQ (used with AVX-512) */
};

/* The usable set (detected, narrowed by FASTSIG_CPU); computed once. */
unsigned fs_cpu_features(void);
/* What the hardware and OS offer, ignoring FASTSIG_CPU. */
unsigned fs_cpu_detected(void);
/* Parses a FASTSIG_CPU value; returns 0, or -1 on an unknown name. */
int fs_cpu_parse(const char *spec, unsigned *mask);
/* Names of a mask, e.g. "shani,avx2" ("portable" for 0), into buf. */
const char *fs_cpu_names(unsigned mask, char *buf, unsigned buflen);

#endif
