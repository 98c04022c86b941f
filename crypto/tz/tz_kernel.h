/* tz_kernel.h - the hashing kernel behind tz_update, chosen once per process.
 *
 * Contract: tz_mul_bytes(state, data, len) multiplies state on the right by
 * the TZ matrix of the len bytes, exactly as sl2_mul_bytes_portable does;
 * every kernel gives identical results for any input and any split of it
 * into calls (matrix products are exact, so splitting a call into
 * independently hashed segments multiplied back together changes nothing).
 * The kernel is the first entry of tz_kernel_list() whose CPU needs are in
 * fs_cpu_features() (FASTSIG_CPU=portable|pclmul|avx512,vpclmul narrows it).
 * tz_kernel_name() names the kernel in use. */
#ifndef FASTSIG_TZ_KERNEL_H
#define FASTSIG_TZ_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "sl2.h"

void tz_mul_bytes(sl2 *state, const uint8_t *data, size_t len);
const char *tz_kernel_name(void);

typedef void (*tz_mul_bytes_fn)(sl2 *state, const uint8_t *data, size_t len);

typedef struct {
    const char *name;   /* "avx512", "pclmul", "portable", "twin", ... */
    unsigned cpu;       /* FS_CPU_* bits it needs */
    unsigned flags;     /* FS_KERNEL_TWIN (cpu.h): a C twin, never dispatched (slow) */
    tz_mul_bytes_fn fn; /* same contract as tz_mul_bytes */
} tz_kernel;

/* Every path, fastest first, ending with an entry whose name is NULL; tests
 * and benchmarks call them directly (skipping those the CPU lacks). */
const tz_kernel *tz_kernel_list(void);
/* The dispatched kernel for a feature mask (never NULL: portable at worst). */
const tz_kernel *tz_kernel_for(unsigned features);

/* Below this many bytes a call runs on one stream: splitting into four
 * lanes costs three full matrix products to join them, and the one-stream
 * block kernel already spreads the tree of each block over four lanes
 * (measured crossover on Zen 5: about 1 KiB). */
#define TZ_LANES_MIN 1024

#endif
