/* transpose_q8_avx512.h - a gas macro shared by the AVX-512 kernels that
 * read 8 lanes' blocks as rows (Keccak absorb, SHA-512 message load).
 * Included by .S files only. */
#ifndef FASTSIG_TRANSPOSE_Q8_AVX512_H
#define FASTSIG_TRANSPOSE_Q8_AVX512_H

/* 8x8 transpose of 64-bit words: rows \r0..\r7 (lane l's 8 words) into
 * columns \c0..\c7 (word w of the 8 lanes). The rows are clobbered (they
 * hold the middle stage); \c0..\c7 also serve as the first stage. */
.macro TRANSPOSE8 r0, r1, r2, r3, r4, r5, r6, r7, c0, c1, c2, c3, c4, c5, c6, c7
	vpunpcklqdq	\r1, \r0, \c0	/* words 0,2,4,6 of lanes 0,1 */
	vpunpckhqdq	\r1, \r0, \c1	/* words 1,3,5,7 of lanes 0,1 */
	vpunpcklqdq	\r3, \r2, \c2
	vpunpckhqdq	\r3, \r2, \c3
	vpunpcklqdq	\r5, \r4, \c4
	vpunpckhqdq	\r5, \r4, \c5
	vpunpcklqdq	\r7, \r6, \c6
	vpunpckhqdq	\r7, \r6, \c7
	vshufi64x2	$0x88, \c2, \c0, \r0	/* words 0,4 of lanes 0-3 */
	vshufi64x2	$0xdd, \c2, \c0, \r1	/* words 2,6 */
	vshufi64x2	$0x88, \c6, \c4, \r2	/* words 0,4 of lanes 4-7 */
	vshufi64x2	$0xdd, \c6, \c4, \r3
	vshufi64x2	$0x88, \c3, \c1, \r4	/* words 1,5 of lanes 0-3 */
	vshufi64x2	$0xdd, \c3, \c1, \r5	/* words 3,7 */
	vshufi64x2	$0x88, \c7, \c5, \r6
	vshufi64x2	$0xdd, \c7, \c5, \r7
	vshufi64x2	$0x88, \r2, \r0, \c0
	vshufi64x2	$0xdd, \r2, \r0, \c4
	vshufi64x2	$0x88, \r3, \r1, \c2
	vshufi64x2	$0xdd, \r3, \r1, \c6
	vshufi64x2	$0x88, \r6, \r4, \c1
	vshufi64x2	$0xdd, \r6, \r4, \c5
	vshufi64x2	$0x88, \r7, \r5, \c3
	vshufi64x2	$0xdd, \r7, \r5, \c7
.endm

#endif
