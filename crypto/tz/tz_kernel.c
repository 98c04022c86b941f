/* tz_kernel.c - the TZ kernel table and the dispatch through crypto/cpu.h. */
#include "tz_kernel.h"
#include "tz_clmul.h"
#include "cpu.h"

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

static const tz_kernel kernels[] = {
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "avx512", FS_CPU_AVX512 | FS_CPU_VPCLMUL, 0, avx512_mul_bytes },
    { "pclmul", FS_CPU_PCLMUL, 0, tz_pclmul_mul_bytes },
#endif
    { "portable", 0, 0, sl2_mul_bytes_portable },
    { "twin-lanes", 0, FS_KERNEL_TWIN, twin_lanes_mul_bytes },
    { "twin", 0, FS_KERNEL_TWIN, tz_twin_mul_bytes },
    { NULL, 0, 0, NULL },
};

const tz_kernel *tz_kernel_list(void)
{
    return kernels;
}

const tz_kernel *tz_kernel_for(unsigned features)
{
    const tz_kernel *k;
    for (k = kernels; k->name != NULL; k++)
        if (!(k->flags & FS_KERNEL_TWIN) && (k->cpu & features) == k->cpu)
            return k;
    return &kernels[0]; /* not reached: portable needs nothing */
}

static const tz_kernel *chosen(void)
{
    static const tz_kernel *cached;
    const tz_kernel *k = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
    if (k == NULL) {
        k = tz_kernel_for(fs_cpu_features());
        __atomic_store_n(&cached, k, __ATOMIC_RELEASE);
    }
    return k;
}

void tz_mul_bytes(sl2 *state, const uint8_t *data, size_t len)
{
    chosen()->fn(state, data, len);
}

const char *tz_kernel_name(void)
{
    return chosen()->name;
}
