/* sha256_x16_wots_prefix.h - what the two x16 WOTS+ chain kernels
 * (sha256_x16_chain_avx512.S, one block at a time, and
 * sha256_x16_chain_pair_avx512.S, two blocks side by side) share: the
 * message row helpers and the PRF prefix, run once per call. Included by
 * .S files only, after sha256_x16_rounds.h; each includer defines the
 * .Lpad80 and .Lbits768 constants (0x80000000 and 768). */
#ifndef FASTSIG_SHA256_X16_WOTS_PREFIX_H
#define FASTSIG_SHA256_X16_WOTS_PREFIX_H

/* W[j] = 0 for the listed registers */
.macro WZERO regs:vararg
	.irp	r, \regs
	vpxord	\r, \r, \r
	.endr
.endm

/* the listed registers = rows 0, 1, ... of the 16-lane words at \base */
.macro LOADW base, regs:vararg
	.set	.Lrow, 0
	.irp	r, \regs
	vmovdqu32	.Lrow(\base), \r
	.set	.Lrow, .Lrow + 64
	.endr
.endm

/* W[8..15] of a 96-byte message's last block: 0x80, zeros, 768 bits */
.macro WPAD96
	vpbroadcastd	.Lpad80(%rip), %zmm24
	WZERO	%zmm25, %zmm26, %zmm27, %zmm28, %zmm29, %zmm30
	vpbroadcastd	.Lbits768(%rip), %zmm31
.endm

/* A PRF block's first six rounds see only mid and ADRS words 0..5, the
 * same for every step of a chain: once per call they are run for all
 * lanes and kept on the stack, PRE(%rsp): the state after round 5 (in the
 * port-lean layout's registers, STATE_R6_STORE: the pair kernel's), then
 * W[16..20], then W[5] + sigma1(W[19]) (the part of W[21] without W[6]). */
#define PRE 1024
.macro PRF_PREFIX
	.irp	i, 0,1,2,3,4,5,6,7
	vpbroadcastd	4*\i(%rdx), %zmm\i
	.endr
	LOADW	%rsi, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21
	WPAD96
	leaq	fs_sha256_k(%rip), %rax
	R0 1
	R1 1
	R2 1
	R3 1
	R4 1
	R5 0
	STATE_R6_STORE	PRE
	.irp	j, 16,17,18,19,20
	vmovdqa32	%zmm\j, PRE+512+64*(\j-16)(%rsp)
	.endr
	SIGMA1	%zmm19
	vpaddd	%zmm21, %zmm11, %zmm11
	vmovdqa32	%zmm11, PRE+512+320(%rsp)
.endm

#endif
