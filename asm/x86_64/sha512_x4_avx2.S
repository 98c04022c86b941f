/* sha512_x4_avx2.S - SHA-512 compression of 4 independent messages (AVX2).
 *
 * C prototype (crypto/hash/sha512.h):
 *   void fs_sha512_compress_x4_avx2(uint64_t st[8 * 4],
 *                                   const uint8_t *const in[4], size_t nblocks);
 * Word i of lane l is st[i*4 + l], so word i of all lanes is one ymm.
 * Lane l reads in[l][0 .. 128*nblocks); no alignment needed.
 *
 * Registers: a..h in ymm0..7, scratch ymm8..13, and ymm14/15 carry a^b from
 * one round to the next (Maj(a,b,c) = b ^ ((a^b) & (b^c)), and this round's
 * b^c is the last round's a^b). AVX2 has no 64-bit rotate: ror is two shifts
 * and an xor. The message window W[t..t+15] is a 16-slot ring on the stack
 * (W[t] in slot t%16); round t also computes W[t+16] into W[t]'s slot.
 * A block is read as rows of 4 words per lane and turned into columns by
 * 4x4 transposes. 16 rounds unrolled, a..h renamed by macro
 * arguments. Leaf function with its own aligned frame (no red zone use).
 * Portable twin: fs_sha512_compress_x4_portable. */

	.text

#define WSLOT(t) (32 * ((t) % 16))(%rsp)

/* \acc = ror(\x, \r1) ^ ror(\x, \r2) ^ (\x >> \s3 if \shr else ror(\x, \s3)),
 * as a tree of xors; clobbers \t, \u */
.macro SIGMA acc, t, u, x, r1, r2, s3, shr
	vpsrlq	$\r1, \x, \acc
	vpsllq	$(64-\r1), \x, \t
	vpxor	\t, \acc, \acc
	vpsrlq	$\r2, \x, \t
	vpsllq	$(64-\r2), \x, \u
	vpxor	\u, \t, \t
	vpxor	\t, \acc, \acc
	vpsrlq	$\s3, \x, \t
	.if !\shr
	vpsllq	$(64-\s3), \x, \u
	vpxor	\u, \t, \t
	.endif
	vpxor	\t, \acc, \acc
.endm

/* round t (0..15 within the group; K[t] at 8*t(%rax)); \ab gets a^b,
 * \bc holds b^c. \sched = 1: W[t] := W[t+16]. The adds are ordered for a
 * short dependency chain: d and h take h + W + K first (known early), then
 * Ch(e,f,g) and Sigma1(e) each. */
.macro RND a, b, c, d, e, f, g, h, t, sched, ab, bc
	vpaddq		WSLOT(\t), \h, \h
	.if \sched
	vmovdqa		WSLOT(\t+1), %ymm11
	SIGMA		%ymm12, %ymm13, %ymm10, %ymm11, 1, 8, 7, 1
	vpaddq		WSLOT(\t), %ymm12, %ymm12
	vpaddq		WSLOT(\t+9), %ymm12, %ymm12
	vmovdqa		WSLOT(\t+14), %ymm11
	SIGMA		%ymm9, %ymm13, %ymm10, %ymm11, 19, 61, 6, 1
	vpaddq		%ymm9, %ymm12, %ymm12
	vmovdqa		%ymm12, WSLOT(\t)
	.endif
	vpbroadcastq	8*\t(%rax), %ymm10
	vpaddq		%ymm10, \h, \h
	vpaddq		\h, \d, \d
	vpxor		\g, \f, %ymm11
	vpand		\e, %ymm11, %ymm11
	vpxor		\g, %ymm11, %ymm11		/* Ch(e,f,g) */
	vpaddq		%ymm11, \d, \d
	vpaddq		%ymm11, \h, \h
	SIGMA		%ymm8, %ymm9, %ymm10, \e, 14, 18, 41, 0
	vpaddq		%ymm8, \d, \d			/* d = d + T1 */
	vpaddq		%ymm8, \h, \h			/* h = T1 */
	SIGMA		%ymm8, %ymm9, %ymm10, \a, 28, 34, 39, 0
	vpxor		\b, \a, \ab
	vpand		\ab, \bc, %ymm11
	vpxor		\b, %ymm11, %ymm11		/* Maj(a,b,c) */
	vpaddq		%ymm11, \h, \h
	vpaddq		%ymm8, \h, \h			/* h = T1 + T2 */
