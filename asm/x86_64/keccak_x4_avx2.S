/* keccak_x4_avx2.S - Keccak-f[1600] on 4 interleaved states (AVX2), and
 * the SHAKE absorb loop around it.
 *
 * C prototypes (crypto/hash/keccak.h):
 *   void fs_keccakf1600_x4_avx2(uint64_t st[25 * 4]);
 *   void fs_keccak_absorb_x4_avx2(uint64_t st[25 * 4], const uint8_t *const in[4],
 *                                 size_t nblocks, size_t rate);
 * Word i of lane l is st[i*4 + l], so word i of all 4 lanes is one ymm.
 * 16 ymm registers cannot hold the 25-word state, so each round reads one
 * copy of the state from memory and writes the next: st and an 800-byte
 * stack buffer take turns (24 rounds, so the result ends in st).
 * The column parities C stay in ymm10..14: each round's first output row
 * starts them and every later row folds its chi words in, so the next
 * round's theta needs no loads. Per round: D = C[x-1] ^ rol(C[x+1],1)
 * (ymm5..9); then, output row by row, theta+rho+pi gather the row's five
 * words B (ymm0..4) and chi/iota write them out; ymm15 is scratch. The
 * rows run in the order that reads the previous round's last-written row
 * word by word as it was written (4 rounds unrolled, the order repeating).
 * absorb: for each of nblocks blocks, xors the next `rate` bytes of every
 * lane (rate 136 or 168, read little-endian, as rows of 4 words per lane
 * turned into columns by 4x4 transposes) into st and permutes. rate 0
 * permutes nblocks times.
 * Leaf functions with their own aligned frame; nothing needs alignment.
 * Portable twins: fs_keccakf1600_x4_portable and fs_keccak_absorb_blocks. */

#include "keccak_rho_ymm.h"

	.text

/* \c = column x of the state at (%rsi): the first round's parities */
.macro COLUMN c, x
	vmovdqu	32*\x(%rsi), \c
	vpxor	32*(\x+5)(%rsi), \c, \c
	vpxor	32*(\x+10)(%rsi), \c, \c
	vpxor	32*(\x+15)(%rsi), \c, \c
	vpxor	32*(\x+20)(%rsi), \c, \c
.endm

/* \d = \cprev ^ rol(\cnext, 1) */
.macro THETA_D d, cprev, cnext
	vpsrlq	$63, \cnext, %ymm15
	vpaddq	\cnext, \cnext, \d
	vpor	%ymm15, \d, \d
	vpxor	\cprev, \d, \d
.endm

/* \b = rol(A[\s] ^ \d, \r), A at \src: one word of B = pi(rho(theta(A))) */
.macro BLANE src, b, s, d, r
	vpxor	32*\s(\src), \d, \b
	ROL_YMM	\b, \r
.endm

/* chi word x of output row y (B in ymm0..4) to \dst: the round's first
 * row starts the next round's column parity \c with it, later rows fold
 * it in; word 0 takes iota (this round's constant, 4 copies, at %rax) */
.macro CHI dst, y, x, first, c, b0, b1, b2
	.if \first
	vpandn	\b2, \b1, \c
	vpxor	\b0, \c, \c
	.if \y + \x == 0
	vpxor	(%rax), \c, \c
	.endif
	vmovdqu	\c, 32*(5*\y+\x)(\dst)
	.else
	vpandn	\b2, \b1, %ymm15
	vpxor	\b0, %ymm15, %ymm15
	.if \y + \x == 0
	vpxor	(%rax), %ymm15, %ymm15
	.endif
	vmovdqu	%ymm15, 32*(5*\y+\x)(\dst)
	vpxor	%ymm15, \c, \c
	.endif
.endm

/* output row y of one round, A at \src to \dst: B[x] = rol(A[s] ^ D[s%5],
 * r) with s = (x + 3y) % 5 + 5x (pi) and r rho's, listed per row; then chi */
