/* sha256_ni_x4.S - SHA-256 compression of 4 independent messages with the
 * SHA extensions, the four streams interleaved.
 *
 * C prototype (crypto/hash/sha256.h):
 *   void fs_sha256_compress_x4_shani(uint32_t st[8 * 4],
 *                                    const uint8_t *const in[4], size_t nblocks);
 * Word i of lane l is st[i*4 + l] (the transposed layout of every SHA-256
 * kernel); lane l reads in[l][0 .. 64*nblocks); no alignment needed.
 *
 * sha256rnds2 is latency-bound in one stream; Zen 5 issues more of them per
 * cycle than two streams can feed (sha256_ni.S x2), so four run here. Four
 * streams do not fit the 16 legacy-SSE registers with their schedules, so
 * each stream's message schedule lives in a 4-quad ring on the stack (the
 * SHA message instructions take the older quads from memory):
 *   ABEF of stream s in xmm1+s, CDGH in xmm5+s, scratch xmm9..14,
 *   byte-swap mask xmm15, xmm0 the implicit W+K operand.
 * Stack: rings at 64*s, block-start states at 256 + 32*s.
 * Portable twin: fs_sha256_compress_x4_portable. */

	.text

#define RING(s, q) (64*(s) + 16*((q)&3))(%rsp)

/* rounds 4g..4g+3 of stream s: the schedule quad g (loaded for g < 4),
 * then two sha256rnds2. \x holds quad g-1 on entry and quad g after: the
 * quad-to-quad path of the schedule stays in registers (no store-to-load
 * forwarding on it), and sha256msg1's part of quad g+1 is made here, a
 * quad ahead, into the ring (17.0 against 17.3 ns per lane-block, median,
 * A/B in one process on Zen 5). \ptr: the stream's input pointer. */
.macro QUAD4 s, g, ptr, x, y, abef, cdgh
	.if \g < 4
	movdqu		16*\g(\ptr), \x
	pshufb		%xmm15, \x
	movdqa		\x, RING(\s, \g)
	.else
	movdqa		\x, \y
	palignr		$4, RING(\s, \g-2), \y
	paddd		RING(\s, \g), \y		/* sha256msg1's part, made at g-1 */
	sha256msg2	\x, \y
	movdqa		\y, \x
	.if \g < 14
	movdqa		\x, RING(\s, \g)
	.endif
	.endif
	movdqa		16*\g(%rax), %xmm0
	paddd		\x, %xmm0
	sha256rnds2	\abef, \cdgh
	pshufd		$0x0e, %xmm0, %xmm0
	sha256rnds2	\cdgh, \abef
	.if (\g >= 3) && (\g < 15)
	movdqa		RING(\s, \g-3), \y
	sha256msg1	RING(\s, \g-2), \y
	movdqa		\y, RING(\s, \g+1)
	.endif
.endm

.macro GROUP g
	QUAD4	0, \g, %r8, %xmm9, %xmm13, %xmm1, %xmm5
	QUAD4	1, \g, %r9, %xmm10, %xmm14, %xmm2, %xmm6
	QUAD4	2, \g, %r10, %xmm11, %xmm13, %xmm3, %xmm7
	QUAD4	3, \g, %r11, %xmm12, %xmm14, %xmm4, %xmm8
.endm

/* 4x4 dword transpose: rows \r0..\r3 -> columns \c0..\c3 ([r0_l r1_l r2_l r3_l]);
 * \r0..\r3 are clobbered, the columns must be distinct from them. */
.macro TR4 r0, r1, r2, r3, c0, c1, c2, c3
	movdqa		\r0, \c0
	punpckldq	\r1, \c0		/* r0_0 r1_0 r0_1 r1_1 */
	punpckhdq	\r1, \r0		/* r0_2 r1_2 r0_3 r1_3 */
	movdqa		\r2, \c2
	punpckldq	\r3, \c2
	punpckhdq	\r3, \r2
	movdqa		\c0, \c1
	punpcklqdq	\c2, \c0
	punpckhqdq	\c2, \c1
	movdqa		\r0, \c2
	punpcklqdq	\r2, \c2
	movdqa		\r0, \c3
	punpckhqdq	\r2, \c3
