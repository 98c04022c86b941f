/* keccak_x8_avx2.S - Keccak-f[1600] on 8 interleaved states (AVX2): two
 * 4-lane states whose rounds overlap.
 *
 * C prototype (crypto/hash/keccak.h):
 *   void fs_keccakf1600_x8_avx2(uint64_t st[25 * 8]);
 * Word i of lane l is st[i*8 + l]: word i of lanes 0..3 (state 0) is the
 * ymm at 64*i, of lanes 4..7 (state 1) the ymm at 64*i + 32.
 * Why two states: in the 4-lane kernel (keccak_x4_avx2.S) every word of a
 * round waits for theta's D, which waits for the last chi word of the
 * round before, so each round starts with a few cycles of little work
 * (about 80% of the vector-ALU bound). Here the rows of the two states
 * alternate, so one state's last chi words and its next theta run beside
 * the other state's rows. Registers: each state's column parities C in
 * five ymm (state 0: ymm5..9, state 1: ymm10..14) carried from round to
 * round (each round's first output row starts them, the later rows fold
 * their chi words in); D goes to a stack slot (made in ymm0..4, where row
 * 0 takes it); B, the row being built, in ymm0..4; ymm15 scratch. Each
 * round reads one copy of the state and writes the other: st and a
 * 1600-byte stack buffer take turns (24 rounds: the result ends in st).
 * Leaf function with its own aligned frame; st needs no alignment.
 * Portable twin: fs_keccakf1600_x8_portable. */

#include "keccak_rho_ymm.h"

	.text

#define SW(s, h) (64*(s) + 32*(h))		/* word s of state h */
#define DW(x, h) (1600 + 32*(5*(h) + (x)))(%rsp)	/* D[x] of state h */

/* \c = column x of state h in st: the first round's parities */
.macro COLUMN c, x, h
	vmovdqu	SW(\x, \h)(%rdi), \c
	vpxor	SW(\x+5, \h)(%rdi), \c, \c
	vpxor	SW(\x+10, \h)(%rdi), \c, \c
	vpxor	SW(\x+15, \h)(%rdi), \c, \c
	vpxor	SW(\x+20, \h)(%rdi), \c, \c
.endm

/* D[x] = C[x-1] ^ rol(C[x+1], 1) of state h, made in ymm\x, kept on the stack */
.macro THETA_D x, h, cprev, cnext
	vpsrlq	$63, \cnext, %ymm15
	vpaddq	\cnext, \cnext, %ymm\x
	vpor	%ymm15, %ymm\x, %ymm\x
	vpxor	\cprev, %ymm\x, %ymm\x
	vmovdqu	%ymm\x, DW(\x, \h)
.endm

/* \b = rol(A[\s] ^ D[\s % 5], \r) of state h, A at \src; dreg 1: D[\s % 5]
 * is already in \b, where theta made it (row 0: its word x takes D[x]) */
.macro BLANE src, h, b, s, r, dreg=0
	.if \dreg
	vpxor	SW(\s, \h)(\src), \b, \b
	.else
	vmovdqu	SW(\s, \h)(\src), \b
	vpxor	DW(\s % 5, \h), \b, \b
	.endif
	ROL_YMM	\b, \r
.endm

/* chi word x of output row y of state h (B in ymm0..4) to \dst; row 0
 * starts the next round's parity \c, later rows fold into it; word 0
 * takes iota (4 copies of the round constant at %rax) */
.macro CHI dst, h, y, x, c, b0, b1, b2
	.if \y == 0
	vpandn	\b2, \b1, \c
	vpxor	\b0, \c, \c
	.if \x == 0
	vpxor	(%rax), \c, \c
	.endif
	vmovdqu	\c, SW(5*\y+\x, \h)(\dst)
	.else
	vpandn	\b2, \b1, %ymm15
	vpxor	\b0, %ymm15, %ymm15
	vmovdqu	%ymm15, SW(5*\y+\x, \h)(\dst)
	vpxor	%ymm15, \c, \c
	.endif
.endm

/* output row y of state h: B[x] = rol(A[s] ^ D[s % 5], r) for the five
 * (s, r) of pi and rho, then chi into words 5y .. 5y+4; C in c0..c4 */
