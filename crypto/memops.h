/* memops.h - wiping and overlapping moves without libc beyond memset: the
 * verification paths of the cores build freestanding (libfastsig-verify,
 * doc/design.md "The device verifier"), where only memcpy, memset and
 * memcmp may be called.
 *
 * fs_wipe is memset behind a compiler barrier that makes the zeroed bytes
 * observable, so the store is not dropped as dead (what explicit_bzero
 * promises). fs_move is memmove for the short node copies of the cores. */
#ifndef FASTSIG_MEMOPS_H
#define FASTSIG_MEMOPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void fs_wipe(void *p, size_t len)
{
    memset(p, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

static inline void fs_move(void *dst, const void *src, size_t len)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (d == s || len == 0)
        return;
    if (d < s || d >= s + len) {
        for (size_t i = 0; i < len; i++)
            d[i] = s[i];
    } else {
        for (size_t i = len; i-- > 0;)
            d[i] = s[i];
    }
}

#endif
