/* sha256_ni.S - SHA-256 compression of 2 independent messages with the SHA
 * extensions, the two streams interleaved; and of 1 message (same rounds).
 *
 * C prototype (crypto/hash/sha256.h):
 *   void fs_sha256_compress_x2_shani(uint32_t st[8 * 2],
 *                                    const uint8_t *const in[2], size_t nblocks);
 * Word i of lane l is st[i*2 + l] (the transposed layout of every SHA-256
 * kernel); lane l reads in[l][0 .. 64*nblocks); no alignment needed.
 *
 * sha256rnds2 has a long latency and one stream leaves the unit idle most of
 * the time; two independent streams fill it. Registers (SHA instructions are
 * legacy SSE: xmm0..15 only, xmm0 is the implicit W+K operand):
 *   stream A: ABEF xmm1, CDGH xmm2, message quads xmm3..6, high pair xmm13
 *   stream B: ABEF xmm7, CDGH xmm8, message quads xmm9..12, high pair xmm14
 *   xmm15 scratch; the block's starting state is kept in the red zone.
 * The message quads are a ring of four registers per stream (all four
 * loaded first); the four rounds of group g are one QUAD (16 unrolled),
 * which also computes the schedule two quads ahead. Portable twins:
 * fs_sha256_compress_x2_portable, fs_sha256_compress_x1. */

	.text

/* rounds 4g..4g+3 of both streams; \m0 = quad g (W[4g..4g+3]), \m1, \m2,
 * \m3 = quads g+1, g+2 (g-2 until computed here), g+3 (g-1) of the ring.
 * Quads 2..13 first compute quad g+2, two quads ahead of its rounds: with
 * one quad ahead, sha256msg2's latency (7 cycles on Zen 5) sat on the
 * rounds' path (x2: 19.8 against 20.7 ns per lane-block, median, A/B in one
 * process). Quads 1..12 start quad g+3 (sha256msg1). K[4g] at \koff(%rax). */
.macro QUAD koff, m0a, m1a, m2a, m3a, m0b, m1b, m2b, m3b
	.if (\koff >= 32) && (\koff <= 208)
	movdqa		\m1a, %xmm15
	palignr		$4, \m0a, %xmm15
	paddd		%xmm15, \m2a
	sha256msg2	\m1a, \m2a
	.ifnb \m0b
	movdqa		\m1b, %xmm15
	palignr		$4, \m0b, %xmm15
	paddd		%xmm15, \m2b
	sha256msg2	\m1b, \m2b
	.endif
	.endif
	movdqu		\koff(%rax), %xmm0
	paddd		\m0a, %xmm0
	pshufd		$0x0e, %xmm0, %xmm13
	sha256rnds2	%xmm1, %xmm2
	.ifnb \m0b
	movdqu		\koff(%rax), %xmm0
	paddd		\m0b, %xmm0
	pshufd		$0x0e, %xmm0, %xmm14
	sha256rnds2	%xmm7, %xmm8
	.endif
	movdqa		%xmm13, %xmm0
	sha256rnds2	%xmm2, %xmm1
	.ifnb \m0b
	movdqa		%xmm14, %xmm0
	sha256rnds2	%xmm8, %xmm7
	.endif
	.if (\koff >= 16) && (\koff <= 192)
	sha256msg1	\m0a, \m3a
	.ifnb \m0b
	sha256msg1	\m0b, \m3b
	.endif
	.endif
.endm

/* the four quads of a block into the ring \r0..\r3 from \ptr */
.macro LOAD4 ptr, r0, r1, r2, r3
	.set	.Lq, 0
	.irp	r, \r0, \r1, \r2, \r3
	movdqu		.Lq(\ptr), \r
	pshufb		.Lbswap32(%rip), \r
	.set	.Lq, .Lq + 16
	.endr
.endm

/* the 64 rounds of one block: stream A, and stream B when \two */
.macro BLOCK two
	LOAD4	%r10, %xmm3, %xmm4, %xmm5, %xmm6
	.if \two
	LOAD4	%r11, %xmm9, %xmm10, %xmm11, %xmm12
	.endif
	.irp	k, 0,64,128,192
	.if \two
	QUAD  \k, %xmm3,%xmm4,%xmm5,%xmm6, %xmm9,%xmm10,%xmm11,%xmm12
	QUAD  (\k+16), %xmm4,%xmm5,%xmm6,%xmm3, %xmm10,%xmm11,%xmm12,%xmm9
	QUAD  (\k+32), %xmm5,%xmm6,%xmm3,%xmm4, %xmm11,%xmm12,%xmm9,%xmm10
	QUAD  (\k+48), %xmm6,%xmm3,%xmm4,%xmm5, %xmm12,%xmm9,%xmm10,%xmm11
	.else
	QUAD  \k, %xmm3,%xmm4,%xmm5,%xmm6
	QUAD  (\k+16), %xmm4,%xmm5,%xmm6,%xmm3
	QUAD  (\k+32), %xmm5,%xmm6,%xmm3,%xmm4
	QUAD  (\k+48), %xmm6,%xmm3,%xmm4,%xmm5
	.endif
	.endr
