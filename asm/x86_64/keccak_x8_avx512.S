/* keccak_x8_avx512.S - Keccak-f[1600] on 8 interleaved states (AVX-512F),
 * and the SHAKE absorb loop around it.
 *
 * C prototypes (crypto/hash/keccak.h):
 *   void fs_keccakf1600_x8_avx512(uint64_t st[25 * 8]);
 *   void fs_keccak_absorb_x8_avx512(uint64_t st[25 * 8], const uint8_t *const in[8],
 *                                   size_t nblocks, size_t rate);
 * Word i of lane l is st[i*8 + l], so word i of all 8 lanes is one zmm:
 * the whole state lives in zmm0..zmm24 (zmm i = word i = A[i%5][i/5]).
 * zmm25..29 hold the theta column parities, zmm30/31 are scratch.
 * Theta is vpxorq, chi vpternlogq, rho vprolq, pi is the order of the rho
 * moves (one 24-long cycle, done in place), iota xors a broadcast constant.
 * absorb: for each of nblocks blocks, xors the next `rate` bytes of every
 * lane (rate 136 or 168, read little-endian) into the state and permutes.
 * A block is read as rows of 8 words per lane (the last row masked to the
 * rate, so nothing past it is read) and turned into columns by an 8x8
 * transpose; state words 8..24 wait in st meanwhile. rate 0 permutes
 * nblocks times.
 * Leaf functions, no stack; nothing needs alignment. Portable twins:
 * fs_keccakf1600_x8_portable and fs_keccak_absorb_blocks over it. */

	.text

/* Theta is all xors: C[x] = a0 ^ a1 ^ a2 ^ a3 ^ a4 (a tree, no copy), then
 * D = C[x-1] ^ rol(C[x+1], 1) once per column and a[y] ^= D. On Zen 5 a
 * ternlog whose result another ternlog reads through a non-destination
 * operand issues at 2 a cycle, xors at 4 (doc/performance.md section 10);
 * theta's ternlogs read chi's that way. Only chi's 25 ternlogs remain, and
 * their results now go to xors. */
.macro COLUMN c, a0, a1, a2, a3, a4, t
	vpxorq		\a1, \a0, \c
	vpxorq		\a3, \a2, \t
	vpxorq		\a4, \c, \c
	vpxorq		\t, \c, \c
.endm

/* column x ^= D, D = C[x-1] ^ rol(C[x+1], 1), built in \d */
.macro THETA cprev, cnext, a0, a1, a2, a3, a4, d
	vprolq		$1, \cnext, \d
	vpxorq		\cprev, \d, \d
	vpxorq		\d, \a0, \a0
	vpxorq		\d, \a1, \a1
	vpxorq		\d, \a2, \a2
	vpxorq		\d, \a3, \a3
	vpxorq		\d, \a4, \a4
.endm

/* b = rol(a, r) on the shift pipes: rotates issue on two pipes only, and
 * rho's 24 rotates sit between theta and chi with nothing else to overlap;
 * shifts run on two other pipes (section 10's ports). zmm30 is scratch. */
.macro ROLS r, a, b
	vpsllq		$\r, \a, %zmm30
	vpsrlq		$(64-\r), \a, \b
	vporq		%zmm30, \b, \b
.endm

/* one row: a[x] ^= ~a[x+1] & a[x+2]  (0xd2 = A ^ (~B & C)) */
.macro CHI a0, a1, a2, a3, a4
	vmovdqa64	\a0, %zmm25
	vmovdqa64	\a1, %zmm26
	vpternlogq	$0xd2, \a2, \a1, \a0
	vpternlogq	$0xd2, \a3, \a2, \a1
	vpternlogq	$0xd2, \a4, \a3, \a2
	vpternlogq	$0xd2, %zmm25, \a4, \a3
	vpternlogq	$0xd2, %zmm26, %zmm25, \a4
.endm

