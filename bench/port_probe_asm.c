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
/* After registers 16..31: zeroed too (vzeroupper leaves them), so that no
 * probe leaves vector state behind for the kernels timed next. */
#define VZ16                                                                                   \
    ".irp r,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n\t"                             \
    "vpxord %%xmm\\r, %%xmm\\r, %%xmm\\r\n\t.endr\n\t" VZ
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
#define I_STORE_Z "vmovdqu64 %%zmm\\r, 64*\\r(%1)"
#define I_ADD "add $1, %%\\r"
#define GPR6 "r8,r9,r10,r11,rsi,rdi"
/* A chain through a pair of registers: each waits for the one before. */
#define MOV_CHAIN(a, b) ".rept 6\n\t" a "\n\t" b "\n\t.endr\n\t"

/* Legacy SSE probes end without vzeroupper: a CPU with SHA-NI may lack AVX. */
#define TP_LAT(cls, w, tail)                                                                   \
    PROBE(tp_##cls##_##w, EACH(R12, I_##cls##_##w), tail)                                       \
    PROBE(lat_##cls##_##w, EACH(RLAT, I_##cls##_##w), tail)
TP_LAT(VALU, X, "")
TP_LAT(VALU, Y, VZ)
TP_LAT(VALU, Z, VZ)
/* Ternlog's rate depends on where its results go: on Zen 5 a ternlog whose
 * result another ternlog reads through an operand other than its destination
 * (class VTERNX) runs at 2 a cycle, the rest at 4 like the constant-fed
 * chains above, also when their own non-destination operands are fresh
 * results (tp_VTERN_Z_half: half of them cross-fed, 4 a cycle in all). The
 * VTERNX probes, and the pairs with it, run two banks of 12 registers
 * (1..12, 16..27), each instruction taking the other bank's last result:
 * 24 independent instructions a pass, each pass waiting for the one before.
 * Registers 16..31 are outside what this file's compiler (no -mavx512f)
 * allocates, and every vector register is caller-saved. */
#define HOT_TERN(w, s, d) "vpternlogd $0x96, %%" w #s ", %%" w "31, %%" w #d "\n\t"
#define HOT_ROT(w, s, d) "vprord $7, %%" w #s ", %%" w #d "\n\t"
#define HOT_ADD(w, s, d) "vpaddd %%" w #s ", %%" w "31, %%" w #d "\n\t"
#define HOT_MOV(w, s, d) "vmovdqa64 %%" w #s ", %%" w #d "\n\t"
/* bank 1..12 takes bank 16..27's fresh results, which take only constants */
#define HALF_TERN(w) \
    HOT_TERN(w, 16, 1) HOT_TERN(w, 30, 16) HOT_TERN(w, 17, 2) HOT_TERN(w, 30, 17) HOT_TERN(w, 18, 3) HOT_TERN(w, 30, 18) HOT_TERN(w, 19, 4) HOT_TERN(w, 30, 19) HOT_TERN(w, 20, 5) HOT_TERN(w, 30, 20) HOT_TERN(w, 21, 6) HOT_TERN(w, 30, 21) \
    HOT_TERN(w, 22, 7) HOT_TERN(w, 30, 22) HOT_TERN(w, 23, 8) HOT_TERN(w, 30, 23) HOT_TERN(w, 24, 9) HOT_TERN(w, 30, 24) HOT_TERN(w, 25, 10) HOT_TERN(w, 30, 25) HOT_TERN(w, 26, 11) HOT_TERN(w, 30, 26) HOT_TERN(w, 27, 12) HOT_TERN(w, 30, 27)
#define HOT_TERN_PASSES(w) \
    HOT_TERN(w, 16, 1) HOT_TERN(w, 17, 2) HOT_TERN(w, 18, 3) HOT_TERN(w, 19, 4) HOT_TERN(w, 20, 5) HOT_TERN(w, 21, 6) HOT_TERN(w, 22, 7) HOT_TERN(w, 23, 8) HOT_TERN(w, 24, 9) HOT_TERN(w, 25, 10) HOT_TERN(w, 26, 11) HOT_TERN(w, 27, 12) \
    HOT_TERN(w, 1, 16) HOT_TERN(w, 2, 17) HOT_TERN(w, 3, 18) HOT_TERN(w, 4, 19) HOT_TERN(w, 5, 20) HOT_TERN(w, 6, 21) HOT_TERN(w, 7, 22) HOT_TERN(w, 8, 23) HOT_TERN(w, 9, 24) HOT_TERN(w, 10, 25) HOT_TERN(w, 11, 26) HOT_TERN(w, 12, 27)
#define HOT_ADD_TERN(w) \
    HOT_ADD(w, 16, 1) HOT_TERN(w, 17, 2) HOT_ADD(w, 18, 3) HOT_TERN(w, 19, 4) HOT_ADD(w, 20, 5) HOT_TERN(w, 21, 6) HOT_ADD(w, 22, 7) HOT_TERN(w, 23, 8) HOT_ADD(w, 24, 9) HOT_TERN(w, 25, 10) HOT_ADD(w, 26, 11) HOT_TERN(w, 27, 12) \
    HOT_ADD(w, 1, 16) HOT_TERN(w, 2, 17) HOT_ADD(w, 3, 18) HOT_TERN(w, 4, 19) HOT_ADD(w, 5, 20) HOT_TERN(w, 6, 21) HOT_ADD(w, 7, 22) HOT_TERN(w, 8, 23) HOT_ADD(w, 9, 24) HOT_TERN(w, 10, 25) HOT_ADD(w, 11, 26) HOT_TERN(w, 12, 27)
#define HOT_ROT_TERN(w) \
    HOT_ROT(w, 16, 1) HOT_TERN(w, 17, 2) HOT_ROT(w, 18, 3) HOT_TERN(w, 19, 4) HOT_ROT(w, 20, 5) HOT_TERN(w, 21, 6) HOT_ROT(w, 22, 7) HOT_TERN(w, 23, 8) HOT_ROT(w, 24, 9) HOT_TERN(w, 25, 10) HOT_ROT(w, 26, 11) HOT_TERN(w, 27, 12) \
    HOT_ROT(w, 1, 16) HOT_TERN(w, 2, 17) HOT_ROT(w, 3, 18) HOT_TERN(w, 4, 19) HOT_ROT(w, 5, 20) HOT_TERN(w, 6, 21) HOT_ROT(w, 7, 22) HOT_TERN(w, 8, 23) HOT_ROT(w, 9, 24) HOT_TERN(w, 10, 25) HOT_ROT(w, 11, 26) HOT_TERN(w, 12, 27)
#define HOT_TERN_MOV(w) \
    HOT_TERN(w, 16, 1) HOT_MOV(w, 17, 2) HOT_TERN(w, 18, 3) HOT_MOV(w, 19, 4) HOT_TERN(w, 20, 5) HOT_MOV(w, 21, 6) HOT_TERN(w, 22, 7) HOT_MOV(w, 23, 8) HOT_TERN(w, 24, 9) HOT_MOV(w, 25, 10) HOT_TERN(w, 26, 11) HOT_MOV(w, 27, 12) \
    HOT_TERN(w, 1, 16) HOT_MOV(w, 2, 17) HOT_TERN(w, 3, 18) HOT_MOV(w, 4, 19) HOT_TERN(w, 5, 20) HOT_MOV(w, 6, 21) HOT_TERN(w, 7, 22) HOT_MOV(w, 8, 23) HOT_TERN(w, 9, 24) HOT_MOV(w, 10, 25) HOT_TERN(w, 11, 26) HOT_MOV(w, 12, 27)
PROBE(tp_VTERN_X, HOT_TERN_PASSES("xmm"),VZ16)
PROBE(tp_VTERN_Y, HOT_TERN_PASSES("ymm"),VZ16)
PROBE(tp_VTERN_Z, HOT_TERN_PASSES("zmm"),VZ16)
PROBE(lat_VTERN_X, EACH(RLAT, I_VTERN_X), VZ)
PROBE(lat_VTERN_Y, EACH(RLAT, I_VTERN_Y), VZ)
PROBE(lat_VTERN_Z, EACH(RLAT, I_VTERN_Z), VZ)
/* the rate of ternlogs read only through their destination */
PROBE(tp_VTERN_X_const, EACH(R12, I_VTERN_X), VZ)
PROBE(tp_VTERN_Y_const, EACH(R12, I_VTERN_Y), VZ)
PROBE(tp_VTERN_Z_const, EACH(R12, I_VTERN_Z), VZ)
PROBE(tp_VTERN_Z_half, HALF_TERN("zmm"), VZ16)
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
/* Ternlog's latency from an operand other than the destination. */
#define TERNS(w) MOV_CHAIN("vpternlogd $0x96, %%" w "1, %%" w "14, %%" w "2",                  \
                           "vpternlogd $0x96, %%" w "2, %%" w "14, %%" w "1")
/* ... and from a rotate's result (a bypass between the two pipes). */
#define TERNR(w) MOV_CHAIN("vprord $7, %%" w "1, %%" w "2",                                    \
                           "vpternlogd $0x96, %%" w "2, %%" w "14, %%" w "1")
