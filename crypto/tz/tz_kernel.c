/* tz_kernel.c - kernel selection for tz_update (portable C only so far). */
#include "tz_kernel.h"

void tz_mul_bytes(sl2 *state, const uint8_t *data, size_t len)
{
    sl2_mul_bytes_portable(state, data, len);
}

const char *tz_kernel_name(void)
{
    return "portable";
}
