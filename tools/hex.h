/* hex.h - hexadecimal text to bytes, shared by the tools and the tests. */
#ifndef FASTSIG_HEX_H
#define FASTSIG_HEX_H

#include <stddef.h>
#include <stdint.h>

/* The value of one hex digit (either case), or -1. */
int fs_hex_digit(int c);
/* The first 2*len characters of hex -> len bytes (what follows them does
 * not matter); 0, or -1 at a character that is not a hex digit. */
int fs_hex_bytes(const char *hex, uint8_t *out, size_t len);
/* Hex string (exactly 2*len digits, case-insensitive) -> bytes; 0 on success. */
int fs_unhex(const char *hex, uint8_t *out, size_t len);

#endif
