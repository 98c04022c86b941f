/* sha256_x16_chain_avx512.S - WOTS+ chain steps of SHA-256 with n = 32
 * (RFC 8391 chaining, the PRF of NIST SP 800-208) for 16 chains at once,
 * kept in words from step to step: no byte rows, transposes or byte swaps,
 * no digests written out between the four compressions of a step.
 *
 * C prototype (crypto/hash/sha256_chain.h, fs_chain_fn, row FS_CHAIN_WOTS):
 *   void fs_sha256_chain_x16_avx512(uint32_t x[8 * 16], uint32_t adrs[7 * 16],
 *                                   const uint32_t mid[8], size_t steps, unsigned n);
 * n (always 32 here) is not read.
 * Word i of lane l is at x[i*16 + l] (and adrs[i*16 + l]): SHA-256 words,
 * big-endian bytes read as integers. adrs holds ADRS words 0..6; word 6,
 * the hash address, is advanced by one after each step. mid is the PRF
 * midstate after toByte(3, 32) || PUB_SEED. One step, per lane:
 *   KEY = PRF(ADRS, keyAndMask 0), BM = PRF(ADRS, keyAndMask 1)  (a block each)
 *   x = SHA-256(toByte(0, 32) || KEY || x ^ BM)                   (two blocks)
 * Rounds: sha256_x16_rounds.h; every block's rounds 8..63 run through one
 * shared copy of their code (a local subroutine), F's first block starts at
 * round 8 and the PRF blocks at round 6 (their first rounds see only mid and
 * ADRS words 0..5, fixed for a call). KEY, F's middle state and the PRF
 * prefix wait on the stack (public values: PRFs of PUB_SEED); x ^ BM waits
 * in x itself. No alignment needed for x, adrs or mid. Portable twin:
 * fs_sha256_chain_x16_portable. */

	.text

/* The Zen 5 row's kernel is sha256_x16_chain_pair_avx512.S, which calls
 * this one for calls of fewer than 4 steps; the port-lean row is this one. */
#ifndef FS_X16_LEAN
#define fs_sha256_chain_x16_avx512 fs_sha256_chain_x16_avx512_one
#endif
#include "sha256_x16_rounds.h"
#include "sha256_x16_wots_prefix.h"

/* W[16..23] of F's first block, whose W[0..7] are zero:
 * W[t+16] = W[t+9] + sigma1(W[t+14]) for t < 7, and
 * W[23] = sigma0(W[8]) + W[16] + sigma1(W[21]) (into the W[t] registers) */
.macro F1_SCHED_ZEROS
	SIGMA1	%zmm30
	vpaddd	%zmm25, %zmm11, %zmm16
	SIGMA1	%zmm31
	vpaddd	%zmm26, %zmm11, %zmm17
	SIGMA1	%zmm16
	vpaddd	%zmm27, %zmm11, %zmm18
	SIGMA1	%zmm17
	vpaddd	%zmm28, %zmm11, %zmm19
	SIGMA1	%zmm18
	vpaddd	%zmm29, %zmm11, %zmm20
	SIGMA1	%zmm19
	vpaddd	%zmm30, %zmm11, %zmm21
	SIGMA1	%zmm20
	vpaddd	%zmm31, %zmm11, %zmm22
	SIGMA1	%zmm21
	vpaddd	%zmm16, %zmm11, %zmm23
	SIGMA0	%zmm24
	vpaddd	%zmm11, %zmm23, %zmm23
.endm

/* Rounds 8..63 with %rax at K: a call to the one copy of their code (the
 * kernel is bound by instruction fetch when each block has its own copy:
 * 37.6 against 45 ns per lane-step measured). Clobbers %rax, %ecx. */
.macro ROUNDS_8_63
	call	.Lrounds_8_63
.endm

