/* sha256_x32_lms_chain_avx512.S - LM-OTS chain steps (RFC 8554 section
 * 4.4) of SHA-256 (n = 32) and SHA-256/192 (n = 24) for 32 chains at once:
 * two 16-lane groups, their compressions round by round side by side
 * (sha256_x16_pair.h). One x16 state's rounds are bound by the latency of
 * its e and a chains (sha256_x16_lms_chain_avx512.S, 88% of that bound);
 * the second, independent group fills the pipes the first leaves idle.
 *
 * C prototype (crypto/hash/sha256_chain.h, fs_chain_fn, a row of lanes 32):
 *   void fs_lms_chain_x32_avx512(uint32_t x[2 * 8 * 16],
 *                                uint32_t qij[2 * 7 * 16],
 *                                const uint32_t I[8], size_t steps, unsigned n);
 * Two x16 groups back to back: group g's chain words at x + 128*g, its
 * lane words at qij + 112*g, each laid out and stepped exactly as the x16
 * kernel's (word k of lane l at [k*16 + l]; qij[l] = q, qij[16 + l] =
 * i << 16 | j << 8, j advanced by one per step mod 256). One step, per lane:
 *   x = SHA-256(I || u32str(q) || u16str(i) || u8str(j) || x), first n bytes.
 * Per call, per group: rounds 0..4 (I and q only) once, their state kept,
 * the message rows 0..4, 14, 15 and the call's parts of W[16..19]. Per
 * step, per group: rows 5..13 rebuilt from the last digest with shifts
 * (as the x16 kernel), W[16..20] finished, both groups' rounds 5..63 paired.
 * Each group's message schedule is a stack array of 64 rows (the pair
 * header's layout); the arrays, holding chain values (secret when
 * signing), are wiped before the return, the registers cleared. Constant
 * time: the only branches are on steps and n (public). Portable twin:
 * fs_lms_chain_x32_portable. */

	.text

#include "sha256_x16_rounds.h"
#include "sha256_x16_pair.h"
#include "sha256_lms_step.h"

#define ARR	0		/* group A's 64 rows, B's PAIR_B after */
#define S5	8192		/* a..h after round 4: A's 8 rows, B's 512 after */
#define C16	9216		/* W[0] + sigma0(W[1]) (+ sigma1(W[14]) = 0) */
#define C17	9280		/* W[1] + sigma0(W[2]) + sigma1(W[15]) */
#define C18	9344		/* W[2] + sigma0(W[3]) */
#define C19	9408		/* W[3] + sigma0(W[4]): A's, B's 64 after */
#define IJ	9536		/* i << 16 | j << 8: A's, B's 64 after */
#define FRAME	9600
#define XB	512		/* group B's chain words after A's */
#define QB	448		/* group B's lane words after A's */
#define ROWW(g, t) (ARR + PAIR_B * (g) + 64 * (t))

/* once per call for group \g: rows 0..4 (I in zmm16..19, q), 14 and 15
 * (zmm30 = 0, zmm31 = the bit length), the call's W[19] part and j */
.macro CALL_GROUP g
	vmovdqu32	QB*\g(%rsi), %zmm20		/* W[4] = q */
	.irp	i, 16,17,18,19,20
	vmovdqa32	%zmm\i, ROWW(\g, \i-16)(%rsp)
	.endr
	vmovdqa32	%zmm30, ROWW(\g, 14)(%rsp)
	vmovdqa32	%zmm31, ROWW(\g, 15)(%rsp)
	SIGMA0	%zmm20
	vpaddd	%zmm19, %zmm11, %zmm11
	vmovdqa32	%zmm11, C19+64*\g(%rsp)
	vmovdqu32	QB*\g+64(%rsi), %zmm8
	vmovdqa32	%zmm8, IJ+64*\g(%rsp)
.endm

/* row \t of group \g = \r */
.macro STROW g, t, r
	vmovdqa32	\r, ROWW(\g, \t)(%rsp)
.endm

/* Group \g's rows 5..13 and 16..20 of a step from its chain words \c0..\c7
 * (the last digest); W[19], W[20] into \w19, \w20 (the pair's ring
 * registers). Scratch zmm9..15, zmm24..27. */
