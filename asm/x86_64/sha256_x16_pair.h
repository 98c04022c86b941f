/* sha256_x16_pair.h - two 16-lane SHA-256 states round by round, for the
 * WOTS+ chain kernel's two PRF blocks (KEY and BM), which do not depend on
 * each other or on the chain value. One x16 state's rounds are bound by
 * their latency (the e and a chains); a second, independent state fills
 * the pipes the first leaves idle. Included by .S files only.
 *
 * Registers: state A in zmm0..7 (scratch zmm8, 9, 10, 15), state B in
 * zmm16..23 (scratch zmm24..27). The message schedule does not fit beside
 * them: it is computed before the rounds into two stack arrays of 64 rows
 * of 16 lanes (W[t] of A at 64*t(%r9) while %r9 is at the array's row 0
 * during rounds 0..7, B's 4096 bytes further), K[t] at 4*t(%rax). The
 * round is the Zen 5 layout of sha256_x16_rounds.h (RND) with W from
 * memory.
 */
#ifndef FASTSIG_SHA256_X16_PAIR_H
#define FASTSIG_SHA256_X16_PAIR_H

#define PAIR_B 4096	/* B's schedule array after A's */

/* one round of one state: the Zen 5 layout with W from \w, K from \k */
.macro RNDM a, b, c, d, e, f, g, h, w, k, s8, s9, s10, s15
	vpaddd		\w, \h, \h
	vpaddd		\k{1to16}, \h, \h		/* h + W + K */
	vpaddd		\h, \d, \d
	vmovdqa32	\e, \s9				/* Ch into a copy of e */
	vpternlogd	$0xca, \g, \f, \s9
	vprord		$11, \e, \s10
	vprord		$25, \e, \s15
	vprord		$6, \e, \s8
	vpternlogd	$0x96, \s15, \s10, \s8		/* Sigma1 */
	vpaddd		\s9, \d, \d
	vpaddd		\s9, \h, \h
	vpaddd		\s8, \d, \d			/* d = d + T1 */
	vpaddd		\s8, \h, \h			/* h = T1 */
	vmovdqa32	\a, \s9				/* Maj into a copy of a */
	vpternlogd	$0xe8, \c, \b, \s9
	vprord		$13, \a, \s10
	vprord		$22, \a, \s15
	vprord		$2, \a, \s8
	vpternlogd	$0x96, \s15, \s10, \s8		/* Sigma0 */
	vpaddd		\s9, \h, \h
	vpaddd		\s8, \h, \h			/* h = T1 + T2 */
.endm

/* round \i of 8 on both states; \a..\h name A's registers by number, \a2..\h2 B's */
.macro RPAIR i, a, b, c, d, e, f, g, h, a2, b2, c2, d2, e2, f2, g2, h2
	RNDM	%zmm\a, %zmm\b, %zmm\c, %zmm\d, %zmm\e, %zmm\f, %zmm\g, %zmm\h, \
		64*\i(%r9), 4*\i(%rax), %zmm8, %zmm9, %zmm10, %zmm15
	RNDM	%zmm\a2, %zmm\b2, %zmm\c2, %zmm\d2, %zmm\e2, %zmm\f2, %zmm\g2, %zmm\h2, \
		PAIR_B+64*\i(%r9), 4*\i(%rax), %zmm24, %zmm25, %zmm26, %zmm27
.endm

/* the states' register names rotate by one each round */
.macro RPAIR0
	RPAIR 0, 0,1,2,3,4,5,6,7, 16,17,18,19,20,21,22,23
.endm
.macro RPAIR1
	RPAIR 1, 7,0,1,2,3,4,5,6, 23,16,17,18,19,20,21,22
.endm
.macro RPAIR2
	RPAIR 2, 6,7,0,1,2,3,4,5, 22,23,16,17,18,19,20,21
.endm
.macro RPAIR3
	RPAIR 3, 5,6,7,0,1,2,3,4, 21,22,23,16,17,18,19,20
.endm
.macro RPAIR4
	RPAIR 4, 4,5,6,7,0,1,2,3, 20,21,22,23,16,17,18,19
.endm
.macro RPAIR5
	RPAIR 5, 3,4,5,6,7,0,1,2, 19,20,21,22,23,16,17,18
.endm
.macro RPAIR6
	RPAIR 6, 2,3,4,5,6,7,0,1, 18,19,20,21,22,23,16,17
.endm
.macro RPAIR7
	RPAIR 7, 1,2,3,4,5,6,7,0, 17,18,19,20,21,22,23,16
.endm

/* Rounds 6..63 of both states, %r9 at row 0 of A's array and %rax at K
 * (both advanced; %ecx clobbered): rounds 8..63 loop over one copy of
 * eight rounds (the fused kernel is bound by instruction fetch when its
 * rounds are unrolled per block). */
.macro PAIR_ROUNDS_6_63
	RPAIR6
	RPAIR7
	movl	$7, %ecx
7:	addq	$512, %r9
	addq	$32, %rax
	RPAIR0
	RPAIR1
	RPAIR2
	RPAIR3
	RPAIR4
	RPAIR5
	RPAIR6
	RPAIR7
	decl	%ecx
	jnz	7b
.endm

/* W[t] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16] at
 * \off(%r10) (%r10 at row t of A's array, \off selects the array), from
 * \w2 = W[t-2], which becomes W[t]; scratch \s0..\s5. */
.macro SCHW off, w2, s0, s1, s2, s3, s4, s5
	vmovdqa32	\off-64*15(%r10), \s3
	vprord		$7, \s3, \s4
	vprord		$18, \s3, \s5
	vpsrld		$3, \s3, \s3
	vpternlogd	$0x96, \s5, \s4, \s3		/* sigma0(W[t-15]) */
	vpaddd		\off-64*16(%r10), \s3, \s3
	vpaddd		\off-64*7(%r10), \s3, \s3
	vprord		$17, \w2, \s0
	vprord		$19, \w2, \s1
	vpsrld		$10, \w2, \s2
	vpternlogd	$0x96, \s2, \s1, \s0		/* sigma1(W[t-2]) */
	vpaddd		\s3, \s0, \w2
	vmovdqa32	\w2, \off(%r10)
.endm

/* W[22..63] of both arrays, %r10 at row 22 of A's, W[20] and W[21] of A
 * in zmm28, zmm29 and of B in zmm30, zmm31 (clobbered, as are zmm0..5,
 * zmm16..21, %r10 and %ecx): two words of each array a pass. */
.macro PAIR_SCHED_22_63
	movl	$21, %ecx
6:	SCHW	0, %zmm28, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5
	SCHW	PAIR_B, %zmm30, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21
	SCHW	64, %zmm29, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5
	SCHW	PAIR_B+64, %zmm31, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21
	addq	$128, %r10
	decl	%ecx
	jnz	6b
.endm

#endif