.endm

	.globl	fs_sha256_compress_x4_shani
	.hidden	fs_sha256_compress_x4_shani
	.hidden	fs_sha256_k
	.type	fs_sha256_compress_x4_shani, @function
	.p2align 5
fs_sha256_compress_x4_shani:
	testq	%rdx, %rdx
	jz	3f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$384, %rsp
	andq	$-64, %rsp
	movq	0(%rsi), %r8
	movq	8(%rsi), %r9
	movq	16(%rsi), %r10
	movq	24(%rsi), %r11
	leaq	fs_sha256_k(%rip), %rax
	movdqa	.Lbswap32x4(%rip), %xmm15
	/* rows F E B A -> ABEF of each lane (dwords F E B A), H G D C -> CDGH */
	movdqu	80(%rdi), %xmm9
	movdqu	64(%rdi), %xmm10
	movdqu	16(%rdi), %xmm11
	movdqu	0(%rdi), %xmm12
	TR4	%xmm9, %xmm10, %xmm11, %xmm12, %xmm1, %xmm2, %xmm3, %xmm4
	movdqu	112(%rdi), %xmm9
	movdqu	96(%rdi), %xmm10
	movdqu	48(%rdi), %xmm11
	movdqu	32(%rdi), %xmm12
	TR4	%xmm9, %xmm10, %xmm11, %xmm12, %xmm5, %xmm6, %xmm7, %xmm8
1:	movdqa	%xmm1, 256(%rsp)
	movdqa	%xmm5, 272(%rsp)
	movdqa	%xmm2, 288(%rsp)
	movdqa	%xmm6, 304(%rsp)
	movdqa	%xmm3, 320(%rsp)
	movdqa	%xmm7, 336(%rsp)
	movdqa	%xmm4, 352(%rsp)
	movdqa	%xmm8, 368(%rsp)
	.irp	g, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	GROUP	\g
	.endr
	paddd	256(%rsp), %xmm1
	paddd	272(%rsp), %xmm5
	paddd	288(%rsp), %xmm2
	paddd	304(%rsp), %xmm6
	paddd	320(%rsp), %xmm3
	paddd	336(%rsp), %xmm7
	paddd	352(%rsp), %xmm4
	paddd	368(%rsp), %xmm8
	addq	$64, %r8
	addq	$64, %r9
	addq	$64, %r10
	addq	$64, %r11
	decq	%rdx
	jnz	1b
	/* back to rows: the same transpose turns lanes' F E B A into rows */
	TR4	%xmm1, %xmm2, %xmm3, %xmm4, %xmm9, %xmm10, %xmm11, %xmm12
	movdqu	%xmm9, 80(%rdi)
	movdqu	%xmm10, 64(%rdi)
	movdqu	%xmm11, 16(%rdi)
	movdqu	%xmm12, 0(%rdi)
	TR4	%xmm5, %xmm6, %xmm7, %xmm8, %xmm9, %xmm10, %xmm11, %xmm12
	movdqu	%xmm9, 112(%rdi)
	movdqu	%xmm10, 96(%rdi)
	movdqu	%xmm11, 48(%rdi)
	movdqu	%xmm12, 32(%rdi)
	/* the stack held message words and states (maybe secret): wipe it */
	pxor	%xmm0, %xmm0
	.irp	o, 0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368
	movdqa	%xmm0, \o(%rsp)
	.endr
	movq	%rbp, %rsp
	popq	%rbp
3:	ret
	.size	fs_sha256_compress_x4_shani, .-fs_sha256_compress_x4_shani

	.section .rodata
	.p2align 4
.Lbswap32x4:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

	.section .note.GNU-stack,"",@progbits
