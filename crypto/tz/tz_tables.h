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

/* Byte-pair tables of the 8-byte rounds (see tz_clmul.h): with
 * row_i = m_i0<<17 | m_i1 and col_j = m_0j | m_1j<<17 of M(v),
 *   a[v] = row0 | row1<<34,   b[v] = { col0 | col0<<34, col1 | col1<<34 }
 * so clmul(a[x], b[y][j]) holds (M(x)M(y))_0j at bits 17..33 and
 * (M(x)M(y))_1j at bits 85..101: one multiply per column of a product.
 * a has 8-byte entries (scaled-index loads in asm), b follows at +2048. */
typedef struct {
    uint64_t a[256];
    uint64_t b[256][2];
} tz_pair_tables;
extern const tz_pair_tables tz_tab_pair;

#endif