.macro ROW src, dst, y, first
	.if \y == 0
	BLANE	\src, %ymm0, 0, %ymm5, 0
	BLANE	\src, %ymm1, 6, %ymm6, 44
	BLANE	\src, %ymm2, 12, %ymm7, 43
	BLANE	\src, %ymm3, 18, %ymm8, 21
	BLANE	\src, %ymm4, 24, %ymm9, 14
	.elseif \y == 1
	BLANE	\src, %ymm0, 3, %ymm8, 28
	BLANE	\src, %ymm1, 9, %ymm9, 20
	BLANE	\src, %ymm2, 10, %ymm5, 3
	BLANE	\src, %ymm3, 16, %ymm6, 45
	BLANE	\src, %ymm4, 22, %ymm7, 61
	.elseif \y == 2
	BLANE	\src, %ymm0, 1, %ymm6, 1
	BLANE	\src, %ymm1, 7, %ymm7, 6
	BLANE	\src, %ymm2, 13, %ymm8, 25
	BLANE	\src, %ymm3, 19, %ymm9, 8
	BLANE	\src, %ymm4, 20, %ymm5, 18
	.elseif \y == 3
	BLANE	\src, %ymm0, 4, %ymm9, 27
	BLANE	\src, %ymm1, 5, %ymm5, 36
	BLANE	\src, %ymm2, 11, %ymm6, 10
	BLANE	\src, %ymm3, 17, %ymm7, 15
	BLANE	\src, %ymm4, 23, %ymm8, 56
	.else
	BLANE	\src, %ymm0, 2, %ymm7, 62
	BLANE	\src, %ymm1, 8, %ymm8, 55
	BLANE	\src, %ymm2, 14, %ymm9, 39
	BLANE	\src, %ymm3, 15, %ymm5, 41
	BLANE	\src, %ymm4, 21, %ymm6, 2
	.endif
	CHI	\dst, \y, 0, \first, %ymm10, %ymm0, %ymm1, %ymm2
	CHI	\dst, \y, 1, \first, %ymm11, %ymm1, %ymm2, %ymm3
	CHI	\dst, \y, 2, \first, %ymm12, %ymm2, %ymm3, %ymm4
	CHI	\dst, \y, 3, \first, %ymm13, %ymm3, %ymm4, %ymm0
	CHI	\dst, \y, 4, \first, %ymm14, %ymm4, %ymm0, %ymm1
.endm

/* one round from \src to \dst, the column parities C in ymm10..14: theta's
 * D (ymm5..9), then the output rows in the order r0..r4 */
.macro ROUND src, dst, r0, r1, r2, r3, r4
	THETA_D	%ymm5, %ymm14, %ymm11
	THETA_D	%ymm6, %ymm10, %ymm12
	THETA_D	%ymm7, %ymm11, %ymm13
	THETA_D	%ymm8, %ymm12, %ymm14
	THETA_D	%ymm9, %ymm13, %ymm10
	ROW	\src, \dst, \r0, 1
	ROW	\src, \dst, \r1, 0
	ROW	\src, \dst, \r2, 0
	ROW	\src, \dst, \r3, 0
	ROW	\src, \dst, \r4, 0
	addq	$32, %rax
.endm

	.globl	fs_keccakf1600_x4_avx2
	.hidden	fs_keccakf1600_x4_avx2
	.type	fs_keccakf1600_x4_avx2, @function
	.p2align 5
fs_keccakf1600_x4_avx2:
	movl	$1, %edx
	xorl	%ecx, %ecx
	jmp	.Labsorb4
	.size	fs_keccakf1600_x4_avx2, .-fs_keccakf1600_x4_avx2

/* st words 4c..4c+3 ^= 32 bytes at 32*c of each lane's block (lane
 * pointers rax, rcx, rsi, rdx plus offset r8), via a 4x4 transpose */
