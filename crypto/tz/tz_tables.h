/* tz_tables.h - byte matrices for the table-driven TZ kernels.
 *
 * M(v), the TZ matrix of byte v, has entries of degree <= 8 in GF(2)[x]
 * (no reduction needed). The kernels multiply such matrices with one
 * carry-less multiply per entry by packing two entries into one word:
 *   left  (row-packed):    tz_tab_left[v]  = { m00<<33 | m01, m10<<33 | m11 }
 *   right (column-packed): tz_tab_right[v] = { m00 | m10<<33, m01 | m11<<33 }
 * so that clmul(left[a][i], right[b][j]) holds (M(a)M(b))_ij at bits 33..49.
 * Entries are 16 bytes, aligned, for direct 128-bit loads. TZ input is public,
 * so indexing tables by message bytes leaks nothing secret. */
#ifndef FASTSIG_TZ_TABLES_H
#define FASTSIG_TZ_TABLES_H

#include <stdint.h>

#define TZ_PACK_SHIFT 33
#define TZ_PACK_MASK ((1ULL << TZ_PACK_SHIFT) - 1)

/* tz_tab[0] is left, tz_tab[1] right: one base register serves both in asm
 * (right = left + 4096). */
extern const uint64_t tz_tab[2][256][2];
#define tz_tab_left (tz_tab[0])
#define tz_tab_right (tz_tab[1])

#endif