.macro BUILD g, c0, c1, c2, c3, c4, c5, c6, c7, w19, w20
	vpsrld	$24, \c0, %zmm24
	vpord	IJ+64*\g(%rsp), %zmm24, %zmm24	/* W[5] */
	STROW	\g, 5, %zmm24
	SHIFT8	%zmm9, \c0, \c1
	STROW	\g, 6, %zmm9
	SHIFT8	%zmm9, \c1, \c2
	STROW	\g, 7, %zmm9
	SHIFT8	%zmm9, \c2, \c3
	STROW	\g, 8, %zmm9
	SHIFT8	%zmm25, \c3, \c4		/* W[9] */
	SHIFT8	%zmm26, \c4, \c5		/* W[10] */
	cmpl	$24, %r8d
	je	1f
	SHIFT8	%zmm27, \c5, \c6		/* W[11] */
	SHIFT8	\w19, \c6, \c7			/* W[12] */
	vpslld	$8, \c7, \w20
	vpord	.Lpad80(%rip){1to16}, \w20, \w20	/* W[13] */
	jmp	2f
1:	vpslld	$8, \c5, %zmm27
	vpord	.Lpad80(%rip){1to16}, %zmm27, %zmm27	/* W[11] */
	vpxord	\w19, \w19, \w19
	vpxord	\w20, \w20, \w20
2:	STROW	\g, 9, %zmm25
	STROW	\g, 10, %zmm26
	STROW	\g, 11, %zmm27
	STROW	\g, 12, \w19
	STROW	\g, 13, \w20
	/* W[16..20]: the step's parts added to the call's */
	vpaddd	C16(%rsp), %zmm25, %zmm25	/* W[16] */
	STROW	\g, 16, %zmm25
	SIGMA1	%zmm25
	vpaddd	C18(%rsp), %zmm27, %zmm27
	vpaddd	%zmm11, %zmm27, %zmm27		/* W[18] */
	STROW	\g, 18, %zmm27
	vpaddd	C17(%rsp), %zmm26, %zmm26	/* W[17] */
	STROW	\g, 17, %zmm26
	SIGMA1	%zmm26
	vpaddd	C19+64*\g(%rsp), \w19, \w19
	vpaddd	%zmm11, \w19, \w19		/* W[19] */
	STROW	\g, 19, \w19
	SIGMA1	%zmm27
	vpaddd	%zmm11, \w20, \w20
	SIGMA0	%zmm24
	vpaddd	%zmm11, \w20, \w20
	vpaddd	ROWW(\g, 4)(%rsp), \w20, \w20	/* W[20] (+ q) */
	STROW	\g, 20, \w20
.endm

	.globl	fs_lms_chain_x32_avx512
	.hidden	fs_lms_chain_x32_avx512
	.type	fs_lms_chain_x32_avx512, @function
	.hidden	fs_sha256_k
	.hidden	fs_sha256_iv
	.p2align 5
fs_lms_chain_x32_avx512:
	testq	%rcx, %rcx
	jz	9f
	pushq	%rbp
	movq	%rsp, %rbp
	.rept	3			/* 9.4 KiB and alignment, a page at a time */
	subq	$4096, %rsp
	orq	$0, (%rsp)
	.endr
	andq	$-64, %rsp
	movq	%rcx, %r10		/* the rounds take %rax and %ecx */
	/* once per call: I, the bit length, the parts of W[16..18] both
	 * groups share, then each group's rounds 0..4 */
	.irp	i, 16,17,18,19
	vpbroadcastd	4*(\i-16)(%rdx), %zmm\i	/* W[0..3] = I */
	.endr
	vpxord	%zmm30, %zmm30, %zmm30
	leal	184(,%r8,8), %r9d	/* (23 + n) * 8 bits */
	vpbroadcastd	%r9d, %zmm31
	LMS_CALL_PARTS %zmm31, C16, C17, C18
	CALL_GROUP 0
	CALL_GROUP 1
	/* both groups' rounds 0..4 side by side, their states kept */
	.irp	i, 0,1,2,3,4,5,6,7
	vpbroadcastd	fs_sha256_iv+4*\i(%rip), %zmm\i
	.endr
	vpbroadcastd	fs_sha256_iv+0(%rip), %zmm16
	vpbroadcastd	fs_sha256_iv+4(%rip), %zmm17
	vpbroadcastd	fs_sha256_iv+8(%rip), %zmm18
	vpbroadcastd	fs_sha256_iv+12(%rip), %zmm19
	vpbroadcastd	fs_sha256_iv+16(%rip), %zmm20
	vpbroadcastd	fs_sha256_iv+20(%rip), %zmm21
	vpbroadcastd	fs_sha256_iv+24(%rip), %zmm22
	vpbroadcastd	fs_sha256_iv+28(%rip), %zmm23
	leaq	ARR(%rsp), %r9
	leaq	fs_sha256_k(%rip), %rax
	RPAIR0 0
	RPAIR1 0
	RPAIR2 0
	RPAIR3 0
	RPAIR4 0
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqa32	%zmm\i, S5+64*\i(%rsp)
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vmovdqa32	%zmm\i, S5+512+64*(\i-16)(%rsp)
	.endr
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu32	64*\i(%rdi), %zmm\i
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vmovdqu32	XB+64*(\i-16)(%rdi), %zmm\i
	.endr
	/* each step: both groups' messages, then their rounds 5..63 paired */