#include "transpose_q8_avx512.h"

/* loads 8 words at byte \off of every lane's block (%r8 past in[l]) into
 * zmm24..31, masked by \k (masked-off words read as zero, never fault) */
.macro LOADROW l, off, k
	movq		8*(\l-24)(%rsi), %rax
	vmovdqu64	\off(%rax,%r8), %zmm\l{\k}{z}
.endm
.macro LOADROWS off, k
	LOADROW 24, \off, \k
	LOADROW 25, \off, \k
	LOADROW 26, \off, \k
	LOADROW 27, \off, \k
	LOADROW 28, \off, \k
	LOADROW 29, \off, \k
	LOADROW 30, \off, \k
	LOADROW 31, \off, \k
.endm

	.globl	fs_keccakf1600_x8_avx512
	.hidden	fs_keccakf1600_x8_avx512
	.type	fs_keccakf1600_x8_avx512, @function
	.p2align 5
fs_keccakf1600_x8_avx512:
	movl	$1, %edx
	xorl	%ecx, %ecx
	jmp	.Labsorb8
	.size	fs_keccakf1600_x8_avx512, .-fs_keccakf1600_x8_avx512

	.globl	fs_keccak_absorb_x8_avx512
	.hidden	fs_keccak_absorb_x8_avx512
	.type	fs_keccak_absorb_x8_avx512, @function
	.hidden	fs_keccak_rc
	.p2align 5
fs_keccak_absorb_x8_avx512:
.Labsorb8:
	testq	%rdx, %rdx
	jz	4f
	movq	%rdx, %r10		/* blocks left */
	movq	%rcx, %r11		/* rate */
	xorl	%r8d, %r8d		/* offset of the block in every lane */
	kxnorw	%k1, %k1, %k1		/* all 8 words of a row */
	movl	$0x1f, %eax		/* words 16..20 of a SHAKE128 block */
	movl	$0x01, %r9d		/* word 16 of a SHAKE256 block */
	cmpq	$136, %rcx
	cmove	%r9d, %eax
	kmovw	%eax, %k2
	.irp	i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
	vmovdqu64	64*\i(%rdi), %zmm\i
	.endr
2:	testq	%r11, %r11
	jz	3f
	/* words 8..24 go to st while their registers transpose the block */
	.irp	i, 8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
	vmovdqu64	%zmm\i, 64*\i(%rdi)
	.endr
	LOADROWS 0, %k1
	TRANSPOSE8 %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31, %zmm8,%zmm9,%zmm10,%zmm11,%zmm12,%zmm13,%zmm14,%zmm15
	vpxorq	%zmm8, %zmm0, %zmm0
	vpxorq	%zmm9, %zmm1, %zmm1
	vpxorq	%zmm10, %zmm2, %zmm2
	vpxorq	%zmm11, %zmm3, %zmm3
	vpxorq	%zmm12, %zmm4, %zmm4
	vpxorq	%zmm13, %zmm5, %zmm5
	vpxorq	%zmm14, %zmm6, %zmm6
	vpxorq	%zmm15, %zmm7, %zmm7
	LOADROWS 64, %k1
	TRANSPOSE8 %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31, %zmm8,%zmm9,%zmm10,%zmm11,%zmm12,%zmm13,%zmm14,%zmm15
	.irp	i, 8,9,10,11,12,13,14,15
	vpxorq	64*\i(%rdi), %zmm\i, %zmm\i
	.endr
	LOADROWS 128, %k2	/* 5 words (rate 168) or 1 (rate 136) */
	TRANSPOSE8 %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31, %zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23
	.irp	i, 16,17,18,19,20,21,22,23
	vpxorq	64*\i(%rdi), %zmm\i, %zmm\i
	.endr
	vmovdqu64	64*24(%rdi), %zmm24
3:	leaq	fs_keccak_rc(%rip), %rax
	leaq	24*8(%rax), %rcx
	.p2align 5
