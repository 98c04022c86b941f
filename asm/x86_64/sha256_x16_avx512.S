/* sha256_x16_avx512.S - SHA-256 compression of 16 independent messages
 * (AVX-512F/BW).
 *
 * C prototype (crypto/hash/sha256.h):
 *   void fs_sha256_compress_x16_avx512(uint32_t st[8 * 16],
 *                                      const uint8_t *const in[16], size_t nblocks);
 * Word i of lane l is st[i*16 + l], so word i of all lanes is one zmm.
 * Lane l reads in[l][0 .. 64*nblocks); no alignment needed.
 *
 * Registers: a..h in zmm0..7, the 16-word message window W[t..t+15] in
 * zmm16..31 (a ring: W[t] sits in zmm16 + t%16), scratch zmm8..13, the
 * byte-swap mask in zmm14. Each block's 16 rows (one per lane) are loaded
 * and transposed 16x16 in registers: 4x4 dword transposes inside each
 * 128-bit lane (unpck), then 4x4 transposes of 128-bit chunks (vshufi32x4).
 * While round t consumes W[t] it also computes W[t+16] into the same
 * register. The a..h rotation is done by renaming macro arguments: 16 rounds
 * unrolled. Leaf function, no stack. Portable twin: fs_sha256_compress_x16_portable. */

	.text

/* one round; \sched = 1 also turns \w0 = W[t] into W[t+16], using
 * \w1 = W[t+1], \w9 = W[t+9], \w14 = W[t+14]. K[t] is at \koff(%rax). */
.macro RND a, b, c, d, e, f, g, h, koff, sched, w0, w1, w9, w14
	vpaddd		\w0, \h, \h
	vpaddd		\koff(%rax){1to16}, \h, \h
	vprord		$6, \e, %zmm8
	vprord		$11, \e, %zmm9
	vprord		$25, \e, %zmm10
	vpternlogd	$0x96, %zmm10, %zmm9, %zmm8	/* Sigma1(e) */
	vmovdqa32	\e, %zmm9
	vpternlogd	$0xca, \g, \f, %zmm9		/* Ch(e,f,g) */
	vpaddd		%zmm8, \h, \h
	vpaddd		%zmm9, \h, \h			/* h = T1 */
	.if \sched
	vprord		$7, \w1, %zmm11
	vprord		$18, \w1, %zmm12
	vpsrld		$3, \w1, %zmm13
	vpternlogd	$0x96, %zmm13, %zmm12, %zmm11	/* sigma0(W[t+1]) */
	vpaddd		\w9, \w0, \w0
	vpaddd		%zmm11, \w0, \w0
	.endif
	vpaddd		\h, \d, \d			/* d += T1 */
	vprord		$2, \a, %zmm8
	vprord		$13, \a, %zmm9
	vprord		$22, \a, %zmm10
	vpternlogd	$0x96, %zmm10, %zmm9, %zmm8	/* Sigma0(a) */
	vmovdqa32	\a, %zmm9
	vpternlogd	$0xe8, \c, \b, %zmm9		/* Maj(a,b,c) */
	.if \sched
	vprord		$17, \w14, %zmm11
	vprord		$19, \w14, %zmm12
	vpsrld		$10, \w14, %zmm13
	vpternlogd	$0x96, %zmm13, %zmm12, %zmm11	/* sigma1(W[t+14]) */
	vpaddd		%zmm11, \w0, \w0
	.endif
	vpaddd		%zmm8, \h, \h
	vpaddd		%zmm9, \h, \h			/* h = T1 + T2 */
.endm

/* 16 rounds: K[t..t+15] at 0(%rax); W[t..t+15] in zmm16..31 */
.macro ROUNDS16 sched
	RND %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,\sched,%zmm16,%zmm17,%zmm25,%zmm30
	RND %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,4,\sched,%zmm17,%zmm18,%zmm26,%zmm31
	RND %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,8,\sched,%zmm18,%zmm19,%zmm27,%zmm16
	RND %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,12,\sched,%zmm19,%zmm20,%zmm28,%zmm17
	RND %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,16,\sched,%zmm20,%zmm21,%zmm29,%zmm18
	RND %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,20,\sched,%zmm21,%zmm22,%zmm30,%zmm19
	RND %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,24,\sched,%zmm22,%zmm23,%zmm31,%zmm20
	RND %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,28,\sched,%zmm23,%zmm24,%zmm16,%zmm21
	RND %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,32,\sched,%zmm24,%zmm25,%zmm17,%zmm22
	RND %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,36,\sched,%zmm25,%zmm26,%zmm18,%zmm23
	RND %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,40,\sched,%zmm26,%zmm27,%zmm19,%zmm24
	RND %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,44,\sched,%zmm27,%zmm28,%zmm20,%zmm25
	RND %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,48,\sched,%zmm28,%zmm29,%zmm21,%zmm26
	RND %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,52,\sched,%zmm29,%zmm30,%zmm22,%zmm27
	RND %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,56,\sched,%zmm30,%zmm31,%zmm23,%zmm28
	RND %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,60,\sched,%zmm31,%zmm16,%zmm24,%zmm29
