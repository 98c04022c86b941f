/* keccak_absorb_avx512.h - the absorb set-up the AVX-512 Keccak kernels
 * (x8, x16) share: the block loop's registers and the row masks of a
 * SHAKE128 / SHAKE256 block. Included by .S files only. */
#ifndef FASTSIG_KECCAK_ABSORB_AVX512_H
#define FASTSIG_KECCAK_ABSORB_AVX512_H

/* In: %rdx blocks, %rcx rate (168 or 136). Out: %r10 blocks left, %r11
 * rate, %r8 0 (the block's offset in every lane), %k1 all 8 words of a
 * row, %k2 the words of the last, partial row (16..20 or 16). */
.macro ABSORB_SETUP
	movq	%rdx, %r10		/* blocks left */
	movq	%rcx, %r11		/* rate */
	xorl	%r8d, %r8d		/* offset of the block in every lane */
	kxnorw	%k1, %k1, %k1		/* all 8 words of a row */
	movl	$0x1f, %eax		/* words 16..20 of a SHAKE128 block */
	movl	$0x01, %r9d		/* word 16 of a SHAKE256 block */
	cmpq	$136, %rcx
	cmove	%r9d, %eax
	kmovw	%eax, %k2
.endm

#endif
