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
 * and an xor (the schedule's ror by 8: a byte shuffle). The message window
 * W[t..t+15] is a 16-slot ring on the stack (W[t] in slot t%16); round t
 * also computes W[t+16] into W[t]'s slot.
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

/* \acc = sigma0(\x) = ror(\x, 1) ^ ror(\x, 8) ^ (\x >> 7), the rotate by 8
 * one byte shuffle (two shifts and an xor fewer); clobbers \t */
.macro SIGMA0_MSG acc, t, x
	vpsrlq	$1, \x, \acc
	vpsllq	$63, \x, \t
	vpxor	\t, \acc, \acc
	vpshufb	.Lror8(%rip), \x, \t
	vpxor	\t, \acc, \acc
	vpsrlq	$7, \x, \t
	vpxor	\t, \acc, \acc
.endm

/* A round is an e half (RE) and an a half (RA) with 8 adds, not 9: the new
 * e lands in h's register (h + W + K + d + Ch + Sigma1), the new a in d's
 * (T1 = e' - d, + Maj + Sigma0), so the a..d and e..h registers each
 * rotate (period 4). The rounds run pipelined as in the AVX-512 kernels
 * (sha512_x8_avx512.S): the e half of round t + 1 before the a half of
 * round t; neither half writes a register the other half of the round
 * before or after reads. */

/* the e half of round t (0..16 in the group: K[t] at 8*t(%rax), W[t] in
 * its slot): \h = e' = h + W + K + d + Ch(e,f,g) + Sigma1(e); Sigma1's six
 * shifts (two pipes) ahead of Ch, which any pipe takes (2% per block) */
.macro RE a, b, c, d, e, f, g, h, t
	vpaddq		WSLOT(\t), \h, \h
	vpbroadcastq	8*\t(%rax), %ymm10
	vpaddq		%ymm10, \h, \h
	vpaddq		\d, \h, \h
	SIGMA		%ymm8, %ymm9, %ymm10, \e, 14, 18, 41, 0
	vpxor		\g, \f, %ymm11
	vpand		\e, %ymm11, %ymm11
	vpxor		\g, %ymm11, %ymm11		/* Ch(e,f,g) */
	vpaddq		%ymm11, \h, \h
	vpaddq		%ymm8, \h, \h			/* e' */
.endm
/* the a half of round t: \d = a' = (e' - d) + Maj(a,b,c) + Sigma0(a); \ab
 * gets a^b, \bc holds b^c. \sched = 1: W[t]'s slot := W[t+16]. */
.macro RA a, b, c, d, e, f, g, h, t, sched, ab, bc
	vpsubq		\d, \h, \d			/* T1 = e' - d */
	SIGMA		%ymm8, %ymm9, %ymm10, \a, 28, 34, 39, 0
	vpxor		\b, \a, \ab
	vpand		\ab, \bc, %ymm11
	vpxor		\b, %ymm11, %ymm11		/* Maj(a,b,c) */
	vpaddq		%ymm11, \d, \d
	vpaddq		%ymm8, \d, \d			/* a' */
	.if \sched
	vmovdqa		WSLOT(\t+1), %ymm11
	SIGMA0_MSG	%ymm12, %ymm13, %ymm11
	vpaddq		WSLOT(\t), %ymm12, %ymm12
	vpaddq		WSLOT(\t+9), %ymm12, %ymm12
	vmovdqa		WSLOT(\t+14), %ymm11
	SIGMA		%ymm9, %ymm13, %ymm10, %ymm11, 19, 61, 6, 1
	vpaddq		%ymm9, %ymm12, %ymm12
	vmovdqa		%ymm12, WSLOT(\t)
	.endif
.endm

/* a halves of rounds t..t+15, e halves of t+1..t+16: K[t..t+16] at
 * 0(%rax) */
.macro PIPE16 sched
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,1
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,0,\sched,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,2
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,1,\sched,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,3
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,2,\sched,%ymm14,%ymm15
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,4
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,3,\sched,%ymm15,%ymm14
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,5
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,4,\sched,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,6
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,5,\sched,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,7
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,6,\sched,%ymm14,%ymm15
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,8
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,7,\sched,%ymm15,%ymm14
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,9
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,8,\sched,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,10
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,9,\sched,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,11
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,10,\sched,%ymm14,%ymm15
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,12
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,11,\sched,%ymm15,%ymm14
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,13
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,12,\sched,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,14
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,13,\sched,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,15
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,14,\sched,%ymm14,%ymm15
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,16
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,15,\sched,%ymm15,%ymm14
.endm
/* a halves of rounds 64..79, e halves of 65..79: no schedule */
.macro PIPE_TAIL16
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,1
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,0,0,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,2
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,1,0,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,3
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,2,0,%ymm14,%ymm15
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,4
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,3,0,%ymm15,%ymm14
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,5
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,4,0,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,6
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,5,0,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,7
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,6,0,%ymm14,%ymm15
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,8
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,7,0,%ymm15,%ymm14
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,9
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,8,0,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,10
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,9,0,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,11
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,10,0,%ymm14,%ymm15
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,12
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,11,0,%ymm15,%ymm14
	RE	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,13
	RA	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,12,0,%ymm14,%ymm15
	RE	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,14
	RA	%ymm3,%ymm0,%ymm1,%ymm2,%ymm7,%ymm4,%ymm5,%ymm6,13,0,%ymm15,%ymm14
	RE	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,15
	RA	%ymm2,%ymm3,%ymm0,%ymm1,%ymm6,%ymm7,%ymm4,%ymm5,14,0,%ymm14,%ymm15
	RA	%ymm1,%ymm2,%ymm3,%ymm0,%ymm5,%ymm6,%ymm7,%ymm4,15,0,%ymm15,%ymm14
.endm

/* 80 rounds pipelined, then the feed-forward into st (the block's start
 * state); uses rax and ecx */
.macro BLOCK_ROUNDS
	leaq	fs_sha512_k(%rip), %rax
	RE	%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,0
	movl	$4, %ecx
2:	PIPE16 1
	addq	$128, %rax
	decl	%ecx
	jnz	2b
	PIPE_TAIL16
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddq		32*\i(%rdi), %ymm\i, %ymm\i
	vmovdqu		%ymm\i, 32*\i(%rdi)
	.endr
.endm

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
	BLOCK_ROUNDS
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
.Lror8:
	.rept	2
	.byte	1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8
	.endr

	.section .note.GNU-stack,"",@progbits
