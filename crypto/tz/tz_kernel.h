/* tz_kernel.h - the hashing kernel behind tz_update, chosen once per process.
 *
 * Contract: tz_mul_bytes(state, data, len) multiplies state on the right by
 * the TZ matrix of the len bytes, exactly as sl2_mul_bytes_portable does;
 * every kernel gives identical results for any input and any split of it
 * into calls (matrix products are exact, so splitting a call into
 * independently hashed segments multiplied back together changes nothing).
 * The kernel is the row of tz_kernel_list() that cpu.c's picker chooses
 * by the process's kernel costs among those fs_cpu_features() allows
 * (FASTSIG_CPU=portable|pclmul|avx512,vpclmul narrows it).
 * tz_kernel_name() names the kernel in use. */
#ifndef FASTSIG_TZ_KERNEL_H
#define FASTSIG_TZ_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "sl2.h"
#include "cpu.h"
#include "kernel_cost.h"

void tz_mul_bytes(sl2 *state, const uint8_t *data, size_t len);
const char *tz_kernel_name(void);

typedef void (*tz_mul_bytes_fn)(sl2 *state, const uint8_t *data, size_t len);

/* The rows (cpu.h fs_kernel: "avx512", "pclmul", "portable", the twins
 * "twin-lanes" and "twin" never dispatched): fn has tz_mul_bytes's
 * contract, cost is per byte. */
static inline tz_mul_bytes_fn tz_kernel_fn(const fs_kernel *k)
{
    return (tz_mul_bytes_fn)k->fn;
}

/* Every path, fastest first, ending with an entry whose name is NULL; tests
 * and benchmarks call them directly (skipping those the CPU lacks). */
const fs_kernel *tz_kernel_list(void);
/* The table as the picker and the calibration see it ("tz"). */
extern const fs_kernel_table tz_kernel_table;
/* The dispatched kernel for a feature mask (never NULL: portable at worst). */
const fs_kernel *tz_kernel_for(unsigned features);

/* Below this many bytes a call runs on one stream: splitting into four
 * lanes costs three full matrix products to join them, and the one-stream
 * block kernel already spreads the tree of each block over four lanes
 * (measured crossover on Zen 5: about 1 KiB). */
#define TZ_LANES_MIN 1024

#endif
