/* port_probe_asm.c - the probes of port_probe.c: unrolled loops of one
 * instruction (or two mixed), inline asm. Throughput probes run 12
 * independent chains (registers 1..12, sources 14 and 15, xmm0 the implicit
 * operand of sha256rnds2), enough to keep 4 pipes busy at a latency of 3;
 * latency probes run one chain. Each iteration is 4 copies of the body. */
#include <stddef.h>
#include "port_probe_asm.h"

#if defined(__x86_64__) && defined(FASTSIG_HAVE_ASM)
#include "cpu.h"

#define CLOBBER_V                                                                              \
    "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",    \
        "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "r8", "r9", "r10", "r11"
/* A probe function: n iterations of 4 bodies; vzeroupper after vector code. */
#define PROBE(fn, body, tail)                                                                  \
    static void fn(long n, void *buf)                                                          \
    {                                                                                          \
        __asm__ volatile("1:\n\t" body body body body "dec %0\n\tjnz 1b\n\t" tail              \
                         : "+r"(n)                                                             \
                         : "r"(buf)                                                            \
                         : CLOBBER_V, "rsi", "rdi");                                           \
    }
#define VZ "vzeroupper\n\t"
#define EACH(regs, insn) ".irp r," regs "\n\t" insn "\n\t.endr\n\t"
#define R12 "1,2,3,4,5,6,7,8,9,10,11,12"
#define RLAT "1,1,1,1,1,1,1,1,1,1,1,1"
#define RA6 "1,2,3,4,5,6"
#define RB6 "7,8,9,10,11,12"
#define RA9 "1,2,3,4,5,6,7,8,9"
#define RB3 "10,11,12"

/* One instruction of each class and width; \r is the chain's register. */
#define I_VALU_X "paddd %%xmm15, %%xmm\\r"
#define I_VALU_Y "vpaddd %%ymm15, %%ymm\\r, %%ymm\\r"
#define I_VALU_Z "vpaddd %%zmm15, %%zmm\\r, %%zmm\\r"
#define I_VTERN_X "vpternlogd $0x96, %%xmm15, %%xmm14, %%xmm\\r"
#define I_VTERN_Y "vpternlogd $0x96, %%ymm15, %%ymm14, %%ymm\\r"
#define I_VTERN_Z "vpternlogd $0x96, %%zmm15, %%zmm14, %%zmm\\r"
#define I_VROT_X "vprord $7, %%xmm\\r, %%xmm\\r"
#define I_VROT_Y "vprord $7, %%ymm\\r, %%ymm\\r"
#define I_VROT_Z "vprord $7, %%zmm\\r, %%zmm\\r"
#define I_VSHIFT_X "psrld $7, %%xmm\\r"
#define I_VSHIFT_Y "vpsrld $7, %%ymm\\r, %%ymm\\r"
#define I_VSHIFT_Z "vpsrld $7, %%zmm\\r, %%zmm\\r"
#define I_VSHUF_X "pshufb %%xmm15, %%xmm\\r"
#define I_VSHUF_Y "vpshufb %%ymm15, %%ymm\\r, %%ymm\\r"
#define I_VSHUF_Z "vpshufb %%zmm15, %%zmm\\r, %%zmm\\r"
#define I_VPERM_Z "vpermq %%zmm15, %%zmm14, %%zmm\\r"
#define I_VPERM_Y "vpermq $0x1b, %%ymm\\r, %%ymm\\r"
#define I_VMOV_X "movdqa %%xmm15, %%xmm\\r"
#define I_VMOV_Y "vmovdqa %%ymm15, %%ymm\\r"
#define I_VMOV_Z "vmovdqa64 %%zmm15, %%zmm\\r"
#define I_RNDS "sha256rnds2 %%xmm0, %%xmm15, %%xmm\\r"
#define I_MSG1 "sha256msg1 %%xmm15, %%xmm\\r"
#define I_MSG2 "sha256msg2 %%xmm15, %%xmm\\r"
#define I_LOAD_X "movdqu 16*\\r(%1), %%xmm\\r"
#define I_LOAD_Z "vmovdqu64 64*\\r(%1), %%zmm\\r"
#define I_STORE_X "movdqu %%xmm\\r, 16*\\r(%1)"
#define I_ADD "add $1, %%\\r"
#define GPR6 "r8,r9,r10,r11,rsi,rdi"
/* Register moves chain through a pair: each waits for the one before. */
#define MOV_CHAIN(a, b) ".rept 6\n\t" a "\n\t" b "\n\t.endr\n\t"