.macro ROW src, dst, h, y, s0, r0, s1, r1, s2, r2, s3, r3, s4, r4, c0, c1, c2, c3, c4
	BLANE	\src, \h, %ymm0, \s0, \r0, (\y == 0)
	BLANE	\src, \h, %ymm1, \s1, \r1, (\y == 0)
	BLANE	\src, \h, %ymm2, \s2, \r2, (\y == 0)
	BLANE	\src, \h, %ymm3, \s3, \r3, (\y == 0)
	BLANE	\src, \h, %ymm4, \s4, \r4, (\y == 0)
	CHI	\dst, \h, \y, 0, \c0, %ymm0, %ymm1, %ymm2
	CHI	\dst, \h, \y, 1, \c1, %ymm1, %ymm2, %ymm3
	CHI	\dst, \h, \y, 2, \c2, %ymm2, %ymm3, %ymm4
	CHI	\dst, \h, \y, 3, \c3, %ymm3, %ymm4, %ymm0
	CHI	\dst, \h, \y, 4, \c4, %ymm4, %ymm0, %ymm1
.endm

/* theta's D of state h from its parities c0..c4 */
.macro THETA h, c0, c1, c2, c3, c4
	THETA_D	0, \h, \c4, \c1
	THETA_D	1, \h, \c0, \c2
	THETA_D	2, \h, \c1, \c3
	THETA_D	3, \h, \c2, \c4
	THETA_D	4, \h, \c3, \c0
.endm

/* output row y of state h (pi's sources and rho's rotations per row) */
.macro ROWY src, dst, h, y, c0, c1, c2, c3, c4
	.if \y == 0
	ROW \src, \dst, \h, 0, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14, \c0, \c1, \c2, \c3, \c4
	.elseif \y == 1
	ROW \src, \dst, \h, 1, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61, \c0, \c1, \c2, \c3, \c4
	.elseif \y == 2
	ROW \src, \dst, \h, 2, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18, \c0, \c1, \c2, \c3, \c4
	.elseif \y == 3
	ROW \src, \dst, \h, 3, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56, \c0, \c1, \c2, \c3, \c4
	.else
	ROW \src, \dst, \h, 4, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2, \c0, \c1, \c2, \c3, \c4
	.endif
.endm

/* one round of both states, \src to \dst: each state's theta and its row
 * 0 (D from the registers: 10 loads a round fewer, 3.5% faster), then the
 * other rows of the two states by turns (one state's whole round after the
 * other's measured 9% slower on Zen 5: doc/performance.md section 3) */
.macro ROUND src, dst
	THETA	0, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9
	ROWY	\src, \dst, 0, 0, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9
	THETA	1, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14
	ROWY	\src, \dst, 1, 0, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14
	.irp y, 1,2,3,4
	ROWY	\src, \dst, 0, \y, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9
	ROWY	\src, \dst, 1, \y, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14
	.endr
	addq	$32, %rax
.endm

	.globl	fs_keccakf1600_x8_avx2
	.hidden	fs_keccakf1600_x8_avx2
	.type	fs_keccakf1600_x8_avx2, @function
	.p2align 5
fs_keccakf1600_x8_avx2:
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$(1600 + 320), %rsp
	andq	$-32, %rsp
	leaq	.Lkeccak_rc4(%rip), %rax
	leaq	24*32(%rax), %rcx
	COLUMN	%ymm5, 0, 0
	COLUMN	%ymm6, 1, 0
	COLUMN	%ymm7, 2, 0
	COLUMN	%ymm8, 3, 0
	COLUMN	%ymm9, 4, 0
	COLUMN	%ymm10, 0, 1
	COLUMN	%ymm11, 1, 1
	COLUMN	%ymm12, 2, 1
	COLUMN	%ymm13, 3, 1
	COLUMN	%ymm14, 4, 1
	.p2align 5
1:	ROUND	%rdi, %rsp
	ROUND	%rsp, %rdi
	cmpq	%rcx, %rax
	jne	1b
	movq	%rbp, %rsp
	popq	%rbp
	vzeroupper
	ret
	.size	fs_keccakf1600_x8_avx2, .-fs_keccakf1600_x8_avx2

	.section .rodata
	KECCAK_YMM_CONSTS

	.section .note.GNU-stack,"",@progbits
