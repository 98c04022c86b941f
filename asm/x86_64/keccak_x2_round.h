/* keccak_x2_round.h - one round of Keccak-f[1600] on two interleaved states
 * (word i of both in xmm i), shared by the two-lane kernels
 * (keccak_x2_avx512.S, keccak_x2_dot_avx512.S). KECCAK_X2_ROUND reads its
 * round constant at (%rax) and clobbers xmm25..31; see keccak_x2_avx512.S
 * for why it is ordered as it is. */

/* C[x] = a0 ^ a1 ^ a2 ^ a3 ^ a4 (column x), register numbers */
.macro COLUMN c, a0, a1, a2, a3, a4
	vmovdqa64	%xmm\a0, %xmm\c
	vpternlogq	$0x96, %xmm\a2, %xmm\a1, %xmm\c
	vpternlogq	$0x96, %xmm\a4, %xmm\a3, %xmm\c
.endm

/* theta's D and rho for one chi row's lanes (registers b0..b4, their D
 * registers d0..d4, rotations r0..r4): b = rol(b ^ d, r) */
.macro PREP b0, b1, b2, b3, b4, d0, d1, d2, d3, d4, r0, r1, r2, r3, r4
	vpxorq		%xmm\d0, %xmm\b0, %xmm\b0
	.if \r0
	vprolq		$\r0, %xmm\b0, %xmm\b0
	.endif
	vpxorq		%xmm\d1, %xmm\b1, %xmm\b1
	vprolq		$\r1, %xmm\b1, %xmm\b1
	vpxorq		%xmm\d2, %xmm\b2, %xmm\b2
	vprolq		$\r2, %xmm\b2, %xmm\b2
	vpxorq		%xmm\d3, %xmm\b3, %xmm\b3
	vprolq		$\r3, %xmm\b3, %xmm\b3
	vpxorq		%xmm\d4, %xmm\b4, %xmm\b4
	vprolq		$\r4, %xmm\b4, %xmm\b4
.endm

/* chi of that row: b[x] ^= ~b[x+1] & b[x+2] (0xd2), each output over its
 * own b; copies of b0, b1 in xmm26/27 serve the last two */
.macro CHI b0, b1, b2, b3, b4
	vmovdqa64	%xmm\b0, %xmm26
	vmovdqa64	%xmm\b1, %xmm27
	vpternlogq	$0xd2, %xmm\b2, %xmm\b1, %xmm\b0
	vpternlogq	$0xd2, %xmm\b3, %xmm\b2, %xmm\b1
	vpternlogq	$0xd2, %xmm\b4, %xmm\b3, %xmm\b2
	vpternlogq	$0xd2, %xmm26, %xmm\b4, %xmm\b3
	vpternlogq	$0xd2, %xmm27, %xmm26, %xmm\b4
.endm

/* One round: lane i in xmm i before and after, iota from (%rax). */
.macro KECCAK_X2_ROUND
	/* theta: C[x] in xmm25..29 */
	COLUMN	25, 0, 5, 10, 15, 20
	COLUMN	26, 1, 6, 11, 16, 21
	COLUMN	27, 2, 7, 12, 17, 22
	COLUMN	28, 3, 8, 13, 18, 23
	COLUMN	29, 4, 9, 14, 19, 24
	/* D[x] = C[x-1] ^ rol(C[x+1], 1): D0 xmm30, D1 xmm25, D2 xmm28, D3 xmm29,
	 * D4 xmm31 (C0 kept in xmm31 until D4) */
	vmovdqa64	%xmm25, %xmm31
	vprolq		$1, %xmm26, %xmm30
	vpxorq		%xmm29, %xmm30, %xmm30
	vprolq		$1, %xmm27, %xmm25
	vpxorq		%xmm31, %xmm25, %xmm25
	vprolq		$1, %xmm31, %xmm31
	vpxorq		%xmm28, %xmm31, %xmm31
	vprolq		$1, %xmm28, %xmm28
	vpxorq		%xmm26, %xmm28, %xmm28
	vprolq		$1, %xmm29, %xmm29
	vpxorq		%xmm27, %xmm29, %xmm29
	/* rows of chi (lanes, their D registers, rho rotations); the next
	 * row's PREP goes ahead of each CHI (more independent work in flight) */
	PREP	0, 6, 12, 18, 24,  30, 25, 28, 29, 31,  0, 44, 43, 21, 14
	PREP	3, 9, 10, 16, 22,  29, 31, 30, 25, 28,  28, 20, 3, 45, 61
	CHI	0, 6, 12, 18, 24
	vpxorq		(%rax){1to2}, %xmm0, %xmm0	/* iota */
	PREP	1, 7, 13, 19, 20,  25, 28, 29, 31, 30,  1, 6, 25, 8, 18
	CHI	3, 9, 10, 16, 22
	PREP	4, 5, 11, 17, 23,  31, 30, 25, 28, 29,  27, 36, 10, 15, 56
	CHI	1, 7, 13, 19, 20
	PREP	2, 8, 14, 15, 21,  28, 29, 31, 30, 25,  62, 55, 39, 41, 2
	CHI	4, 5, 11, 17, 23
	CHI	2, 8, 14, 15, 21
	/* pi: lane j is in xmm pi_src[j]; walk the 24-cycle back to xmm j */
	vmovdqa64	%xmm1, %xmm25
	vmovdqa64	%xmm6, %xmm1
	vmovdqa64	%xmm9, %xmm6
	vmovdqa64	%xmm22, %xmm9
	vmovdqa64	%xmm14, %xmm22
	vmovdqa64	%xmm20, %xmm14
	vmovdqa64	%xmm2, %xmm20
	vmovdqa64	%xmm12, %xmm2
	vmovdqa64	%xmm13, %xmm12
	vmovdqa64	%xmm19, %xmm13
	vmovdqa64	%xmm23, %xmm19
	vmovdqa64	%xmm15, %xmm23
	vmovdqa64	%xmm4, %xmm15
	vmovdqa64	%xmm24, %xmm4
	vmovdqa64	%xmm21, %xmm24
	vmovdqa64	%xmm8, %xmm21
	vmovdqa64	%xmm16, %xmm8
	vmovdqa64	%xmm5, %xmm16
	vmovdqa64	%xmm3, %xmm5
	vmovdqa64	%xmm18, %xmm3
	vmovdqa64	%xmm17, %xmm18
	vmovdqa64	%xmm11, %xmm17
	vmovdqa64	%xmm7, %xmm11
	vmovdqa64	%xmm10, %xmm7
	vmovdqa64	%xmm25, %xmm10
.endm