.endm

#include "sha2_block_rounds.h"
#include "sha2_rounds16_ymm.h"

/* W[4c..4c+3]: 32 bytes at 32*c of each lane's block (r8..r11), a 4x4
 * transpose (ymm8..15), a byte swap per word */
.macro LOAD4 c
	vmovdqu		32*\c(%r8), %ymm8
	vmovdqu		32*\c(%r9), %ymm9
	vmovdqu		32*\c(%r10), %ymm10
	vmovdqu		32*\c(%r11), %ymm11
	vpunpcklqdq	%ymm9, %ymm8, %ymm12	/* words 0,2 of lanes 0,1 */
	vpunpckhqdq	%ymm9, %ymm8, %ymm13	/* words 1,3 of lanes 0,1 */
	vpunpcklqdq	%ymm11, %ymm10, %ymm14
	vpunpckhqdq	%ymm11, %ymm10, %ymm15
	vperm2i128	$0x20, %ymm14, %ymm12, %ymm8
	vperm2i128	$0x20, %ymm15, %ymm13, %ymm9
	vperm2i128	$0x31, %ymm14, %ymm12, %ymm10
	vperm2i128	$0x31, %ymm15, %ymm13, %ymm11
	vpshufb		.Lbswap64(%rip), %ymm8, %ymm8
	vpshufb		.Lbswap64(%rip), %ymm9, %ymm9
	vpshufb		.Lbswap64(%rip), %ymm10, %ymm10
	vpshufb		.Lbswap64(%rip), %ymm11, %ymm11
	vmovdqa		%ymm8, WSLOT(4*\c)
	vmovdqa		%ymm9, WSLOT(4*\c+1)
	vmovdqa		%ymm10, WSLOT(4*\c+2)
	vmovdqa		%ymm11, WSLOT(4*\c+3)
.endm

	.globl	fs_sha512_compress_x4_avx2
	.hidden	fs_sha512_compress_x4_avx2
	.type	fs_sha512_compress_x4_avx2, @function
	.hidden	fs_sha512_k
	.p2align 5
fs_sha512_compress_x4_avx2:
	testq	%rdx, %rdx
	jz	3f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$512, %rsp
	andq	$-32, %rsp
	movq	0(%rsi), %r8		/* the lane pointers */
	movq	8(%rsi), %r9
	movq	16(%rsi), %r10
	movq	24(%rsi), %r11
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu	32*\i(%rdi), %ymm\i
	.endr
1:	/* one block: lane rows of 4 words, transposed, byte-swapped into W */
	LOAD4	0
	LOAD4	1
	LOAD4	2
	LOAD4	3
	.irp	r, r8, r9, r10, r11
	addq	$128, %\r
	.endr
	vpxor		%ymm2, %ymm1, %ymm15		/* b^c for round 0 */
	SHA2_BLOCK_ROUNDS fs_sha512_k, 4, 128, vpaddq, vmovdqu, ymm, 32
	decq	%rdx
	jnz	1b
	movq	%rbp, %rsp
	popq	%rbp
	vzeroupper
3:	ret
	.size	fs_sha512_compress_x4_avx2, .-fs_sha512_compress_x4_avx2

	.section .rodata
	.p2align 5
.Lbswap64:
	.rept	2
	.byte	7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8
	.endr

	.section .note.GNU-stack,"",@progbits
