/* rw_from_be.c - big-endian bytes to GMP limbs (signatures and hashes are
 * read this way on every verification): the kernel table "rw-from-be" with
 * its scalar twin and an AVX2 row, and rw_from_be on the picked row. */
#include <string.h>
#include "cpu.h"
#include "kernel_cost.h"
#include "rw/rw_internal.h"

/* Limbs from .. full of the whole limbs that end at end (limb i from the 8
 * bytes before end - 8 i), byte-swapped one at a time. */
static void from_be_scalar(mp_limb_t *r, size_t from, size_t full, const uint8_t *end)
{
    for (size_t i = from; i < full; i++) {
        uint64_t w;
        memcpy(&w, end - 8 * (i + 1), 8);
        r[i] = __builtin_bswap64(w);
    }
}

/* The "portable" row (the twin). */
static void from_be_portable(mp_limb_t *r, size_t full, const uint8_t *end)
{
    from_be_scalar(r, 0, full, end);
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
#include <immintrin.h>
/* The "avx2" row: 32 bytes reversed per step (bytes within each 16-byte
 * half, then the halves swapped), the last limbs one at a time. */
__attribute__((target("avx2"))) static void from_be_avx2(mp_limb_t *r, size_t full,
                                                        const uint8_t *end)
{
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    size_t i = 0;
    for (; i + 4 <= full; i += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(end - 8 * (i + 4)));
        v = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, rev), 0x4e);
        _mm256_storeu_si256((__m256i *)(r + i), v);
    }
    from_be_scalar(r, i, full, end);
}
#endif

/* The calibration's trial: 512 limbs (a 4 KiB number). */
static void from_be_trial(const fs_kernel *k)
{
    static const uint8_t data[4096];
    mp_limb_t r[512];
    rw_from_be_of(k)(r, 512, data + sizeof(data));
    __asm__ volatile("" : : "r"(r) : "memory"); /* the result counts */
}

static const fs_kernel from_be_rows[] = {
    { "portable", FS_KERNEL_FN(from_be_portable), NULL, 1, 0, 0, 4 },
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "avx2", FS_KERNEL_FN(from_be_avx2), NULL, 1, FS_CPU_AVX2, 0, 1 },
#endif
    FS_KERNEL_END,
};

FS_KERNEL_TABLE(rw_from_be_table, "rw-from-be", from_be_rows, from_be_trial);

void rw_from_be_with(const fs_kernel *row, mp_limb_t *r, size_t nl, const uint8_t *in,
                     size_t blen)
{
    size_t full = blen / 8 < nl ? blen / 8 : nl, i = full;
    rw_from_be_of(row)(r, full, in + blen);
    if (i < nl) {
        mp_limb_t top = 0;
        for (size_t b = 0; b < blen - 8 * i; b++)
            top = top << 8 | in[b];
        r[i++] = top;
    }
    for (; i < nl; i++)
        r[i] = 0;
}

void rw_from_be(mp_limb_t *r, size_t nl, const uint8_t *in, size_t blen)
{
    rw_from_be_with(fs_kernel_default(&rw_from_be_table), r, nl, in, blen);
}
