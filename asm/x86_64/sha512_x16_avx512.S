/* sha512_x16_avx512.S - SHA-512 compression of 16 independent messages
 * (AVX-512F/BW): two 8-lane states interleaved round by round.
 *
 * C prototype (crypto/hash/sha512.h):
 *   void fs_sha512_compress_x16_avx512(uint64_t st[8 * 16],
 *                                      const uint8_t *const in[16], size_t nblocks);
 * Word i of lane l is st[i*16 + l]: lanes 0..7 of word i are one zmm
 * (state A), lanes 8..15 the next (state B). Lane l reads
 * in[l][0 .. 128*nblocks); no alignment needed.
 *
 * Why: the x8 kernel's round is bound by the latency of its e and a chains
 * (doc/performance.md sections 5 and 10), not by the vector ports; a
 * second, independent state issued between the first one's steps fills the
 * idle cycles (the shape of the SHA-256 x32 kernel, sha256_x32_avx512.S).
 * Both states' a..h take 16 registers (A in zmm0..7, B in zmm16..23), so
 * the message schedules live in two 16-word rings on the stack (W[t] in
 * slot t%16; round t reads it and writes W[t+16] there). Round scratch: A
 * zmm8..15, B zmm24..31. With two states the vector ALU binds, not a
 * chain, so the round is the port-lean one (7 adds: T1 into h, then
 * d += T1), A's and B's instructions alternating, the schedule between the
 * e half and the a half (A/B in one process on Zen 5, ns per lane-block:
 * 17.70 against 17.93 for the halves of A then B as in the x32 kernel, the
 * x8 kernel 20.52; in another run 18.29 against 19.33 for the x8 kernel's
 * 9-add round in the same pair).
 * Each block is read as rows of 8 words per lane, transposed 8x8 like the
 * x8 kernel's, byte-swapped and stored to the rings before the state is
 * loaded. Constant-time: no branch or address depends on data.
 * Portable twin: fs_sha512_compress_x16_portable. */

	.text

#include "transpose_q8_avx512.h"
#include "stack_wipe.h"

#define RING_A 0
#define RING_B 1024

/* W[t+16] = sigma1(W[t+14]) + W[t+9] + sigma0(W[t+1]) + W[t] into W[t]'s
 * slot of the ring at \ring (t = \t mod 16), when \sched = 1. */
.macro SCHED64 sched, t, ring, s0, s1, s2, acc
	.if \sched
	vmovdqa64	\ring+64*((\t+1)&15)(%rsp), \s2
	vprorq		$1, \s2, \acc
	vprorq		$8, \s2, \s1
	vpsrlq		$7, \s2, \s2
	vpternlogq	$0x96, \s2, \s1, \acc		/* sigma0(W[t+1]) */
	vpaddq		\ring+64*(\t&15)(%rsp), \acc, \acc
	vpaddq		\ring+64*((\t+9)&15)(%rsp), \acc, \acc
	vmovdqa64	\ring+64*((\t+14)&15)(%rsp), \s2
	vprorq		$19, \s2, \s0
	vprorq		$61, \s2, \s1
	vpsrlq		$6, \s2, \s2
	vpternlogq	$0x96, \s2, \s1, \s0		/* sigma1(W[t+14]) */
	vpaddq		\s0, \acc, \acc
	vmovdqa64	\acc, \ring+64*(\t&15)(%rsp)
	.endif
.endm

/* For both states (A: \x, \y, \z into \h; B: \X, \Y, \Z into \H), their
 * instructions alternating: \h += ternlog \imm of (\x, \y, \z) + Sigma
 * (rotates \r1, \r2, \r3) of \x. The rotates come first: they have two
 * pipes of the four, and issued before the ternlog they start the chain
 * sooner (2% per block, A/B in one process on Zen 5). The ternlog goes
 * into a copy of \x, its latest input, as the destination (Ch of e, f, g;
 * Maj of a, b, c); \r1's rotate issues last and is the Sigma ternlog's
 * destination (2 cycles from it, not 3). Scratch: A zmm8, 9, 10, 15; B
 * zmm24..27. */
.macro FN_SIGMA2 imm, r1, r2, r3, x, y, z, h, X, Y, Z, H
	vprorq		$\r2, \x, %zmm10
	vprorq		$\r2, \X, %zmm26
	vprorq		$\r3, \x, %zmm15
	vprorq		$\r3, \X, %zmm27
	vprorq		$\r1, \x, %zmm8
	vprorq		$\r1, \X, %zmm24
	vmovdqa64	\x, %zmm9
	vmovdqa64	\X, %zmm25
	vpternlogq	\imm, \z, \y, %zmm9
	vpternlogq	\imm, \Z, \Y, %zmm25
	vpternlogq	$0x96, %zmm15, %zmm10, %zmm8
	vpternlogq	$0x96, %zmm27, %zmm26, %zmm24
	vpaddq		%zmm9, \h, \h
	vpaddq		%zmm25, \H, \H
	vpaddq		%zmm8, \h, \h
	vpaddq		%zmm24, \H, \H
.endm