.endm

	.globl	fs_sha256_compress_x2_shani
	.hidden	fs_sha256_compress_x2_shani
	.type	fs_sha256_compress_x2_shani, @function
	.p2align 5
fs_sha256_compress_x2_shani:
	testq	%rdx, %rdx
	jz	3f
	movq	(%rsi), %r10
	movq	8(%rsi), %r11
	leaq	-80(%rsp), %r9			/* 64 aligned bytes in the red zone */
	andq	$-16, %r9
	leaq	.Lk256(%rip), %rax
	/* st rows: xmm3 = A0 A1 B0 B1, xmm4 = C0 C1 D0 D1, xmm5 = E.., xmm6 = G.. */
	movdqu	0(%rdi), %xmm3
	movdqu	16(%rdi), %xmm4
	movdqu	32(%rdi), %xmm5
	movdqu	48(%rdi), %xmm6
	movdqa	%xmm5, %xmm1
	shufps	$0x22, %xmm3, %xmm1		/* lane 0: F E B A = ABEF */
	movdqa	%xmm6, %xmm2
	shufps	$0x22, %xmm4, %xmm2		/* lane 0: H G D C = CDGH */
	movdqa	%xmm5, %xmm7
	shufps	$0x77, %xmm3, %xmm7		/* lane 1: ABEF */
	movdqa	%xmm6, %xmm8
	shufps	$0x77, %xmm4, %xmm8		/* lane 1: CDGH */
1:	movdqa	%xmm1, 0(%r9)
	movdqa	%xmm2, 16(%r9)
	movdqa	%xmm7, 32(%r9)
	movdqa	%xmm8, 48(%r9)
	BLOCK	1
	paddd	0(%r9), %xmm1
	paddd	16(%r9), %xmm2
	paddd	32(%r9), %xmm7
	paddd	48(%r9), %xmm8
	addq	$64, %r10
	addq	$64, %r11
	decq	%rdx
	jnz	1b
	/* back to rows: A0 B0 A1 B1 -> A0 A1 B0 B1, and so on */
	movdqa	%xmm1, %xmm3
	shufps	$0xbb, %xmm7, %xmm3
	pshufd	$0xd8, %xmm3, %xmm3
	movdqa	%xmm2, %xmm4
	shufps	$0xbb, %xmm8, %xmm4
	pshufd	$0xd8, %xmm4, %xmm4
	movdqa	%xmm1, %xmm5
	shufps	$0x11, %xmm7, %xmm5
	pshufd	$0xd8, %xmm5, %xmm5
	movdqa	%xmm2, %xmm6
	shufps	$0x11, %xmm8, %xmm6
	pshufd	$0xd8, %xmm6, %xmm6
	movdqu	%xmm3, 0(%rdi)
	movdqu	%xmm4, 16(%rdi)
	movdqu	%xmm5, 32(%rdi)
	movdqu	%xmm6, 48(%rdi)
3:	ret
	.size	fs_sha256_compress_x2_shani, .-fs_sha256_compress_x2_shani


/* One stream (a lone H_msg or chain): the same rounds, stream A only.
 *   void fs_sha256_compress_x1_shani(uint32_t st[8], const uint8_t *const in[1],
 *                                    size_t nblocks); */
	.globl	fs_sha256_compress_x1_shani
	.hidden	fs_sha256_compress_x1_shani
	.type	fs_sha256_compress_x1_shani, @function
	.p2align 5
fs_sha256_compress_x1_shani:
	testq	%rdx, %rdx
	jz	3f
	movq	(%rsi), %r10
	leaq	.Lk256(%rip), %rax
	movdqu	0(%rdi), %xmm3			/* A B C D */
	movdqu	16(%rdi), %xmm5			/* E F G H */
	movdqa	%xmm5, %xmm1
	shufps	$0x11, %xmm3, %xmm1		/* F E B A = ABEF */
	movdqa	%xmm5, %xmm2
	shufps	$0xbb, %xmm3, %xmm2		/* H G D C = CDGH */
1:	movdqa	%xmm1, %xmm7
	movdqa	%xmm2, %xmm8
	BLOCK	0
	paddd	%xmm7, %xmm1
	paddd	%xmm8, %xmm2
	addq	$64, %r10
	decq	%rdx
	jnz	1b
	movdqa	%xmm1, %xmm3
	shufps	$0xbb, %xmm2, %xmm3		/* A B C D */
	movdqa	%xmm1, %xmm5
	shufps	$0x11, %xmm2, %xmm5		/* E F G H */
	movdqu	%xmm3, 0(%rdi)
	movdqu	%xmm5, 16(%rdi)
3:	ret
	.size	fs_sha256_compress_x1_shani, .-fs_sha256_compress_x1_shani

	.section .rodata
	.p2align 6
.Lk256:
	.long	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
	.long	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
	.long	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
	.long	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
	.long	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
	.long	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
	.long	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
	.long	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
	.p2align 4
.Lbswap32:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

	.section .note.GNU-stack,"",@progbits
