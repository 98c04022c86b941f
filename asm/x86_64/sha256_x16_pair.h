/* sha256_x16_pair.h - two 16-lane SHA-256 states round by round, for the
 * WOTS+ chain kernel (sha256_x16_chain_pair_avx512.S), whose blocks pair
 * up, and the LM-OTS one of two groups (sha256_x32_lms_chain_avx512.S): one x16 state's rounds are bound by their latency (the e and a
 * chains); a second, independent state fills the pipes the first leaves
 * idle. Included by .S files only.
 *
 * Registers: state A in zmm0..7 (scratch zmm8, 9, 10, 15), state B in
 * zmm16..23 (scratch zmm24..27). The message windows do not fit beside
 * them: W lives in two stack arrays of 64 rows of 16 lanes (W[t] of A at
 * 64*t(%r9) while %r9 is at the array's row 0 during rounds 0..7, B's
 * 4096 bytes further), K[t] at 4*t(%rax). Round t also computes W[t+16]
 * of both arrays (rounds 0..47) from memory and from W[t+14], which stays
 * in a register (A's in zmm28, zmm29, B's in zmm30, zmm31: even and odd
 * rounds), scratch zmm11..14. Two states side by side are bound by the
 * vector ALU, not by a state's e chain, so the round is the port-lean one
 * (7 adds: T1 once, then d += T1; sha256_x16_rounds.h), with Ch and Maj
 * into copies of e and a and W from memory; A's and B's instructions
 * alternate. Measured in one process on Zen 5, the whole WOTS+ kernel:
 * this round 26.8-27.1 ns per lane-step, the Zen 5 layout's 9-add round
 * 27.8-28.2, and A's round then B's (not alternating) 1% slower.
 */
#ifndef FASTSIG_SHA256_X16_PAIR_H
#define FASTSIG_SHA256_X16_PAIR_H

#define PAIR_B 4096	/* B's schedule array after A's */

/* one round of both states (A: \a1.., B: \a2..), W from \w1, \w2 and K
 * from \k1, \k2, their instructions alternating: h += W + K + Ch + Sigma1
 * (T1), d += T1, h += Maj + Sigma0 */
.macro RND2 a1, b1, c1, d1, e1, f1, g1, h1, w1, k1, s81, s91, s101, s151, \
	a2, b2, c2, d2, e2, f2, g2, h2, w2, k2, s82, s92, s102, s152
	vpaddd		\w1, \h1, \h1
	vpaddd		\w2, \h2, \h2
	vpaddd		\k1{1to16}, \h1, \h1
	vpaddd		\k2{1to16}, \h2, \h2	/* h + W + K */
	vmovdqa32	\e1, \s91
	vmovdqa32	\e2, \s92	/* Ch into a copy of e */
	vpternlogd	$0xca, \g1, \f1, \s91
	vpternlogd	$0xca, \g2, \f2, \s92
	vprord		$11, \e1, \s101
	vprord		$11, \e2, \s102
	vprord		$25, \e1, \s151
	vprord		$25, \e2, \s152
	vprord		$6, \e1, \s81
	vprord		$6, \e2, \s82
	vpternlogd	$0x96, \s151, \s101, \s81
	vpternlogd	$0x96, \s152, \s102, \s82	/* Sigma1 */
	vpaddd		\s91, \h1, \h1
	vpaddd		\s92, \h2, \h2
	vpaddd		\s81, \h1, \h1
	vpaddd		\s82, \h2, \h2	/* h = T1 */
	vpaddd		\h1, \d1, \d1
	vpaddd		\h2, \d2, \d2	/* d = d + T1 */
	vmovdqa32	\a1, \s91
	vmovdqa32	\a2, \s92	/* Maj into a copy of a */
	vpternlogd	$0xe8, \c1, \b1, \s91
	vpternlogd	$0xe8, \c2, \b2, \s92
	vprord		$13, \a1, \s101
	vprord		$13, \a2, \s102
	vprord		$22, \a1, \s151
	vprord		$22, \a2, \s152
	vprord		$2, \a1, \s81
	vprord		$2, \a2, \s82
	vpternlogd	$0x96, \s151, \s101, \s81
	vpternlogd	$0x96, \s152, \s102, \s82	/* Sigma0 */
	vpaddd		\s91, \h1, \h1
	vpaddd		\s92, \h2, \h2
	vpaddd		\s81, \h1, \h1
	vpaddd		\s82, \h2, \h2	/* h = T1 + T2 */
.endm

/* W[t+16] = W[t] + sigma0(W[t+1]) + W[t+9] + sigma1(W[t+14]) in round t
 * = \i of 8, into \w14 (W[t+14]) and its row; \off selects the array */