/* a..h = PRF(ADRS words 0..6 || \km) on mid, fed forward: from round 6 */
.macro PRF km
	STATE_R6_LOAD	PRE
	.irp	j, 16,17,18,19,20
	vmovdqa32	PRE+512+64*(\j-16)(%rsp), %zmm\j
	.endr
	vmovdqu32	64*6(%rsi), %zmm22			/* W[6], the hash address */
	SIGMA0	%zmm22
	vpaddd		PRE+512+320(%rsp), %zmm11, %zmm21	/* W[21] */
	.if \km
	vpbroadcastd	.Lone(%rip), %zmm23
	.else
	WZERO	%zmm23
	.endif
	WPAD96
	leaq	fs_sha256_k(%rip), %rax
	R6 1
	R7 1
	ROUNDS_8_63
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd		4*\i(%rdx){1to16}, %zmm\i, %zmm\i
	.endr
.endm

	.globl	fs_sha256_chain_x16_avx512
	.hidden	fs_sha256_chain_x16_avx512
	.type	fs_sha256_chain_x16_avx512, @function
	.hidden	fs_sha256_k
	.hidden	fs_sha256_iv
	.p2align 5
fs_sha256_chain_x16_avx512:
	testq	%rcx, %rcx
	jz	3f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$1984, %rsp
	andq	$-64, %rsp		/* KEY at 0(%rsp), F's middle state at 512(%rsp), PRE */
	movq	%rcx, %r8		/* the rounds take %rax and %ecx */
	PRF_PREFIX
2:	PRF 0
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqa32	%zmm\i, 64*\i(%rsp)
	.endr
	PRF 1				/* BM: x ^= BM in place */
	.irp	i, 0,1,2,3,4,5,6,7
	vpxord		64*\i(%rdi), %zmm\i, %zmm\i
	vmovdqu32	%zmm\i, 64*\i(%rdi)
	.endr
	/* F, first block: toByte(0, 32) || KEY on the IV. Its first 8 rounds
	 * see only zeros and the IV: they start from their constant result. */
	.irp	j, 24,25,26,27,28,29,30,31
	vmovdqa32	64*(\j-24)(%rsp), %zmm\j
	.endr
	F1_SCHED_ZEROS
	.irp	i, 0,1,2,3,4,5,6,7
	vpbroadcastd	.Lf1_round8+4*\i(%rip), %zmm\i
	.endr
	leaq	fs_sha256_k(%rip), %rax
	ROUNDS_8_63
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd		fs_sha256_iv+4*\i(%rip){1to16}, %zmm\i, %zmm\i
	vmovdqa32	%zmm\i, 512+64*\i(%rsp)
	.endr
	/* F, second block: x ^ BM || padding */
	LOADW	%rdi, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	WPAD96
	leaq	fs_sha256_k(%rip), %rax
	ROUNDS8_LO 1
	ROUNDS_8_63
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd		512+64*\i(%rsp), %zmm\i, %zmm\i
	vmovdqu32	%zmm\i, 64*\i(%rdi)
	.endr
	/* the next step's hash address */
	vpbroadcastd	.Lone(%rip), %zmm8
	vpaddd		64*6(%rsi), %zmm8, %zmm8
	vmovdqu32	%zmm8, 64*6(%rsi)
	decq	%r8
	jnz	2b
	/* chain values (secret when signing) leave no copy in registers */
	WZERO	%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	WZERO	%zmm24, %zmm25, %zmm26, %zmm27, %zmm28, %zmm29, %zmm30, %zmm31
	movq	%rbp, %rsp
	popq	%rbp
	vzeroall
3:	ret
	.size	fs_sha256_chain_x16_avx512, .-fs_sha256_chain_x16_avx512

	.p2align 5
.Lrounds_8_63:
	ROUNDS_8_63_BODY

	.section .rodata
	.p2align 2
.Lpad80:
	.long	0x80000000
.Lbits768:
	.long	768
.Lone:
	.long	1
	.p2align 5
.Lf1_round8:	/* a..h after rounds 0..7 of SHA-256 on the IV with W[0..7] = 0 */
	.long	0x5e498fb3, 0x965ecae2, 0x6bb2da87, 0x489fc27e
	.long	0x9426ec60, 0x79c76dda, 0x9d120f96, 0x2cab14aa

	.section .note.GNU-stack,"",@progbits