3:	BUILD	0, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7, %zmm29, %zmm28
	BUILD	1, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, %zmm31, %zmm30
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqa32	S5+64*\i(%rsp), %zmm\i
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vmovdqa32	S5+512+64*(\i-16)(%rsp), %zmm\i
	.endr
	leaq	ARR(%rsp), %r9
	leaq	fs_sha256_k(%rip), %rax
	call	.Lpair_5_63
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd	fs_sha256_iv+4*\i(%rip){1to16}, %zmm\i, %zmm\i
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vpaddd	fs_sha256_iv+4*(\i-16)(%rip){1to16}, %zmm\i, %zmm\i
	.endr
	LMS_NEXT_J IJ			/* j + 1 mod 256 */
	LMS_NEXT_J IJ+64
	decq	%r10
	jnz	3b
	.irp	i, 0,1,2,3,4,5
	vmovdqu32	%zmm\i, 64*\i(%rdi)
	.endr
	.irp	i, 16,17,18,19,20,21
	vmovdqu32	%zmm\i, XB+64*(\i-16)(%rdi)
	.endr
	cmpl	$24, %r8d
	je	4f
	vmovdqu32	%zmm6, 64*6(%rdi)
	vmovdqu32	%zmm7, 64*7(%rdi)
	vmovdqu32	%zmm22, XB+64*6(%rdi)
	vmovdqu32	%zmm23, XB+64*7(%rdi)
4:	vmovdqa32	IJ(%rsp), %zmm8
	vmovdqu32	%zmm8, 64(%rsi)
	vmovdqa32	IJ+64(%rsp), %zmm8
	vmovdqu32	%zmm8, QB+64(%rsi)
	/* chain values (secret when signing) leave no copy in the schedule
	 * arrays (rows 5..63 of both) or in registers */
	vpxord	%zmm0, %zmm0, %zmm0
	leaq	ROWW(0, 5)(%rsp), %r9
	leaq	ROWW(1, 5)(%rsp), %r11
	movl	$59, %ecx
5:	vmovdqa32	%zmm0, (%r9)
	vmovdqa32	%zmm0, (%r11)
	addq	$64, %r9
	addq	$64, %r11
	decl	%ecx
	jnz	5b
	.irp	r, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpxord	%zmm\r, %zmm\r, %zmm\r
	.endr
	movq	%rbp, %rsp
	popq	%rbp
	vzeroall
9:	ret
	.size	fs_lms_chain_x32_avx512, .-fs_lms_chain_x32_avx512

/* Rounds 5..63 of both groups: .Lpair_5_63, %r9 at row 0 of A's array,
 * %rax at K, A's W[19], W[20] in zmm29, zmm28 and B's in zmm31, zmm30
 * (%r9, %rax advanced; %ecx clobbered). */
	.p2align 5
	PAIR_ROUNDS_BODY 1

	LMS_STEP_CONSTS

	.section .note.GNU-stack,"",@progbits