/* Round t (0..15 of a 16-round pass) of both states (A: \a..\h, B:
 * \A..\H): h += W + K + Ch(e,f,g) + Sigma1(e) (T1), d += T1; the schedule
 * steps (rounds 0..63: W[t+16] of both rings, scratch A zmm11..14, B
 * zmm28..31); h += Maj(a,b,c) + Sigma0(a). */
.macro RND2 t, sched, a, b, c, d, e, f, g, h, A, B, C, D, E, F, G, H
	vpaddq		RING_A+64*\t(%rsp), \h, \h
	vpaddq		RING_B+64*\t(%rsp), \H, \H
	vpaddq		8*\t(%rax){1to8}, \h, \h
	vpaddq		8*\t(%rax){1to8}, \H, \H	/* h + W + K */
	FN_SIGMA2	$0xca, 14, 18, 41, \e, \f, \g, \h, \E, \F, \G, \H	/* h = T1 */
	vpaddq		\h, \d, \d
	vpaddq		\H, \D, \D			/* d = d + T1 */
	SCHED64	\sched, \t, RING_A, %zmm11, %zmm12, %zmm13, %zmm14
	SCHED64	\sched, \t, RING_B, %zmm28, %zmm29, %zmm30, %zmm31
	FN_SIGMA2	$0xe8, 28, 34, 39, \a, \b, \c, \h, \A, \B, \C, \H	/* h = T1 + T2 */
.endm

/* 16 rounds: K[t..t+15] at 0(%rax); the states' register names rotate by
 * one each round */
.macro ROUNDS16_X16 sched
	RND2	0, \sched, %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7, %zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23
	RND2	1, \sched, %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6, %zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22
	RND2	2, \sched, %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5, %zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21
	RND2	3, \sched, %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4, %zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20
	RND2	4, \sched, %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3, %zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19
	RND2	5, \sched, %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2, %zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18
	RND2	6, \sched, %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1, %zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17
	RND2	7, \sched, %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0, %zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16
	RND2	8, \sched, %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7, %zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23
	RND2	9, \sched, %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6, %zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22
	RND2	10, \sched, %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5, %zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21
	RND2	11, \sched, %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4, %zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19,%zmm20
	RND2	12, \sched, %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3, %zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18,%zmm19
	RND2	13, \sched, %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2, %zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17,%zmm18
	RND2	14, \sched, %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1, %zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16,%zmm17
	RND2	15, \sched, %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0, %zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23,%zmm16
.endm

/* W[0..15] of lanes \first..\first+7 into the ring at \ring(%rsp): two
 * rows of 8 words per lane (offsets 0 and 64 of its block at %r8) loaded
 * into zmm16..23, transposed into zmm24..31 (word j of the 8 lanes),
 * byte-swapped (mask in zmm15), stored. */
.macro LOAD8 first, ring
	.irp	half, 0, 1
	.irp	l, 16,17,18,19,20,21,22,23
	movq		8*(\first+\l-16)(%rsi), %r9
	vmovdqu64	64*\half(%r9,%r8), %zmm\l
	.endr
	TRANSPOSE8 %zmm16,%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23, %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31
	.irp	j, 24,25,26,27,28,29,30,31
	vpshufb		%zmm15, %zmm\j, %zmm\j
	vmovdqa64	%zmm\j, \ring+512*\half+64*(\j-24)(%rsp)
	.endr
	.endr
.endm

	.globl	fs_sha512_compress_x16_avx512
	.hidden	fs_sha512_compress_x16_avx512
	.type	fs_sha512_compress_x16_avx512, @function
	.hidden	fs_sha512_k
	.p2align 5
fs_sha512_compress_x16_avx512:
	testq	%rdx, %rdx
	jz	3f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$2048, %rsp			/* the two rings */
	andq	$-64, %rsp
	xorl	%r8d, %r8d			/* offset of the block in every lane */
1:	vbroadcasti32x4	.Lbswap64_x16(%rip), %zmm15
	LOAD8	0, RING_A
	LOAD8	8, RING_B
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu64	128*\i(%rdi), %zmm\i
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vmovdqu64	128*(\i-16)+64(%rdi), %zmm\i
	.endr
	leaq	fs_sha512_k(%rip), %rax
	movl	$4, %ecx
2:	ROUNDS16_X16 1
	addq	$128, %rax
	decl	%ecx
	jnz	2b
	ROUNDS16_X16 0
	/* feed forward: st holds the state the block started from */
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddq		128*\i(%rdi), %zmm\i, %zmm\i
	vmovdqu64	%zmm\i, 128*\i(%rdi)
	.endr
	.irp	i, 16,17,18,19,20,21,22,23
	vpaddq		128*(\i-16)+64(%rdi), %zmm\i, %zmm\i
	vmovdqu64	%zmm\i, 128*(\i-16)+64(%rdi)
	.endr
	addq	$128, %r8
	decq	%rdx
	jnz	1b
	/* the rings hold the last block's W[64..79] (stack_wipe.h) */
	WIPE_STACK	%zmm8, 2048, %rax
	movq	%rbp, %rsp
	popq	%rbp
	vzeroupper
3:	ret
	.size	fs_sha512_compress_x16_avx512, .-fs_sha512_compress_x16_avx512

	.section .rodata
	.p2align 4
.Lbswap64_x16:
	.byte	7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8

	.section .note.GNU-stack,"",@progbits