.macro SCHR i, off, w14
	vmovdqa32	\off+64*(\i+1)(%r9), %zmm14
	vprord		$7, %zmm14, %zmm12
	vprord		$18, %zmm14, %zmm13
	vpsrld		$3, %zmm14, %zmm14
	vpternlogd	$0x96, %zmm13, %zmm12, %zmm14	/* sigma0(W[t+1]) */
	vpaddd		\off+64*\i(%r9), %zmm14, %zmm14
	vpaddd		\off+64*(\i+9)(%r9), %zmm14, %zmm14
	vprord		$17, \w14, %zmm11
	vprord		$19, \w14, %zmm12
	vpsrld		$10, \w14, %zmm13
	vpternlogd	$0x96, %zmm13, %zmm12, %zmm11	/* sigma1(W[t+14]) */
	vpaddd		%zmm14, %zmm11, \w14
	vmovdqa32	\w14, \off+64*(\i+16)(%r9)
.endm

/* round \i of 8 on both states (\a..\h name A's registers by number,
 * \a2..\h2 B's), with W[t+16] of both arrays into \wa, \wb when \sched = 1 */
.macro RPAIR i, sched, wa, wb, a, b, c, d, e, f, g, h, a2, b2, c2, d2, e2, f2, g2, h2
	RND2	%zmm\a, %zmm\b, %zmm\c, %zmm\d, %zmm\e, %zmm\f, %zmm\g, %zmm\h, \
		64*\i(%r9), 4*\i(%rax), %zmm8, %zmm9, %zmm10, %zmm15, \
		%zmm\a2, %zmm\b2, %zmm\c2, %zmm\d2, %zmm\e2, %zmm\f2, %zmm\g2, %zmm\h2, \
		PAIR_B+64*\i(%r9), 4*\i(%rax), %zmm24, %zmm25, %zmm26, %zmm27
	.if \sched
	SCHR	\i, 0, \wa
	SCHR	\i, PAIR_B, \wb
	.endif
.endm

/* the states' register names rotate by one each round */
.macro RPAIR0 sched
	RPAIR 0, \sched, %zmm28, %zmm30, 0,1,2,3,4,5,6,7, 16,17,18,19,20,21,22,23
.endm
.macro RPAIR1 sched
	RPAIR 1, \sched, %zmm29, %zmm31, 7,0,1,2,3,4,5,6, 23,16,17,18,19,20,21,22
.endm
.macro RPAIR2 sched
	RPAIR 2, \sched, %zmm28, %zmm30, 6,7,0,1,2,3,4,5, 22,23,16,17,18,19,20,21
.endm
.macro RPAIR3 sched
	RPAIR 3, \sched, %zmm29, %zmm31, 5,6,7,0,1,2,3,4, 21,22,23,16,17,18,19,20
.endm
.macro RPAIR4 sched
	RPAIR 4, \sched, %zmm28, %zmm30, 4,5,6,7,0,1,2,3, 20,21,22,23,16,17,18,19
.endm
.macro RPAIR5 sched
	RPAIR 5, \sched, %zmm29, %zmm31, 3,4,5,6,7,0,1,2, 19,20,21,22,23,16,17,18
.endm
.macro RPAIR6 sched
	RPAIR 6, \sched, %zmm28, %zmm30, 2,3,4,5,6,7,0,1, 18,19,20,21,22,23,16,17
.endm
.macro RPAIR7 sched
	RPAIR 7, \sched, %zmm29, %zmm31, 1,2,3,4,5,6,7,0, 17,18,19,20,21,22,23,16
.endm
.macro RPAIR8 sched
	RPAIR0 \sched
	RPAIR1 \sched
	RPAIR2 \sched
	RPAIR3 \sched
	RPAIR4 \sched
	RPAIR5 \sched
	RPAIR6 \sched
	RPAIR7 \sched
.endm

/* The body of a local subroutine of two entries: .Lpair_0_63 runs rounds
 * 0..63 of both states, .Lpair_6_63 rounds 6..63, with %r9 at row 0 of
 * A's array, %rax at K and W[t+14], W[t+15] of the first round in the
 * ring registers (%r9, %rax advanced; %ecx clobbered). One copy of eight
 * rounds with the schedule and one without: the fused kernel is bound by
 * instruction fetch when its rounds are unrolled per block. With \from5
 * = 1, a third entry, .Lpair_5_63, runs round 5 first (the LM-OTS pair
 * kernel, sha256_x32_lms_chain_avx512.S). */
.macro PAIR_ROUNDS_BODY from5=0
	.if \from5
.Lpair_5_63:
	RPAIR5 1
	.endif
.Lpair_6_63:
	RPAIR6 1
	RPAIR7 1
	addq	$512, %r9
	addq	$32, %rax
	movl	$5, %ecx
	jmp	7f
.Lpair_0_63:
	movl	$6, %ecx
7:	RPAIR8 1
	addq	$512, %r9
	addq	$32, %rax
	decl	%ecx
	jnz	7b
	movl	$2, %ecx
6:	RPAIR8 0
	addq	$512, %r9
	addq	$32, %rax
	decl	%ecx
	jnz	6b
	ret
.endm

#endif
