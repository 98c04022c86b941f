/* tz_kernel.h - the hashing kernel behind tz_update, chosen once per process.
 *
 * Contract: tz_mul_bytes(state, data, len) multiplies state on the right by
 * the TZ matrix of the len bytes, exactly as sl2_mul_bytes_portable does;
 * faster kernels (asm/) must give identical results for any input and any
 * split of it into calls. tz_kernel_name() names the kernel in use. */
#ifndef FASTSIG_TZ_KERNEL_H
#define FASTSIG_TZ_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "sl2.h"

void tz_mul_bytes(sl2 *state, const uint8_t *data, size_t len);
const char *tz_kernel_name(void);

#endif