/* Legacy SSE probes end without vzeroupper: a CPU with SHA-NI may lack AVX. */
#define TP_LAT(cls, w, tail)                                                                   \
    PROBE(tp_##cls##_##w, EACH(R12, I_##cls##_##w), tail)                                       \
    PROBE(lat_##cls##_##w, EACH(RLAT, I_##cls##_##w), tail)
TP_LAT(VALU, X, "")
TP_LAT(VALU, Y, VZ)
TP_LAT(VALU, Z, VZ)
TP_LAT(VTERN, X, VZ)
TP_LAT(VTERN, Y, VZ)
TP_LAT(VTERN, Z, VZ)
TP_LAT(VROT, X, VZ)
TP_LAT(VROT, Y, VZ)
TP_LAT(VROT, Z, VZ)
TP_LAT(VSHIFT, X, "")
TP_LAT(VSHIFT, Y, VZ)
TP_LAT(VSHIFT, Z, VZ)
TP_LAT(VSHUF, X, "")
TP_LAT(VSHUF, Y, VZ)
TP_LAT(VSHUF, Z, VZ)
PROBE(tp_VMOV_X, EACH(R12, I_VMOV_X), "")
PROBE(tp_VMOV_Y, EACH(R12, I_VMOV_Y), VZ)
PROBE(tp_VMOV_Z, EACH(R12, I_VMOV_Z), VZ)
PROBE(lat_VMOV_X, MOV_CHAIN("movdqa %%xmm1, %%xmm2", "movdqa %%xmm2, %%xmm1"), "")
PROBE(lat_VMOV_Y, MOV_CHAIN("vmovdqa %%ymm1, %%ymm2", "vmovdqa %%ymm2, %%ymm1"), VZ)
PROBE(lat_VMOV_Z, MOV_CHAIN("vmovdqa64 %%zmm1, %%zmm2", "vmovdqa64 %%zmm2, %%zmm1"), VZ)
PROBE(tp_RNDS, EACH(R12, I_RNDS), "")
PROBE(lat_RNDS, EACH(RLAT, I_RNDS), "")
PROBE(tp_MSG, EACH(RA6, I_MSG1) EACH(RB6, I_MSG2), "")
PROBE(lat_MSG, EACH(RLAT, I_MSG1), "")
PROBE(tp_LOAD, EACH(R12, I_LOAD_X), "")
PROBE(tp_LOAD_Z, EACH(R12, I_LOAD_Z), VZ)
PROBE(tp_STORE, EACH(R12, I_STORE_X), "")
PROBE(tp_PERM_Z, EACH(R12, I_VPERM_Z), VZ)
PROBE(tp_PERM_Y, EACH(R12, I_VPERM_Y), VZ)
PROBE(tp_SCALAR, EACH(GPR6 "," GPR6, I_ADD), "")
/* Register adds: an add of an immediate may be folded at rename on some
 * cores, which would read as a faster clock. */
PROBE(clock_chain, ".rept 12\n\tadd %%r9, %%r8\n\t.endr\n\t", "")
/* 4 + 4: neither side's own pipes limit it below 8 a cycle. */
PROBE(fe_Z, EACH("1,2,3,4", I_VALU_Z) EACH("r8,r9,r10,r11", I_ADD), VZ)
PROBE(fe_Y, EACH("1,2,3,4", I_VALU_Y) EACH("r8,r9,r10,r11", I_ADD), VZ)
PROBE(pair_add_rot, EACH(RA9, I_VALU_Z) EACH(RB3, I_VROT_Z), VZ)
PROBE(pair_add_tern, EACH(RA6, I_VALU_Z) EACH(RB6, I_VTERN_Z), VZ)
PROBE(pair_rot_tern, EACH(RA6, I_VROT_Z) EACH(RB6, I_VTERN_Z), VZ)
PROBE(pair_rot_shift, EACH(RA6, I_VROT_Z) EACH(RB6, I_VSHIFT_Z), VZ)
PROBE(pair_rot_shuf, EACH(RA6, I_VROT_Z) EACH(RB6, I_VSHUF_Z), VZ)
PROBE(pair_add_mov, EACH(RA6, I_VALU_Z) EACH(RB6, I_VMOV_Z), VZ)
PROBE(pair_tern_mov, EACH(RA6, I_VTERN_Z) EACH(RB6, I_VMOV_Z), VZ)
PROBE(pair_addy_shifty, EACH(RA9, I_VALU_Y) EACH(RB3, I_VSHIFT_Y), VZ)
PROBE(pair_addx_rotx, EACH(RA6, I_VALU_X) EACH(RB6, I_VROT_X), VZ)
PROBE(pair_rnds_msg, EACH(RA6, I_RNDS) EACH(RB6, I_MSG1), "")
PROBE(pair_rnds_shuf, EACH(RA6, I_RNDS) EACH(RB6, I_VSHUF_X), "")
PROBE(pair_rnds_add, EACH(RA6, I_RNDS) EACH(RB6, I_VALU_X), "")

enum { Z = FS_CPU_AVX512, Y = FS_CPU_AVX2, S = FS_CPU_SHANI };
#define ROW(kind, fn, cpu, ops, a, na, b, nb) { kind, #fn, fn, cpu, ops, a, na, b, nb }
#define CLS(c, cpu_x, cpu_y, cpu_z)                                                         \
    ROW(PROBE_TP, tp_##c##_X, cpu_x, 48, MIX_##c##_X, 0, -1, 0),                               \
    ROW(PROBE_TP, tp_##c##_Y, cpu_y, 48, MIX_##c##_Y, 0, -1, 0),                               \
    ROW(PROBE_TP, tp_##c##_Z, cpu_z, 48, MIX_##c##_Z, 0, -1, 0),                               \
    ROW(PROBE_LAT, lat_##c##_X, cpu_x, 48, MIX_##c##_X, 0, -1, 0),                             \
    ROW(PROBE_LAT, lat_##c##_Y, cpu_y, 48, MIX_##c##_Y, 0, -1, 0),                             \
    ROW(PROBE_LAT, lat_##c##_Z, cpu_z, 48, MIX_##c##_Z, 0, -1, 0)

const bench_probe bench_probes[] = {
    ROW(PROBE_CLOCK, clock_chain, 0, 48, -1, 0, -1, 0),
    CLS(VALU, 0, Y, Z),
    CLS(VTERN, Z, Z, Z),
    CLS(VROT, Z, Z, Z),
    CLS(VSHIFT, 0, Y, Z),
    CLS(VSHUF, 0, Y, Z),
    CLS(VMOV, 0, Y, Z),
    ROW(PROBE_TP, tp_RNDS, S, 48, MIX_SHA_RNDS, 0, -1, 0),
    ROW(PROBE_LAT, lat_RNDS, S, 48, MIX_SHA_RNDS, 0, -1, 0),
    ROW(PROBE_TP, tp_MSG, S, 48, MIX_SHA_MSG, 0, -1, 0),
    ROW(PROBE_LAT, lat_MSG, S, 48, MIX_SHA_MSG, 0, -1, 0),
    ROW(PROBE_TP, tp_LOAD, 0, 48, MIX_LOAD, 0, -1, 0),
    ROW(PROBE_TP, tp_STORE, 0, 48, MIX_STORE, 0, -1, 0),
    ROW(PROBE_TP, tp_SCALAR, 0, 48, MIX_SCALAR, 0, -1, 0),
    ROW(PROBE_INFO, tp_LOAD_Z, Z, 48, -1, 0, -1, 0),
    ROW(PROBE_INFO, tp_PERM_Z, Z, 48, -1, 0, -1, 0),
    ROW(PROBE_INFO, tp_PERM_Y, Y, 48, -1, 0, -1, 0),
    ROW(PROBE_FE, fe_Z, Z, 32, -1, 0, -1, 0),
    ROW(PROBE_FE, fe_Y, Y, 32, -1, 0, -1, 0),
    ROW(PROBE_PAIR, pair_add_rot, Z, 48, MIX_VALU_Z, 9, MIX_VROT_Z, 3),
    ROW(PROBE_PAIR, pair_add_tern, Z, 48, MIX_VALU_Z, 6, MIX_VTERN_Z, 6),
    ROW(PROBE_PAIR, pair_rot_tern, Z, 48, MIX_VROT_Z, 6, MIX_VTERN_Z, 6),
    ROW(PROBE_PAIR, pair_rot_shift, Z, 48, MIX_VROT_Z, 6, MIX_VSHIFT_Z, 6),
    ROW(PROBE_PAIR, pair_rot_shuf, Z, 48, MIX_VROT_Z, 6, MIX_VSHUF_Z, 6),
    ROW(PROBE_PAIR, pair_add_mov, Z, 48, MIX_VALU_Z, 6, MIX_VMOV_Z, 6),
    ROW(PROBE_PAIR, pair_tern_mov, Z, 48, MIX_VTERN_Z, 6, MIX_VMOV_Z, 6),
    ROW(PROBE_PAIR, pair_addy_shifty, Y, 48, MIX_VALU_Y, 9, MIX_VSHIFT_Y, 3),
    ROW(PROBE_PAIR, pair_addx_rotx, Z, 48, MIX_VALU_X, 6, MIX_VROT_X, 6),
    ROW(PROBE_PAIR, pair_rnds_msg, S, 48, MIX_SHA_RNDS, 6, MIX_SHA_MSG, 6),
    ROW(PROBE_PAIR, pair_rnds_shuf, S, 48, MIX_SHA_RNDS, 6, MIX_VSHUF_X, 6),
    ROW(PROBE_PAIR, pair_rnds_add, S, 48, MIX_SHA_RNDS, 6, MIX_VALU_X, 6),
    { PROBE_END, NULL, NULL, 0, 0, -1, 0, -1, 0 },
};
#else
const bench_probe bench_probes[] = { { PROBE_END, NULL, NULL, 0, 0, -1, 0, -1, 0 } };
#endif
