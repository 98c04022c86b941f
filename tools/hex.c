/* hex.c - see hex.h. */
#include <string.h>
#include "hex.h"

int fs_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int fs_hex_bytes(const char *hex, uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        int h = fs_hex_digit((unsigned char)hex[2 * i]), l;
        if (h < 0 || (l = fs_hex_digit((unsigned char)hex[2 * i + 1])) < 0)
            return -1;
        out[i] = (uint8_t)(h << 4 | l);
    }
    return 0;
}

int fs_unhex(const char *hex, uint8_t *out, size_t len)
{
    return strlen(hex) == 2 * len ? fs_hex_bytes(hex, out, len) : -1;
}
