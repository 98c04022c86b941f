/* sha256_lms_step.h - what the two LM-OTS chain kernels share
 * (sha256_x16_lms_chain_avx512.S, one group of 16 chains, and
 * sha256_x32_lms_chain_avx512.S, two groups paired): the message word that
 * straddles two chain words, the call's parts of W[16..18], the advance of
 * j, and their constants. Included by .S files only, after
 * sha256_x16_rounds.h (SIGMA0, SIGMA1). */
#ifndef FASTSIG_SHA256_LMS_STEP_H
#define FASTSIG_SHA256_LMS_STEP_H

/* \dst = \hi << 8 | \lo >> 24: the message word that straddles two
 * chain words (the chain value starts at byte 23); \t clobbered */
.macro SHIFT8 dst, hi, lo, t=%zmm8
	vpslld	$8, \hi, \dst
	vpsrld	$24, \lo, \t
	vpord	\t, \dst, \dst
.endm

/* the parts of W[16..18] fixed for a call, from I in zmm16..19 and the
 * bit length W[15] in \w15, to \c16, \c17, \c18 (%rsp offsets):
 *   W[0] + sigma0(W[1]) (+ sigma1(W[14]) = 0), W[1] + sigma0(W[2]) +
 *   sigma1(W[15]), W[2] + sigma0(W[3]); zmm11..14 clobbered */
.macro LMS_CALL_PARTS w15, c16, c17, c18
	SIGMA0	%zmm17
	vpaddd	%zmm16, %zmm11, %zmm11
	vmovdqa32	%zmm11, \c16(%rsp)
	SIGMA1	\w15
	vpaddd	%zmm17, %zmm11, %zmm14
	SIGMA0	%zmm18
	vpaddd	%zmm14, %zmm11, %zmm11
	vmovdqa32	%zmm11, \c17(%rsp)
	SIGMA0	%zmm19
	vpaddd	%zmm18, %zmm11, %zmm11
	vmovdqa32	%zmm11, \c18(%rsp)
.endm

/* the lane words i << 16 | j << 8 at \off(%rsp): j + 1 mod 256, i and the
 * low byte kept; the new words left in zmm8 (zmm9 clobbered) */
.macro LMS_NEXT_J off
	vmovdqa32	\off(%rsp), %zmm8
	vpaddd	.Lj1(%rip){1to16}, %zmm8, %zmm9
	vpandd	.Lkeep(%rip){1to16}, %zmm8, %zmm8
	vpandd	.Ljmask(%rip){1to16}, %zmm9, %zmm9
	vpord	%zmm9, %zmm8, %zmm8
	vmovdqa32	%zmm8, \off(%rsp)
.endm

/* the constants the macros and the kernels read, in .rodata */
.macro LMS_STEP_CONSTS
	.section .rodata
	.p2align 2
.Lpad80:
	.long	0x80
.Lj1:
	.long	0x100
.Lkeep:
	.long	0xffff00ff
.Ljmask:
	.long	0xff00
.endm

#endif
