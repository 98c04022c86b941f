/* namefmt.h - parameter-set names ("LMS_SHA256_M32_H10") written without
 * snprintf, so the parameter tables build freestanding (libfastsig-verify).
 * fs_name_eq compares them (the tables' lookups by name).
 * Each fs_name_str / fs_name_uint call appends to buf (size cap, always NUL-terminated, truncating)
 * at *at and advances *at. */
#ifndef FASTSIG_NAMEFMT_H
#define FASTSIG_NAMEFMT_H

#include <stddef.h>

static inline void fs_name_str(char *buf, size_t cap, size_t *at, const char *s)
{
    while (*s && *at + 1 < cap)
        buf[(*at)++] = *s++;
    buf[*at < cap ? *at : cap - 1] = 0;
}

static inline void fs_name_uint(char *buf, size_t cap, size_t *at, unsigned v)
{
    char digits[12];
    size_t k = 0;
    do
        digits[k++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (k > 0 && *at + 1 < cap)
        buf[(*at)++] = digits[--k];
    buf[*at < cap ? *at : cap - 1] = 0;
}

/* 1 when the names are equal (strcmp(a, b) == 0). */
static inline int fs_name_eq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

#endif
