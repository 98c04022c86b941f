/* keccak_x8_avx512.S - Keccak-f[1600] on 8 interleaved states (AVX-512F),
 * and the SHAKE absorb loop around it.
 *
 * C prototypes (crypto/hash/keccak.h):
 *   void fs_keccakf1600_x8_avx512(uint64_t st[25 * 8]);
 *   void fs_keccak_absorb_x8_avx512(uint64_t st[25 * 8], const uint8_t *const in[8],
 *                                   size_t nblocks, size_t rate);
 * Word i of lane l is st[i*8 + l], so word i of all 8 lanes is one zmm:
 * the whole state lives in zmm0..zmm24 (zmm i = word i = A[i%5][i/5]),
 * zmm25..31 are the round's scratch. The round (keccak_x8_round.h, written
 * by tools/gen_keccak_x8.py, which says why) is theta's parities and D all
 * in vpxorq, then rho and pi row by row of chi (each row's five rotates;
 * its chi, in vpternlogq, after the next two rows' rotates), iota a
 * broadcast constant.
 * absorb: for each of nblocks blocks, xors the next `rate` bytes of every
 * lane (rate 136 or 168, read little-endian) into the state and permutes.
 * A block is read as rows of 8 words per lane (the last row masked to the
 * rate, so nothing past it is read) and turned into columns by an 8x8
 * transpose; state words 8..24 wait in st meanwhile. rate 0 permutes
 * nblocks times.
 * Leaf functions, no stack; nothing needs alignment. Portable twins:
 * fs_keccakf1600_x8_portable and fs_keccak_absorb_blocks over it. */

	.text

#include "transpose_q8_avx512.h"
#include "keccak_absorb_avx512.h"
#include "keccak_x8_round.h"

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
	ABSORB_SETUP
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
1:	KECCAK_X8_ROUND
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
