/* sha512_x8_avx512.S - SHA-512 compression of 8 independent messages
 * (AVX-512F/BW).
 *
 * C prototype (crypto/hash/sha512.h):
 *   void fs_sha512_compress_x8_avx512(uint64_t st[8 * 8],
 *                                     const uint8_t *const in[8], size_t nblocks);
 * Word i of lane l is st[i*8 + l], so word i of all lanes is one zmm.
 * Lane l reads in[l][0 .. 128*nblocks); no alignment needed.
 *
 * Registers: a..h in zmm0..7, the 16-word message window W[t..t+15] in
 * zmm8..23 (a ring: W[t] sits in zmm8 + t%16), scratch zmm24..28 for the
 * rounds and zmm29..31 for the schedule. A block is read as rows of 8 words
 * per lane and turned into columns by 8x8 transposes. While
 * round t consumes W[t] it also computes W[t+16] into the same register.
 * The a..h rotation is done by renaming macro arguments (the new a and e
 * land in d's and h's registers: period 4), 16 rounds unrolled.
 * Leaf function, no stack. Portable twin: fs_sha512_compress_x8_portable. */

	.text

/* A round is an e half (RE) and an a half (RA), pipelined as in the
 * SHA-256 x16 kernels (sha256_x16_pipe.h): the e half of round t + 1 comes
 * before the a half of round t. The e chain (Sigma1, then one add into the
 * new e) is the kernel's dependency path; Zen 5 issues the oldest ready op
 * first, so the next e half wins the ports over the a path and the
 * schedule. 8 adds a round: the new e lands in h's register (h + W + K + d
 * + Ch + Sigma1), the new a in d's (T1 = e' - d, + Maj + Sigma0); the a..d
 * and e..h registers each rotate (period 4) and neither half writes a
 * register the other half of the round before or after reads. Ch and Maj
 * go into copies of e and a, their latest inputs; in each Sigma the rotate
 * that issues last (two rotate pipes) is the ternlog's destination (2
 * cycles from it against 3 through the other operands). */

/* the e half: \h = e' = h + W[t] + K[t] + d + Ch(e,f,g) + Sigma1(e); K[t]
 * at \koff(%rax) */
.macro RE a, b, c, d, e, f, g, h, koff, w0
	vpaddq		\w0, \h, \h
	vpaddq		\koff(%rax){1to8}, \h, \h
	vpaddq		\d, \h, \h			/* off the e chain */
	vmovdqa64	\e, %zmm28
	vpternlogq	$0xca, \g, \f, %zmm28		/* Ch(e,f,g) */
	vprorq		$18, \e, %zmm26
	vprorq		$41, \e, %zmm27
	vprorq		$14, \e, %zmm25		/* issued last: the destination */
	vpternlogq	$0x96, %zmm27, %zmm26, %zmm25	/* Sigma1(e) */
	vpaddq		%zmm28, \h, \h
	vpaddq		%zmm25, \h, \h			/* e' */
.endm
/* the a half: \d = a' = (e' - d) + Maj(a,b,c) + Sigma0(a); \sched = 1
 * also turns \w0 = W[t] into W[t+16], using \w1 = W[t+1], \w9 = W[t+9],
 * \w14 = W[t+14] */
.macro RA a, b, c, d, e, f, g, h, sched, w0, w1, w9, w14
	vpsubq		\d, \h, \d			/* T1 = e' - d */
	vmovdqa64	\a, %zmm28
	vpternlogq	$0xe8, \c, \b, %zmm28		/* Maj(a,b,c) */
	vprorq		$34, \a, %zmm26
	vprorq		$39, \a, %zmm27
	vprorq		$28, \a, %zmm25
	vpternlogq	$0x96, %zmm27, %zmm26, %zmm25	/* Sigma0(a) */
	vpaddq		%zmm28, \d, \d
	vpaddq		%zmm25, \d, \d			/* a' */
	.if \sched
	vprorq		$1, \w1, %zmm29
	vprorq		$8, \w1, %zmm30
	vpsrlq		$7, \w1, %zmm31
	vpternlogq	$0x96, %zmm31, %zmm30, %zmm29	/* sigma0(W[t+1]) */
	vpaddq		\w9, \w0, \w0
	vpaddq		%zmm29, \w0, \w0
	vprorq		$19, \w14, %zmm29
	vprorq		$61, \w14, %zmm30
	vpsrlq		$6, \w14, %zmm31
	vpternlogq	$0x96, %zmm31, %zmm30, %zmm29	/* sigma1(W[t+14]) */
	vpaddq		%zmm29, \w0, \w0
	.endif
.endm

/* a halves of rounds t..t+15, e halves of t+1..t+16: K[t..t+16] at
 * 0(%rax), W[t..t+15] in zmm8..23 (W[t] in zmm8 + t%16) */
