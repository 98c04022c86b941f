/* sha256_x32_avx512.S - SHA-256 compression of 32 independent messages
 * (AVX-512F/BW): two 16-lane states interleaved round by round.
 *
 * C prototype (crypto/hash/sha256.h):
 *   void fs_sha256_compress_x32_avx512(uint32_t st[8 * 32],
 *                                      const uint8_t *const in[32], size_t nblocks);
 * Word i of lane l is st[i*32 + l]: lanes 0..15 of word i are one zmm
 * (set A), lanes 16..31 the next (set B). Lane l reads in[l][0 .. 64*nblocks);
 * no alignment needed.
 *
 * Why: the x16 kernel's round is bound by the latency of its e and a chains
 * (doc/performance.md section 5), not by the vector ports; a second,
 * independent state issued between the first one's steps fills the idle
 * cycles. Both states' a..h take 16 registers (A in zmm0..7, B in
 * zmm16..23), so the message schedules live in two 16-word rings on the
 * stack (W[t] in slot t%16; round t reads it and writes W[t+16] there),
 * addressed by half (%r10 this pass's 8 slots, %r11 the other 8) so that
 * one 8-round pass of code serves every round, its schedule steps skipped
 * in the last two passes by a branch on the pass count (5 KiB of code, not 14).
 * Round scratch: A zmm8..15, B zmm24..31. The round is the Zen 5 layout of
 * sha256_x16_rounds.h, its Sigma, Ch and Maj macros on each state's scratch. Each block is transposed like the x16 kernel's
 * (16 rows at a time into zmm16..31) and stored to the rings before the
 * state is loaded. Constant-time: no branch or address depends on data.
 * Portable twin: fs_sha256_compress_x32_portable. */

	.text

#include "sha256_x16_rounds.h"
#include "transpose_d4.h"
#include "stack_wipe.h"

/* W[0..15] of lanes 0..15 of in (%rsi) into the ring at (%r10): row l
 * (lane l's block at offset %r8) loaded into zmm16+l, transposed so that
 * zmm16+j = W[j], byte-swapped (mask in zmm12), stored. */
.macro LOAD16
	LOAD_TRANSPOSE16 0, %r9
	.irp	j, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpshufb		%zmm12, %zmm\j, %zmm\j
	vmovdqa32	%zmm\j, 64*(\j-16)(%r10)
	.endr
.endm

/* The first half of round t for one state: h + W + K into d (e' but for
 * its e terms) and h, then Ch and Sigma1 added to both (d = d + T1, h = T1).
 * \w is W[t]'s offset from %r10, \k K[t]'s offset from %rax; \sg \cm \t1 \t2 scratch. */
.macro HALF_E a, b, c, d, e, f, g, h, w, k, sg, cm, t1, t2
	vpaddd		\w(%r10), \h, \h
	vpaddd		\k(%rax){1to16}, \h, \h
	vpaddd		\h, \d, \d
	CH_E		\e, \f, \g, \cm
	BIGSIGMA	\e, 6, 11, 25, \sg, \t1, \t2	/* Sigma1(e) */
	vpaddd		\cm, \d, \d
	vpaddd		\cm, \h, \h
	vpaddd		\sg, \d, \d
	vpaddd		\sg, \h, \h
.endm

/* The second half: Maj and Sigma0(a) added to h (h = T1 + T2). */
.macro HALF_A a, b, c, h, sg, cm, t1, t2
	MAJ_A		\a, \b, \c, \cm
	BIGSIGMA	\a, 2, 13, 22, \sg, \t1, \t2	/* Sigma0(a) */
	vpaddd		\cm, \h, \h
	vpaddd		\sg, \h, \h
.endm

/* W[t+16] = sigma1(W[t+14]) + W[t+9] + sigma0(W[t+1]) + W[t] into W[t]'s
 * slot (t = \u of an 8-round pass) of the ring at \ring, when \sched = 1.
 * Slot t%16 of the pass's half of the ring is at \ring + 64*\u(%r10), the
 * other half's at (%r11): t+1 and t+9 cross into it from \u = 7 and 0,
 * t+14 before \u = 2. */
.macro SCHED32 sched, u, ring, s0, s1, s2, acc
	.if \sched
	jbe	7f				/* the last 16 rounds: no schedule */
	.if \u < 7
	vmovdqa32	\ring+64*(\u+1)(%r10), \s2
	.else
	vmovdqa32	\ring(%r11), \s2
	.endif
	vprord		$7, \s2, \acc
	vprord		$18, \s2, \s1
	vpsrld		$3, \s2, \s2
	vpternlogd	$0x96, \s2, \s1, \acc		/* sigma0(W[t+1]) */
	vpaddd		\ring+64*\u(%r10), \acc, \acc
	.if \u < 7
	vpaddd		\ring+64*(\u+1)(%r11), \acc, \acc
	.else
	vpaddd		\ring(%r10), \acc, \acc
	.endif
	.if \u >= 2
	vmovdqa32	\ring+64*(\u-2)(%r10), \s2
	.else
	vmovdqa32	\ring+64*(\u+6)(%r11), \s2
	.endif
	vprord		$17, \s2, \s0
	vprord		$19, \s2, \s1
	vpsrld		$10, \s2, \s2
	vpternlogd	$0x96, \s2, \s1, \s0		/* sigma1(W[t+14]) */
	vpaddd		\s0, \acc, \acc
	vmovdqa32	\acc, \ring+64*\u(%r10)
