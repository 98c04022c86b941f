/* locktimeout.c - how long a state, cache or registry lock is waited for:
 * one process-wide setting (statefile.h), read by fileio.c's waits. */
#include <stddef.h>
#include "fastsig_err.h"
#include "statefile.h"

static unsigned lock_timeout_ms = FASTSIG_STATE_LOCK_TIMEOUT_MS; /* atomic */

void fastsig_state_set_lock_timeout(unsigned ms)
{
    __atomic_store_n(&lock_timeout_ms, ms, __ATOMIC_RELAXED);
}

unsigned fastsig_state_lock_timeout(void)
{
    return __atomic_load_n(&lock_timeout_ms, __ATOMIC_RELAXED);
}

int fastsig_state_parse_timeout(const char *text, unsigned *ms)
{
    if (text == NULL || ms == NULL)
        return FASTSIG_ERR_NULL_ARG;
    /* digits, then optionally '.' and up to three digits: no strtod, whose
     * decimal point follows the application's locale */
    unsigned long long v = 0;
    const char *s = text;
    int digits = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++)
        if ((v = v * 10 + (unsigned)(*s - '0')) > FASTSIG_STATE_LOCK_TIMEOUT_MAX_S)
            return FASTSIG_ERR_BAD_PARAM;
    v *= 1000;
    if (*s == '.') {
        unsigned scale = 100;
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
            if (scale == 0)
                return FASTSIG_ERR_BAD_PARAM; /* finer than a millisecond */
            v += (unsigned)(*s - '0') * scale;
            scale /= 10;
        }
    }
    if (digits == 0 || *s != '\0')
        return FASTSIG_ERR_BAD_PARAM;
    *ms = (unsigned)v;
    return FASTSIG_OK;
}