1:
	/* theta */
	COLUMN	%zmm25, %zmm0, %zmm5, %zmm10, %zmm15, %zmm20, %zmm30
	COLUMN	%zmm26, %zmm1, %zmm6, %zmm11, %zmm16, %zmm21, %zmm31
	COLUMN	%zmm27, %zmm2, %zmm7, %zmm12, %zmm17, %zmm22, %zmm30
	COLUMN	%zmm28, %zmm3, %zmm8, %zmm13, %zmm18, %zmm23, %zmm31
	COLUMN	%zmm29, %zmm4, %zmm9, %zmm14, %zmm19, %zmm24, %zmm30
	THETA	%zmm29, %zmm26, %zmm0, %zmm5, %zmm10, %zmm15, %zmm20, %zmm30
	THETA	%zmm25, %zmm27, %zmm1, %zmm6, %zmm11, %zmm16, %zmm21, %zmm31
	THETA	%zmm26, %zmm28, %zmm2, %zmm7, %zmm12, %zmm17, %zmm22, %zmm30
	THETA	%zmm27, %zmm29, %zmm3, %zmm8, %zmm13, %zmm18, %zmm23, %zmm31
	THETA	%zmm28, %zmm25, %zmm4, %zmm9, %zmm14, %zmm19, %zmm24, %zmm30
	/* rho and pi: B[pi(i)] = rol(A[i], r[i]), walking pi's 24-cycle
	 * backwards from word 1 (saved in zmm31); word 0 stays put */
	vmovdqa64	%zmm1, %zmm31
	vprolq	$44, %zmm6, %zmm1
	vprolq	$20, %zmm9, %zmm6
	vprolq	$61, %zmm22, %zmm9
	vprolq	$39, %zmm14, %zmm22
	vprolq	$18, %zmm20, %zmm14
	vprolq	$62, %zmm2, %zmm20
	vprolq	$43, %zmm12, %zmm2
	vprolq	$25, %zmm13, %zmm12
	vprolq	$8, %zmm19, %zmm13
	vprolq	$56, %zmm23, %zmm19
	vprolq	$41, %zmm15, %zmm23
	vprolq	$27, %zmm4, %zmm15
	vprolq	$14, %zmm24, %zmm4
	vprolq	$2, %zmm21, %zmm24
	vprolq	$55, %zmm8, %zmm21
	vprolq	$45, %zmm16, %zmm8
	vprolq	$36, %zmm5, %zmm16
	vprolq	$28, %zmm3, %zmm5
	vprolq	$21, %zmm18, %zmm3
	vprolq	$15, %zmm17, %zmm18
	/* the last four by shifts (ROLS); measured best of 3-6 of them */
	ROLS	10, %zmm11, %zmm17
	ROLS	6, %zmm7, %zmm11
	ROLS	3, %zmm10, %zmm7
	ROLS	1, %zmm31, %zmm10
	/* chi */
	CHI	%zmm0, %zmm1, %zmm2, %zmm3, %zmm4
	CHI	%zmm5, %zmm6, %zmm7, %zmm8, %zmm9
	CHI	%zmm10, %zmm11, %zmm12, %zmm13, %zmm14
	CHI	%zmm15, %zmm16, %zmm17, %zmm18, %zmm19
	CHI	%zmm20, %zmm21, %zmm22, %zmm23, %zmm24
	/* iota */
	vpxorq	(%rax){1to8}, %zmm0, %zmm0
	addq	$8, %rax
	cmpq	%rcx, %rax
	jne	1b
	addq	%r11, %r8
	decq	%r10
	jnz	2b

	.irp	i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
	vmovdqu64	%zmm\i, 64*\i(%rdi)
	.endr
	vzeroupper
4:	ret
	.size	fs_keccak_absorb_x8_avx512, .-fs_keccak_absorb_x8_avx512

	.section .note.GNU-stack,"",@progbits
