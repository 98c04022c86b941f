/* tz_kernel.c - the TZ kernel table and its dispatch (cpu.c's picker). */
#include "tz_kernel.h"
#include "tz_clmul.h"

typedef void (*segments_fn)(gf127 st[16], const uint8_t *data, size_t rounds, size_t stride);
typedef void (*sl2_mul_fn)(sl2 *r, const sl2 *a, const sl2 *b);

typedef struct {
    segments_fn segments; /* four streams */
    sl2_mul_fn mul;       /* joins them */
    tz_mul_bytes_fn blocks; /* one stream, multiples of 32 bytes */
    tz_mul_bytes_fn bytes;  /* one stream, any length */
} lanes_ops;

/* Four lanes: lane 0 continues from the state, lanes 1..3 start from the
 * identity on the next three quarters; state = L0 * L1 * L2 * L3. Shorter
 * inputs go through the one-stream block kernel; the remainder (< 32
 * bytes) through the byte kernel. */
static void lanes_mul_bytes(const lanes_ops *ops, sl2 *state, const uint8_t *data, size_t len)
{
    if (len >= TZ_LANES_MIN) {
        size_t rounds = len / 32, stride = 8 * rounds;
        gf127 st[16];
        sl2 lane[4];
        for (int l = 0; l < 4; l++)
            sl2_identity(&lane[l]);
        lane[0] = *state;
        for (int e = 0; e < 4; e++)
            for (int l = 0; l < 4; l++)
                st[4 * e + l] = lane[l].m[e];
        ops->segments(st, data, rounds, stride);
        for (int e = 0; e < 4; e++)
            for (int l = 0; l < 4; l++)
                lane[l].m[e] = tz_reduce_lazy(st[4 * e + l]);
        ops->mul(&lane[0], &lane[0], &lane[1]);
        ops->mul(&lane[2], &lane[2], &lane[3]);
        ops->mul(state, &lane[0], &lane[2]);
        data += 4 * stride;
        len -= 4 * stride;
    } else if (len >= 32) {
        size_t n = len & ~(size_t)31;
        ops->blocks(state, data, n);
        data += n;
        len -= n;
    }
    if (len)
        ops->bytes(state, data, len);
}

/* The lane structure on the C twins: tests the split/join without asm. */
static void twin_lanes_mul_bytes(sl2 *state, const uint8_t *data, size_t len)
{
    static const lanes_ops ops = { tz_twin_segments, sl2_mul, tz_twin_mul_bytes,
                                   tz_twin_mul_bytes };
    lanes_mul_bytes(&ops, state, data, len);
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
/* VPCLMULQDQ implies PCLMULQDQ on every CPU that has it, so the one-stream
 * remainder and the joins use the SSE kernel whatever FASTSIG_CPU says. */
static void vpclmul_blocks(sl2 *state, const uint8_t *data, size_t len)
{
    tz_vpclmul_mul_blocks(state, data, len / 32);
}

static void avx512_mul_bytes(sl2 *state, const uint8_t *data, size_t len)
{
    static const lanes_ops ops = { tz_vpclmul_segments, tz_pclmul_sl2_mul, vpclmul_blocks,
                                   tz_pclmul_mul_bytes };
    lanes_mul_bytes(&ops, state, data, len);
}
#endif

static const fs_kernel kernels[] = {
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "avx512", FS_KERNEL_FN(avx512_mul_bytes), NULL, 1, FS_CPU_AVX512 | FS_CPU_VPCLMUL, 0, 3 },
    { "pclmul", FS_KERNEL_FN(tz_pclmul_mul_bytes), NULL, 1, FS_CPU_PCLMUL, 0, 10 },
#endif
    { "portable", FS_KERNEL_FN(sl2_mul_bytes_portable), NULL, 1, 0, 0, 100 },
    { "twin-lanes", FS_KERNEL_FN(twin_lanes_mul_bytes), NULL, 1, 0, FS_KERNEL_TWIN, 1000 },
    { "twin", FS_KERNEL_FN(tz_twin_mul_bytes), NULL, 1, 0, FS_KERNEL_TWIN, 1000 },
    FS_KERNEL_END,
};

/* The calibration's trial: 2 KiB, past TZ_LANES_MIN (four lanes where a
 * kernel has them). */
static void tz_trial(const fs_kernel *k)
{
    static const uint8_t data[2 * TZ_LANES_MIN];
    sl2 st;
    sl2_identity(&st);
    tz_kernel_fn(k)(&st, data, sizeof(data));
    __asm__ volatile("" : : "r"(&st) : "memory"); /* the result counts */
}

FS_KERNEL_TABLE(tz_kernel_table, "tz", kernels, tz_trial);

const fs_kernel *tz_kernel_list(void)
{
    return kernels;
}

const fs_kernel *tz_kernel_for(unsigned features)
{
    return fs_kernel_choose(&tz_kernel_table, features, 0, 1);
}

static const fs_kernel *chosen(void)
{
    return fs_kernel_default(&tz_kernel_table);
}

void tz_mul_bytes(sl2 *state, const uint8_t *data, size_t len)
{
    tz_kernel_fn(chosen())(state, data, len);
}

const char *tz_kernel_name(void)
{
    return chosen()->name;
}