PROBE(lat_VTERNR_X, TERNR("xmm"), VZ)
PROBE(lat_VTERNR_Y, TERNR("ymm"), VZ)
PROBE(lat_VTERNR_Z, TERNR("zmm"), VZ)
PROBE(lat_VTERNS_X, TERNS("xmm"), VZ)
PROBE(lat_VTERNS_Y, TERNS("ymm"), VZ)
PROBE(lat_VTERNS_Z, TERNS("zmm"), VZ)
PROBE(tp_RNDS, EACH(R12, I_RNDS), "")
PROBE(lat_RNDS, EACH(RLAT, I_RNDS), "")
PROBE(tp_MSG, EACH(RA6, I_MSG1) EACH(RB6, I_MSG2), "")
PROBE(lat_MSG, EACH(RLAT, I_MSG1), "")
PROBE(tp_LOAD, EACH(R12, I_LOAD_X), "")
PROBE(tp_LOAD_Z, EACH(R12, I_LOAD_Z), VZ)
PROBE(tp_STORE, EACH(R12, I_STORE_X), "")
PROBE(tp_STORE_Z, EACH(R12, I_STORE_Z), VZ)
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
PROBE(pair_add_tern, HOT_ADD_TERN("zmm"),VZ16)
PROBE(pair_rot_tern, HOT_ROT_TERN("zmm"),VZ16)
PROBE(pair_rot_shift, EACH(RA6, I_VROT_Z) EACH(RB6, I_VSHIFT_Z), VZ)
PROBE(pair_rot_shuf, EACH(RA6, I_VROT_Z) EACH(RB6, I_VSHUF_Z), VZ)
PROBE(pair_add_mov, EACH(RA6, I_VALU_Z) EACH(RB6, I_VMOV_Z), VZ)
PROBE(pair_tern_mov, HOT_TERN_MOV("zmm"),VZ16)
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
    ROW(PROBE_TP, tp_VTERN_X, Z, 96, MIX_VTERNX_X, 0, -1, 0),
    ROW(PROBE_TP, tp_VTERN_Y, Z, 96, MIX_VTERNX_Y, 0, -1, 0),
    ROW(PROBE_TP, tp_VTERN_Z, Z, 96, MIX_VTERNX_Z, 0, -1, 0),
    ROW(PROBE_TP, tp_VTERN_X_const, Z, 48, MIX_VTERN_X, 0, -1, 0),
    ROW(PROBE_TP, tp_VTERN_Y_const, Z, 48, MIX_VTERN_Y, 0, -1, 0),
    ROW(PROBE_TP, tp_VTERN_Z_const, Z, 48, MIX_VTERN_Z, 0, -1, 0),
    ROW(PROBE_LAT, lat_VTERN_X, Z, 48, MIX_VTERN_X, 0, -1, 0),
    ROW(PROBE_LAT, lat_VTERN_Y, Z, 48, MIX_VTERN_Y, 0, -1, 0),
    ROW(PROBE_LAT, lat_VTERN_Z, Z, 48, MIX_VTERN_Z, 0, -1, 0),
    ROW(PROBE_INFO, tp_VTERN_Z_half, Z, 96, -1, 0, -1, 0),
    CLS(VROT, Z, Z, Z),
    CLS(VSHIFT, 0, Y, Z),
    CLS(VSHUF, 0, Y, Z),
    CLS(VMOV, 0, Y, Z),
    ROW(PROBE_LAT_AFTER, lat_VTERNR_X, Z, 48, MIX_VTERNR_X, 0, MIX_VROT_X, 0),
    ROW(PROBE_LAT_AFTER, lat_VTERNR_Y, Z, 48, MIX_VTERNR_Y, 0, MIX_VROT_Y, 0),
    ROW(PROBE_LAT_AFTER, lat_VTERNR_Z, Z, 48, MIX_VTERNR_Z, 0, MIX_VROT_Z, 0),
    ROW(PROBE_LAT, lat_VTERNS_X, Z, 48, MIX_VTERNS_X, 0, -1, 0),
    ROW(PROBE_LAT, lat_VTERNS_Y, Z, 48, MIX_VTERNS_Y, 0, -1, 0),
    ROW(PROBE_LAT, lat_VTERNS_Z, Z, 48, MIX_VTERNS_Z, 0, -1, 0),
    ROW(PROBE_TP, tp_RNDS, S, 48, MIX_SHA_RNDS, 0, -1, 0),
    ROW(PROBE_LAT, lat_RNDS, S, 48, MIX_SHA_RNDS, 0, -1, 0),
    ROW(PROBE_TP, tp_MSG, S, 48, MIX_SHA_MSG, 0, -1, 0),
    ROW(PROBE_LAT, lat_MSG, S, 48, MIX_SHA_MSG, 0, -1, 0),
    ROW(PROBE_TP, tp_LOAD, 0, 48, MIX_LOAD, 0, -1, 0),
    ROW(PROBE_TP, tp_STORE, 0, 48, MIX_STORE, 0, -1, 0),
    ROW(PROBE_TP, tp_STORE_Z, Z, 48, MIX_STORE_Z, 0, -1, 0),
    ROW(PROBE_TP, tp_SCALAR, 0, 48, MIX_SCALAR, 0, -1, 0),
    ROW(PROBE_INFO, tp_LOAD_Z, Z, 48, -1, 0, -1, 0),
    ROW(PROBE_INFO, tp_PERM_Z, Z, 48, -1, 0, -1, 0),
    ROW(PROBE_INFO, tp_PERM_Y, Y, 48, -1, 0, -1, 0),
    ROW(PROBE_FE, fe_Z, Z, 32, -1, 0, -1, 0),
    ROW(PROBE_FE, fe_Y, Y, 32, -1, 0, -1, 0),
    ROW(PROBE_PAIR, pair_add_rot, Z, 48, MIX_VALU_Z, 9, MIX_VROT_Z, 3),
    ROW(PROBE_PAIR, pair_add_tern, Z, 96, MIX_VALU_Z, 12, MIX_VTERNX_Z, 12),
    ROW(PROBE_PAIR, pair_rot_tern, Z, 96, MIX_VROT_Z, 12, MIX_VTERNX_Z, 12),
    ROW(PROBE_PAIR, pair_rot_shift, Z, 48, MIX_VROT_Z, 6, MIX_VSHIFT_Z, 6),
    ROW(PROBE_PAIR, pair_rot_shuf, Z, 48, MIX_VROT_Z, 6, MIX_VSHUF_Z, 6),
    ROW(PROBE_PAIR, pair_add_mov, Z, 48, MIX_VALU_Z, 6, MIX_VMOV_Z, 6),
    ROW(PROBE_PAIR, pair_tern_mov, Z, 96, MIX_VTERNX_Z, 12, MIX_VMOV_Z, 12),
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
