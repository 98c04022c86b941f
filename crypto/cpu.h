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

/* A kernel: one row of a primitive's table. Every primitive (a hash
 * family's compression, the Keccak permutation, the TZ multiply, RW's
 * Montgomery paths ...) keeps one table of these beside its kernels, portable
 * rows first, ending with a row whose name is NULL; fs_kernel_pick below is
 * the only place that chooses among them. fn has the primitive's own type:
 * the table stores it as fs_kernel_fn and the primitive's typed accessor
 * casts it back (calls go through the real type only).
 * Flags:
 *   FS_KERNEL_TWIN  the portable twin of an asm kernel: tests and benchmarks
 *                   run it, no dispatcher picks it;
 *   FS_KERNEL_PAIR  a two-lane kernel for callers with one or two messages;
 *                   the lane engine, which splits batches by width, leaves
 *                   it out. */
enum fs_kernel_flag {
    FS_KERNEL_TWIN = 1u << 0,
    FS_KERNEL_PAIR = 1u << 1,
};

typedef void fs_kernel_fn(void);
#define FS_KERNEL_FN(f) ((fs_kernel_fn *)(void (*)(void))(f))

typedef struct {
    const char *name;   /* "portable-x1", "avx512-x16", "gmp", "ifma" ... */
    fs_kernel_fn *fn;   /* the primitive's entry point (its accessor's type) */
    fs_kernel_fn *aux;  /* a second entry point some primitives have (Keccak's
                           whole-block absorb; a fused chain row's compression
                           kernel of its round layout), or NULL */
    unsigned lanes;     /* messages per call (1 for one-stream kernels) */
    unsigned cpu;       /* FS_CPU_* bits it needs (0: portable) */
    unsigned flags;     /* FS_KERNEL_* */
    unsigned cost;      /* static estimate of one lane's time per call (any
                           unit, per table), used when nothing is measured */
} fs_kernel;

/* The row that ends a table. */
#define FS_KERNEL_END { NULL, NULL, NULL, 0, 0, 0, 0 }

/* 1 when row k may be dispatched under the feature mask: no flag of skip
 * (FS_KERNEL_TWIN is always skipped) and every FS_CPU_* bit it needs. */
static inline int fs_kernel_usable(const fs_kernel *k, unsigned mask, unsigned skip)
{
    return !(k->flags & (skip | FS_KERNEL_TWIN)) && (k->cpu & ~mask) == 0;
}

/* The picker: the row of rows (NULL-name terminated) that does `lanes`
 * messages for the least cost among those fs_kernel_usable(mask, skip)
 * allows, where a row's cost is cost[i] (its per-lane cost; NULL: the rows'
 * static costs) times its lanes times the calls it takes
 * (ceil(lanes / its lanes)); ties go to the earlier row. NULL when no row is
 * usable. */
const fs_kernel *fs_kernel_pick(const fs_kernel *rows, const unsigned *cost, unsigned mask,
                                unsigned skip, unsigned lanes);

#endif