.macro PIPE16 sched
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,8,%zmm9
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm8,%zmm9,%zmm17,%zmm22
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,16,%zmm10
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm9,%zmm10,%zmm18,%zmm23
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,24,%zmm11
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm10,%zmm11,%zmm19,%zmm8
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,32,%zmm12
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm11,%zmm12,%zmm20,%zmm9
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,40,%zmm13
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm12,%zmm13,%zmm21,%zmm10
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,48,%zmm14
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm13,%zmm14,%zmm22,%zmm11
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,56,%zmm15
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm14,%zmm15,%zmm23,%zmm12
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,64,%zmm16
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm15,%zmm16,%zmm8,%zmm13
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,72,%zmm17
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm16,%zmm17,%zmm9,%zmm14
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,80,%zmm18
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm17,%zmm18,%zmm10,%zmm15
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,88,%zmm19
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm18,%zmm19,%zmm11,%zmm16
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,96,%zmm20
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm19,%zmm20,%zmm12,%zmm17
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,104,%zmm21
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm20,%zmm21,%zmm13,%zmm18
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,112,%zmm22
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm21,%zmm22,%zmm14,%zmm19
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,120,%zmm23
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm22,%zmm23,%zmm15,%zmm20
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,128,%zmm8
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm23,%zmm8,%zmm16,%zmm21
.endm
/* a halves of rounds 64..79, e halves of 65..79: no schedule */
.macro PIPE_TAIL16
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,8,%zmm9
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm8,%zmm9,%zmm17,%zmm22
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,16,%zmm10
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm9,%zmm10,%zmm18,%zmm23
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,24,%zmm11
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm10,%zmm11,%zmm19,%zmm8
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,32,%zmm12
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm11,%zmm12,%zmm20,%zmm9
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,40,%zmm13
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm12,%zmm13,%zmm21,%zmm10
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,48,%zmm14
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm13,%zmm14,%zmm22,%zmm11
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,56,%zmm15
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm14,%zmm15,%zmm23,%zmm12
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,64,%zmm16
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm15,%zmm16,%zmm8,%zmm13
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,72,%zmm17
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm16,%zmm17,%zmm9,%zmm14
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,80,%zmm18
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm17,%zmm18,%zmm10,%zmm15
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,88,%zmm19
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm18,%zmm19,%zmm11,%zmm16
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,96,%zmm20
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm19,%zmm20,%zmm12,%zmm17
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,104,%zmm21
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm20,%zmm21,%zmm13,%zmm18
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,112,%zmm22
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm21,%zmm22,%zmm14,%zmm19
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,120,%zmm23
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm22,%zmm23,%zmm15,%zmm20
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm23,%zmm8,%zmm16,%zmm21
.endm

/* 80 rounds pipelined, then the feed-forward into st (the block's start
 * state); uses rax and ecx */
.macro BLOCK_ROUNDS
	leaq	fs_sha512_k(%rip), %rax
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm8
	movl	$4, %ecx
2:	PIPE16 1
	addq	$128, %rax
	decl	%ecx
	jnz	2b
	PIPE_TAIL16
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddq		64*\i(%rdi), %zmm\i, %zmm\i
	vmovdqu64	%zmm\i, 64*\i(%rdi)
	.endr
.endm

#include "transpose_q8_avx512.h"

/* word rows: 64 bytes at \off of every lane's block (%r8 past in[l]) into
 * zmm16..23 */
.macro LOADROW l, off
	movq		8*(\l-16)(%rsi), %rax
	vmovdqu64	\off(%rax,%r8), %zmm\l
.endm
.macro LOADROWS off
	.irp	l, 16,17,18,19,20,21,22,23
	LOADROW \l, \off
	.endr
.endm

/* W registers \w0.. = the big-endian reading of columns zmm24..31 */
.macro BSWAP8 w0, w1, w2, w3, w4, w5, w6, w7
	vpshufb	.Lbswap64(%rip), %zmm24, %zmm\w0
	vpshufb	.Lbswap64(%rip), %zmm25, %zmm\w1
	vpshufb	.Lbswap64(%rip), %zmm26, %zmm\w2
	vpshufb	.Lbswap64(%rip), %zmm27, %zmm\w3
	vpshufb	.Lbswap64(%rip), %zmm28, %zmm\w4
	vpshufb	.Lbswap64(%rip), %zmm29, %zmm\w5
	vpshufb	.Lbswap64(%rip), %zmm30, %zmm\w6
	vpshufb	.Lbswap64(%rip), %zmm31, %zmm\w7
.endm

	.globl	fs_sha512_compress_x8_avx512
	.hidden	fs_sha512_compress_x8_avx512
	.type	fs_sha512_compress_x8_avx512, @function
	.hidden	fs_sha512_k
	.p2align 5
fs_sha512_compress_x8_avx512:
	testq	%rdx, %rdx
	jz	3f
	xorl	%r8d, %r8d		/* offset of the block in every lane */
		.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu64	64*\i(%rdi), %zmm\i
	.endr
1:	/* one block: lane rows of 8 words, transposed, byte-swapped into W */
	LOADROWS 0
	TRANSPOSE8 %zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23, %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31
	BSWAP8	8, 9, 10, 11, 12, 13, 14, 15
	LOADROWS 64
	TRANSPOSE8 %zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23, %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31
	BSWAP8	16, 17, 18, 19, 20, 21, 22, 23
	addq	$128, %r8
	BLOCK_ROUNDS
	decq	%rdx
	jnz	1b
	vzeroupper
3:	ret
	.size	fs_sha512_compress_x8_avx512, .-fs_sha512_compress_x8_avx512

	.section .rodata
	.p2align 6
.Lbswap64:
	.rept	4
	.byte	7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8
	.endr

	.section .note.GNU-stack,"",@progbits