.macro XOR4 c
	vmovdqu		32*\c(%rax,%r8), %ymm0
	vmovdqu		32*\c(%rcx,%r8), %ymm1
	vmovdqu		32*\c(%rsi,%r8), %ymm2
	vmovdqu		32*\c(%rdx,%r8), %ymm3
	vpunpcklqdq	%ymm1, %ymm0, %ymm4	/* words 0,2 of lanes 0,1 */
	vpunpckhqdq	%ymm1, %ymm0, %ymm5	/* words 1,3 of lanes 0,1 */
	vpunpcklqdq	%ymm3, %ymm2, %ymm6
	vpunpckhqdq	%ymm3, %ymm2, %ymm7
	vperm2i128	$0x20, %ymm6, %ymm4, %ymm0
	vperm2i128	$0x20, %ymm7, %ymm5, %ymm1
	vperm2i128	$0x31, %ymm6, %ymm4, %ymm2
	vperm2i128	$0x31, %ymm7, %ymm5, %ymm3
	vpxor		32*(4*\c)(%rdi), %ymm0, %ymm0
	vpxor		32*(4*\c+1)(%rdi), %ymm1, %ymm1
	vpxor		32*(4*\c+2)(%rdi), %ymm2, %ymm2
	vpxor		32*(4*\c+3)(%rdi), %ymm3, %ymm3
	vmovdqu		%ymm0, 32*(4*\c)(%rdi)
	vmovdqu		%ymm1, 32*(4*\c+1)(%rdi)
	vmovdqu		%ymm2, 32*(4*\c+2)(%rdi)
	vmovdqu		%ymm3, 32*(4*\c+3)(%rdi)
.endm

/* st word \w ^= word \w of each lane's block */
.macro XOR1 w
	vmovq		8*\w(%rax,%r8), %xmm0
	vpinsrq		$1, 8*\w(%rcx,%r8), %xmm0, %xmm0
	vmovq		8*\w(%rsi,%r8), %xmm1
	vpinsrq		$1, 8*\w(%rdx,%r8), %xmm1, %xmm1
	vinserti128	$1, %xmm1, %ymm0, %ymm0
	vpxor		32*\w(%rdi), %ymm0, %ymm0
	vmovdqu		%ymm0, 32*\w(%rdi)
.endm

	.globl	fs_keccak_absorb_x4_avx2
	.hidden	fs_keccak_absorb_x4_avx2
	.type	fs_keccak_absorb_x4_avx2, @function
	.p2align 5
fs_keccak_absorb_x4_avx2:
.Labsorb4:
	testq	%rdx, %rdx
	jz	4f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$800, %rsp
	andq	$-32, %rsp
	movq	%rsi, %r9		/* lane pointers */
	movq	%rdx, %r10		/* blocks left */
	movq	%rcx, %r11		/* rate */
	xorl	%r8d, %r8d		/* offset of the block in every lane */
2:	testq	%r11, %r11
	jz	3f
	movq	0(%r9), %rax
	movq	8(%r9), %rcx
	movq	16(%r9), %rsi
	movq	24(%r9), %rdx
	XOR4	0
	XOR4	1
	XOR4	2
	XOR4	3
	cmpq	$136, %r11
	jne	5f
	XOR1	16
	jmp	3f
5:	XOR4	4
	XOR1	20
3:	movq	%rsp, %rdx		/* the stack copy */
	leaq	.Lkeccak_rc4(%rip), %rax
	leaq	24*32(%rax), %rcx
	movq	%rdi, %rsi
	COLUMN	%ymm10, 0
	COLUMN	%ymm11, 1
	COLUMN	%ymm12, 2
	COLUMN	%ymm13, 3
	COLUMN	%ymm14, 4
	.p2align 5
1:	ROUND	%rdi, %rdx, 2, 4, 1, 3, 0
	ROUND	%rdx, %rdi, 0, 2, 4, 1, 3
	ROUND	%rdi, %rdx, 4, 1, 3, 0, 2
	ROUND	%rdx, %rdi, 1, 3, 0, 2, 4
	cmpq	%rcx, %rax
	jne	1b
	addq	%r11, %r8
	decq	%r10
	jnz	2b

	movq	%rbp, %rsp
	popq	%rbp
	vzeroupper
4:	ret
	.size	fs_keccak_absorb_x4_avx2, .-fs_keccak_absorb_x4_avx2

	.section .rodata
	KECCAK_YMM_CONSTS

	.section .note.GNU-stack,"",@progbits