7:
	.endif
.endm

#define RING_A 0
#define RING_B 1024

/* Round \u (0..7) of an 8-round pass of both states: the two first halves,
 * then each second half with its schedule step. */
.macro RND2 u, sched, a, b, c, d, e, f, g, h, A, B, C, D, E, F, G, H
	HALF_E	\a,\b,\c,\d,\e,\f,\g,\h, RING_A+64*\u, 4*\u, %zmm8, %zmm9, %zmm10, %zmm15
	HALF_E	\A,\B,\C,\D,\E,\F,\G,\H, RING_B+64*\u, 4*\u, %zmm24, %zmm25, %zmm26, %zmm27
	HALF_A	\a,\b,\c,\h, %zmm8, %zmm9, %zmm10, %zmm15
	SCHED32	\sched, \u, RING_A, %zmm11, %zmm12, %zmm13, %zmm14
	HALF_A	\A,\B,\C,\H, %zmm24, %zmm25, %zmm26, %zmm27
	SCHED32	\sched, \u, RING_B, %zmm28, %zmm29, %zmm30, %zmm31
.endm

/* 8 rounds (the a..h renaming repeats every 8), %rax at their K, %r10 at
 * their half of each ring, %r11 at the other half; then both advanced.
 * The flags come set by the caller: "below or equal" skips the schedule
 * steps (no vector instruction writes them). One pass of code for every 8
 * rounds keeps the kernel small: with 16 rounds unrolled twice (with and
 * without the schedule) it was 14 KiB and ran from the decoders after the
 * lane engine's own code between calls (doc/performance.md section 5). */
.macro ROUNDS8_X32 sched
	RND2	0, \sched, %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7, %zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23
	RND2	1, \sched, %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6, %zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22
	RND2	2, \sched, %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5, %zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21
	RND2	3, \sched, %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4, %zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20
	RND2	4, \sched, %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3, %zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19
	RND2	5, \sched, %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2, %zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18
	RND2	6, \sched, %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1, %zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17
	RND2	7, \sched, %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0, %zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16
	addq	$32, %rax
	xchgq	%r10, %r11
.endm

	.globl	fs_sha256_compress_x32_avx512
	.hidden	fs_sha256_compress_x32_avx512
	.type	fs_sha256_compress_x32_avx512, @function
	.hidden	fs_sha256_k
	.p2align 5
fs_sha256_compress_x32_avx512:
	testq	%rdx, %rdx
	jz	3f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$2048, %rsp			/* the two rings */
	andq	$-64, %rsp
	xorl	%r8d, %r8d			/* offset of the block in every lane */
1:	vbroadcasti32x4	.Lbswap32_x32(%rip), %zmm12
	movq	%rsp, %r10
	movl	$2, %ecx
5:	LOAD16					/* lanes 0..15 into ring A, then 16..31 into B */
	addq	$128, %rsi
	addq	$RING_B, %r10
	decl	%ecx
	jnz	5b
	subq	$256, %rsi
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu32	128*\i(%rdi), %zmm\i
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vmovdqu32	128*(\i-16)+64(%rdi), %zmm\i
	.endr
	leaq	fs_sha256_k(%rip), %rax
	movq	%rsp, %r10			/* slots 0..7 of each ring */
	leaq	512(%rsp), %r11			/* slots 8..15 */
	movl	$8, %ecx
2:	cmpl	$2, %ecx			/* flags for the pass's schedule steps */
	ROUNDS8_X32 1
	decl	%ecx
	jnz	2b
	/* feed forward: st holds the state the block started from */
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd		128*\i(%rdi), %zmm\i, %zmm\i
	vmovdqu32	%zmm\i, 128*\i(%rdi)
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vpaddd		128*(\i-16)+64(%rdi), %zmm\i, %zmm\i
	vmovdqu32	%zmm\i, 128*(\i-16)+64(%rdi)
	.endr
	addq	$64, %r8
	decq	%rdx
	jnz	1b
	/* the rings hold the last block's W[48..63] (stack_wipe.h) */
	WIPE_STACK	%zmm8, 2048, %rax
	movq	%rbp, %rsp
	popq	%rbp
	vzeroupper
3:	ret
	.size	fs_sha256_compress_x32_avx512, .-fs_sha256_compress_x32_avx512

	.section .rodata
	.p2align 4
.Lbswap32_x32:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

	.section .note.GNU-stack,"",@progbits
