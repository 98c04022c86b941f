/* sha256_x16_rounds.h - the SHA-256 round macros of the 16-lane AVX-512
 * kernels (sha256_x16_avx512.S, sha256_x16_chain_avx512.S,
 * sha256_x16_lms_chain_avx512.S), in two layouts. Included by .S files only.
 *
 * Registers: a..h in zmm0..7, the 16-word message window W[t..t+15] in
 * zmm16..31 (a ring: W[t] sits in zmm16 + t%16), scratch zmm8..13 and
 * zmm15. K[t] is read from (%rax). While round t consumes W[t] it also
 * computes W[t+16] into the same register. The a..h rotation is done by
 * renaming macro arguments: 16 rounds unrolled.
 *
 * The Zen 5 layout (the default) is in sha256_x16_pipe.h: rounds
 * pipelined, the e half of the next round ahead of the a half of this one.
 * Latency: 512-bit adds, rotates and ternlogs take two cycles on Zen 5, so
 * the e chain is kept to three such steps a round: W + K + d join h off
 * the chain, Ch (ready first) is added before Sigma1; Ch and Maj go into
 * copies of e and a, their latest inputs (CH_E, MAJ_A), the lean layout's
 * into copies of g and c.
 *
 * With FS_X16_LEAN defined (meson assembles each x16 kernel a second time
 * so), RND is the port-lean layout instead and the kernels' entry points
 * get a _lean suffix: their own kernel table rows, which the measured-cost
 * plan picks between per CPU.
 */
#ifndef FASTSIG_SHA256_X16_ROUNDS_H
#define FASTSIG_SHA256_X16_ROUNDS_H

#ifdef FS_X16_LEAN
#define fs_sha256_compress_x16_avx512 fs_sha256_compress_x16_avx512_lean
#define fs_sha256_chain_x16_avx512 fs_sha256_chain_x16_avx512_lean
#define fs_lms_chain_x16_avx512 fs_lms_chain_x16_avx512_lean
#endif

/* zmm11 = sigma0(\src), sigma1(\src) of the message schedule */
.macro SIGMA0 src
	vprord		$7, \src, %zmm11
	vprord		$18, \src, %zmm12
	vpsrld		$3, \src, %zmm13
	vpternlogd	$0x96, %zmm13, %zmm12, %zmm11
.endm
.macro SIGMA1 src
	vprord		$17, \src, %zmm11
	vprord		$19, \src, %zmm12
	vpsrld		$10, \src, %zmm13
	vpternlogd	$0x96, %zmm13, %zmm12, %zmm11
.endm

/* \d = ror(\x, \r1) ^ ror(\x, \r2) ^ ror(\x, \r3): Sigma0 or Sigma1 of the
 * rounds (\t1, \t2 clobbered; by default zmm8, zmm10, zmm15: the x32
 * kernel gives each of its two states its own). \r1's rotate issues last (two rotate
 * pipes) and is the ternlog's destination, the operand with 2 cycles of
 * latency against 3: the e chain takes 7 cycles a round instead of 8 on
 * Zen 5 (8.40 against 8.66 ns per lane-block, A/B in one process). */
.macro BIGSIGMA x, r1, r2, r3, d=%zmm8, t1=%zmm10, t2=%zmm15
	vprord		$\r2, \x, \t1
	vprord		$\r3, \x, \t2
	vprord		$\r1, \x, \d
	vpternlogd	$0x96, \t2, \t1, \d
.endm

/* zmm9 = Ch(e,f,g), Maj(a,b,c), each into a copy of its last input: every
 * input of both lives on after the round (the registers that die, h and
 * d, are inputs of neither). */
.macro CH e, f, g
	vmovdqa32	\g, %zmm9
	vpternlogd	$0xd8, \e, \f, %zmm9
.endm
.macro MAJ a, b, c
	vmovdqa32	\c, %zmm9
	vpternlogd	$0xe8, \b, \a, %zmm9
.endm

/* The Zen 5 layout's Ch and Maj: into a copy of e (of a), the input that
 * comes last, as the ternlog's destination (2 cycles from it, not 3; the
 * copy is eliminated at rename): 8.25 against 8.48 ns per lane-block, A/B
 * in one process. imm8 0xca is A ? B : C with A the destination. Into
 * \d, zmm9 by default. */
.macro CH_E e, f, g, d=%zmm9
	vmovdqa32	\e, \d
	vpternlogd	$0xca, \g, \f, \d
.endm
.macro MAJ_A a, b, c, d=%zmm9
	vmovdqa32	\a, \d
	vpternlogd	$0xe8, \c, \b, \d
.endm

/* The schedule's part of a round, in two halves: \w0 = W[t] becomes
 * W[t+16] from \w1 = W[t+1], \w9 = W[t+9], \w14 = W[t+14] (\sched = 1). */
.macro SCHED_A sched, w0, w1, w9
	.if \sched
	SIGMA0	\w1
	vpaddd		\w9, \w0, \w0
	vpaddd		%zmm11, \w0, \w0
	.endif
.endm
.macro SCHED_B sched, w0, w14
	.if \sched
	SIGMA1	\w14
	vpaddd		%zmm11, \w0, \w0
	.endif
.endm

