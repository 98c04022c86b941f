/* rw_keccak_x2_dot_avx512.S - Keccak-f[1600] on 2 interleaved states (the
 * round of keccak_x2_round.h, as in keccak_x2_avx512.S) with a side job on
 * the integer pipes: two dot products of each of two 36-word vectors
 * (rw_keccak_dot_job in crypto/rw/rw_keccak_dot.h).
 *
 * C prototype:
 *   void rw_keccakf1600_x2_dot_avx512(uint64_t st[25 * 2], rw_keccak_dot_job *job);
 * Why: the permutation keeps the vector pipes busy for 24 dependent rounds
 * while the scalar multiplier and ALUs idle; 3 words of the side job per
 * round (3 bswap, 6 mulx and 18 add/adc in the same loop body: the
 * out-of-order window interleaves them) cost nothing measurable in the
 * permutation's time. RW's probabilistic verification uses it for the
 * residues of the signature's s and k while its hash runs.
 * Rounds 0..11 take x[0], rounds 12..23 x[1]; each product adds into a
 * 192-bit accumulator (rbx:rbp:r12 for w[i][0], r13:r14:r15 for w[i][1]).
 * Words 0..39 of the state are stored as 64-byte vectors (the caller reads
 * them so). No stack beyond the saved registers. Portable twin:
 * rw_keccakf1600_x2_dot_portable. */

#include "keccak_x2_round.h"

/* job layout (rw_keccak_dot_job) */
#define JOB_X0  0
#define JOB_X1  8
#define JOB_W0  16
#define JOB_W1  24
#define JOB_ACC 32

/* acc += x[j] * w[j][0..1] for j = 0, 1, 2 (x: big-endian words at %r8,
 * w at %r11), then both pointers step 3 words */
.macro DOT3
	.irp	j, 0, 1, 2
	movq	8*\j(%r8), %rdx
	bswapq	%rdx
	mulxq	16*\j(%r11), %r9, %r10
	addq	%r9, %rbx
	adcq	%r10, %rbp
	adcq	$0, %r12
	mulxq	16*\j+8(%r11), %r9, %r10
	addq	%r9, %r13
	adcq	%r10, %r14
	adcq	$0, %r15
	.endr
	addq	$24, %r8
	addq	$48, %r11
.endm

/* 12 rounds with DOT3 over the vector at \xoff(%rsi), weights at
 * \woff(%rsi), into acc words at \aoff(%rsi) (two 3-word accumulators) */
.macro HALF xoff, woff, aoff
	movq	\xoff(%rsi), %r8
	movq	\woff(%rsi), %r11
	xorl	%ebx, %ebx
	xorl	%ebp, %ebp
	xorl	%r12d, %r12d
	xorl	%r13d, %r13d
	xorl	%r14d, %r14d
	xorl	%r15d, %r15d
	leaq	12*8(%rax), %rcx
	.p2align 5
1:
	KECCAK_X2_ROUND
	DOT3
	addq	$8, %rax
	cmpq	%rcx, %rax
	jne	1b
	movq	%rbx, \aoff(%rsi)
	movq	%rbp, \aoff+8(%rsi)
	movq	%r12, \aoff+16(%rsi)
	movq	%r13, \aoff+24(%rsi)
	movq	%r14, \aoff+32(%rsi)
	movq	%r15, \aoff+40(%rsi)
.endm

/* xmm a, b, c, d (consecutive) to 64 bytes at 16*a(%rdi), built in zmm a */
.macro STORE4 a, b, c, d
	vinserti64x2	$1, %xmm\b, %ymm\a, %ymm\a
	vinserti64x2	$1, %xmm\d, %ymm\c, %ymm\c
	vinserti64x4	$1, %ymm\c, %zmm\a, %zmm\a
	vmovdqu64	%zmm\a, 16*\a(%rdi)
.endm

	.text
	.globl	rw_keccakf1600_x2_dot_avx512
	.hidden	rw_keccakf1600_x2_dot_avx512
	.type	rw_keccakf1600_x2_dot_avx512, @function
	.hidden	fs_keccak_rc
	.p2align 5
rw_keccakf1600_x2_dot_avx512:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	.irp	i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
	vmovdqu64	16*\i(%rdi), %xmm\i
	.endr
	leaq	fs_keccak_rc(%rip), %rax
	HALF	JOB_X0, JOB_W0, JOB_ACC
	HALF	JOB_X1, JOB_W1, JOB_ACC+48
	/* words 0..39 as five 64-byte stores, so that the caller's 64-byte
	 * loads of them forward from the store buffer */
	STORE4	0, 1, 2, 3
	STORE4	4, 5, 6, 7
	STORE4	8, 9, 10, 11
	STORE4	12, 13, 14, 15
	STORE4	16, 17, 18, 19
	.irp	i, 20,21,22,23,24
	vmovdqu64	%xmm\i, 16*\i(%rdi)
	.endr
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	rw_keccakf1600_x2_dot_avx512, .-rw_keccakf1600_x2_dot_avx512

	.section .note.GNU-stack,"",@progbits
