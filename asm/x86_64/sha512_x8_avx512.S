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
 * The a..h rotation is done by renaming macro arguments: 16 rounds unrolled.
 * Leaf function, no stack. Portable twin: fs_sha512_compress_x8_portable. */

	.text

/* one round; \sched = 1 also turns \w0 = W[t] into W[t+16], using
 * \w1 = W[t+1], \w9 = W[t+9], \w14 = W[t+14]. K[t] is at \koff(%rax).
 * The adds are ordered for a short dependency chain: d and h take
 * h + W + K first (known early), then Ch(e,f,g) and Sigma1(e) each.
 * Ch is built in a copy of e, the newest input, as its destination; in
 * each Sigma the rotate that issues last (two rotate pipes) is the
 * ternlog's destination, 2 cycles of latency against 3 through the other
 * operands (1.8% per block on Zen 5, A/B in one process). */
.macro RND a, b, c, d, e, f, g, h, koff, sched, w0, w1, w9, w14
	vpaddq		\w0, \h, \h
	vpaddq		\koff(%rax){1to8}, \h, \h
	vpaddq		\h, \d, \d
	vmovdqa64	\e, %zmm28
	vpternlogq	$0xca, \g, \f, %zmm28		/* Ch(e,f,g) */
	vprorq		$18, \e, %zmm26
	vprorq		$41, \e, %zmm27
	vprorq		$14, \e, %zmm25		/* issued last: the destination */
	vpternlogq	$0x96, %zmm27, %zmm26, %zmm25	/* Sigma1(e) */
	vpaddq		%zmm28, \d, \d
	vpaddq		%zmm28, \h, \h
	vpaddq		%zmm25, \d, \d			/* d = d + T1 */
	vpaddq		%zmm25, \h, \h			/* h = T1 */
	.if \sched
	vprorq		$1, \w1, %zmm29
	vprorq		$8, \w1, %zmm30
	vpsrlq		$7, \w1, %zmm31
	vpternlogq	$0x96, %zmm31, %zmm30, %zmm29	/* sigma0(W[t+1]) */
	vpaddq		\w9, \w0, \w0
	vpaddq		%zmm29, \w0, \w0
	.endif
	vprorq		$34, \a, %zmm26
	vprorq		$39, \a, %zmm27
	vprorq		$28, \a, %zmm25
	vpternlogq	$0x96, %zmm27, %zmm26, %zmm25	/* Sigma0(a) */
	vmovdqa64	\a, %zmm28
	vpternlogq	$0xe8, \c, \b, %zmm28		/* Maj(a,b,c) */
	vpaddq		%zmm28, \h, \h
	vpaddq		%zmm25, \h, \h			/* h = T1 + T2 */
	.if \sched
	vprorq		$19, \w14, %zmm29
	vprorq		$61, \w14, %zmm30
	vpsrlq		$6, \w14, %zmm31
	vpternlogq	$0x96, %zmm31, %zmm30, %zmm29	/* sigma1(W[t+14]) */
	vpaddq		%zmm29, \w0, \w0
	.endif
.endm

/* 16 rounds: K[t..t+15] at 0(%rax); W[t..t+15] in zmm8..23 */
.macro ROUNDS16 sched
	RND %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,   0,\sched,%zmm8, %zmm9, %zmm17,%zmm22
	RND %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,   8,\sched,%zmm9, %zmm10,%zmm18,%zmm23
	RND %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,  16,\sched,%zmm10,%zmm11,%zmm19,%zmm8
	RND %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,  24,\sched,%zmm11,%zmm12,%zmm20,%zmm9
	RND %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,  32,\sched,%zmm12,%zmm13,%zmm21,%zmm10
	RND %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,  40,\sched,%zmm13,%zmm14,%zmm22,%zmm11
	RND %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,  48,\sched,%zmm14,%zmm15,%zmm23,%zmm12
	RND %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,  56,\sched,%zmm15,%zmm16,%zmm8, %zmm13
	RND %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,  64,\sched,%zmm16,%zmm17,%zmm9, %zmm14
	RND %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,  72,\sched,%zmm17,%zmm18,%zmm10,%zmm15
	RND %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,  80,\sched,%zmm18,%zmm19,%zmm11,%zmm16
	RND %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,  88,\sched,%zmm19,%zmm20,%zmm12,%zmm17
	RND %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,  96,\sched,%zmm20,%zmm21,%zmm13,%zmm18
	RND %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2, 104,\sched,%zmm21,%zmm22,%zmm14,%zmm19
	RND %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1, 112,\sched,%zmm22,%zmm23,%zmm15,%zmm20
	RND %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0, 120,\sched,%zmm23,%zmm8, %zmm16,%zmm21
.endm

#include "sha2_block_rounds.h"
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
	SHA2_BLOCK_ROUNDS fs_sha512_k, 4, 128, vpaddq, vmovdqu64, zmm, 64
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