/* The layouts' rounds take the schedule's part when \sched = 1; K[t] is
 * at \koff(%rax). */
#ifdef FS_X16_LEAN
/* The port-lean layout: 7 adds (T1 = h + W + K + Ch + Sigma1 once, then
 * d += T1 and h = T1 + Maj + Sigma0), 4 ternlogs, 6 rotates and 2 copies:
 * 17 vector ALU ops a round against the Zen 5 layout's 18, for cores with
 * few 512-bit ALU ports and one-cycle adds (Intel: ports 0 and 5). The e
 * chain is 9 cycles a round on Zen 5 (T1 is whole before d += T1). */
.macro RND a, b, c, d, e, f, g, h, koff, sched, w0, w1, w9, w14
	vpaddd		\koff(%rax){1to16}, \w0, %zmm9	/* W + K, off the chains */
	vpaddd		%zmm9, \h, \h
	CH		\e, \f, \g
	BIGSIGMA	\e, 6, 11, 25
	vpaddd		%zmm9, \h, \h
	vpaddd		%zmm8, \h, \h			/* h = T1 */
	vpaddd		\h, \d, \d			/* d = d + T1 */
	SCHED_A		\sched, \w0, \w1, \w9
	MAJ		\a, \b, \c
	BIGSIGMA	\a, 2, 13, 22
	vpaddd		%zmm9, \h, \h
	SCHED_B		\sched, \w0, \w14
	vpaddd		%zmm8, \h, \h			/* h = T1 + T2 */
.endm

/* round t of 16 (t = 0..7: R0..R7), rounds 0..7 and 8..15: K[t..t+15] at
 * 0(%rax); W[t..t+15] in zmm16..31 */
.macro R0 sched
	RND %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,\sched,%zmm16,%zmm17,%zmm25,%zmm30
.endm
.macro R1 sched
	RND %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,4,\sched,%zmm17,%zmm18,%zmm26,%zmm31
.endm
.macro R2 sched
	RND %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,8,\sched,%zmm18,%zmm19,%zmm27,%zmm16
.endm
.macro R3 sched
	RND %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,12,\sched,%zmm19,%zmm20,%zmm28,%zmm17
.endm
.macro R4 sched
	RND %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,16,\sched,%zmm20,%zmm21,%zmm29,%zmm18
.endm
.macro R5 sched
	RND %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,20,\sched,%zmm21,%zmm22,%zmm30,%zmm19
.endm
.macro R6 sched
	RND %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,24,\sched,%zmm22,%zmm23,%zmm31,%zmm20
.endm
.macro R7 sched
	RND %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,28,\sched,%zmm23,%zmm24,%zmm16,%zmm21
.endm
.macro ROUNDS8_LO sched
	R0 \sched
	R1 \sched
	R2 \sched
	R3 \sched
	R4 \sched
	R5 \sched
	R6 \sched
	R7 \sched
.endm
.macro ROUNDS8_HI sched
	RND %zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,32,\sched,%zmm24,%zmm25,%zmm17,%zmm22
	RND %zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,36,\sched,%zmm25,%zmm26,%zmm18,%zmm23
	RND %zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,40,\sched,%zmm26,%zmm27,%zmm19,%zmm24
	RND %zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,44,\sched,%zmm27,%zmm28,%zmm20,%zmm25
	RND %zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,%zmm3,48,\sched,%zmm28,%zmm29,%zmm21,%zmm26
	RND %zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,%zmm2,52,\sched,%zmm29,%zmm30,%zmm22,%zmm27
	RND %zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,%zmm1,56,\sched,%zmm30,%zmm31,%zmm23,%zmm28
	RND %zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,%zmm0,60,\sched,%zmm31,%zmm16,%zmm24,%zmm29
.endm
.macro ROUNDS16 sched
	ROUNDS8_LO \sched
	ROUNDS8_HI \sched
.endm

/* a..h after round 5 to and from \off(%rsp), in the registers round 6
 * names them by (the WOTS+ prefix, sha256_x16_wots_prefix.h) */
.macro STATE_R6_STORE off
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqa32	%zmm\i, \off+64*\i(%rsp)
	.endr
.endm
.macro STATE_R6_LOAD off
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqa32	\off+64*\i(%rsp), %zmm\i
	.endr
.endm

/* The body of a local subroutine: rounds 8..63 with %rax at K and W[8..23]
 * in the ring (one shared copy per kernel: a copy per block makes the chain
 * kernels bound by instruction fetch). Clobbers %rax, %ecx. */
.macro ROUNDS_8_63_BODY
	ROUNDS8_HI 1
	addq	$64, %rax
	movl	$2, %ecx
8:	ROUNDS16 1
	addq	$64, %rax
	decl	%ecx
	jnz	8b
	ROUNDS16 0
	ret
.endm

/* 64 rounds on a..h with W[0..15] in zmm16..31; clobbers %rax, %ecx. */
.macro ROUNDS64
	leaq	fs_sha256_k(%rip), %rax
	movl	$3, %ecx
9:	ROUNDS16 1
	addq	$64, %rax
	decl	%ecx
	jnz	9b
	ROUNDS16 0
.endm
#else
#include "sha256_x16_pipe.h"
#endif

#endif