.endm

/* 4x4 dword transpose inside each 128-bit lane of rows \a..\d */
.macro TR4 a, b, c, d
	vpunpckldq	\b, \a, %zmm8
	vpunpckhdq	\b, \a, %zmm9
	vpunpckldq	\d, \c, %zmm10
	vpunpckhdq	\d, \c, %zmm11
	vpunpcklqdq	%zmm10, %zmm8, \a
	vpunpckhqdq	%zmm10, %zmm8, \b
	vpunpcklqdq	%zmm11, %zmm9, \c
	vpunpckhqdq	%zmm11, %zmm9, \d
.endm

/* 4x4 transpose of the 128-bit chunks of \a..\d */
.macro TRQ a, b, c, d
	vshufi32x4	$0x44, \b, \a, %zmm8
	vshufi32x4	$0xee, \b, \a, %zmm9
	vshufi32x4	$0x44, \d, \c, %zmm10
	vshufi32x4	$0xee, \d, \c, %zmm11
	vshufi32x4	$0x88, %zmm10, %zmm8, \a
	vshufi32x4	$0xdd, %zmm10, %zmm8, \b
	vshufi32x4	$0x88, %zmm11, %zmm9, \c
	vshufi32x4	$0xdd, %zmm11, %zmm9, \d
.endm

	.globl	fs_sha256_compress_x16_avx512
	.hidden	fs_sha256_compress_x16_avx512
	.type	fs_sha256_compress_x16_avx512, @function
	.hidden	fs_sha256_k
	.p2align 5
fs_sha256_compress_x16_avx512:
	testq	%rdx, %rdx
	jz	3f
	vbroadcasti32x4	.Lbswap32(%rip), %zmm14
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu32	64*\i(%rdi), %zmm\i
	.endr
	xorl	%r8d, %r8d			/* offset of the block in every lane */
1:	/* row l = lane l's block; transpose so that zmm16+j = W[j] of all lanes */
	movq		0(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm16
	movq		8(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm17
	movq		16(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm18
	movq		24(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm19
	movq		32(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm20
	movq		40(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm21
	movq		48(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm22
	movq		56(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm23
	movq		64(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm24
	movq		72(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm25
	movq		80(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm26
	movq		88(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm27
	movq		96(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm28
	movq		104(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm29
	movq		112(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm30
	movq		120(%rsi), %rax
	vmovdqu32	(%rax,%r8), %zmm31
	TR4	%zmm16, %zmm17, %zmm18, %zmm19
	TR4	%zmm20, %zmm21, %zmm22, %zmm23
	TR4	%zmm24, %zmm25, %zmm26, %zmm27
	TR4	%zmm28, %zmm29, %zmm30, %zmm31
	TRQ	%zmm16, %zmm20, %zmm24, %zmm28
	TRQ	%zmm17, %zmm21, %zmm25, %zmm29
	TRQ	%zmm18, %zmm22, %zmm26, %zmm30
	TRQ	%zmm19, %zmm23, %zmm27, %zmm31
	.irp	j, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpshufb		%zmm14, %zmm\j, %zmm\j
	.endr
	leaq	fs_sha256_k(%rip), %rax
	movl	$3, %ecx
2:	ROUNDS16 1
	addq	$64, %rax
	decl	%ecx
	jnz	2b
	ROUNDS16 0
	/* feed forward: st holds the state the block started from */
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd		64*\i(%rdi), %zmm\i, %zmm\i
	vmovdqu32	%zmm\i, 64*\i(%rdi)
	.endr
	addq	$64, %r8
	decq	%rdx
	jnz	1b
	vzeroupper
3:	ret
	.size	fs_sha256_compress_x16_avx512, .-fs_sha256_compress_x16_avx512

	.section .rodata
	.p2align 4
.Lbswap32:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

	.section .note.GNU-stack,"",@progbits
