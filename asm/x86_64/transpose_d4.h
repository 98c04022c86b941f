/* transpose_d4.h - the SHA-256 lane kernels' message-load transposes: TR4,
 * the 4x4 dword transpose inside each 128-bit chunk of rows \a..\d, on ymm
 * or zmm registers (v is the register kind, its registers 8..11 the
 * scratch); TRQ, the 4x4 transpose of 128-bit chunks on zmm; both make
 * LOAD_TRANSPOSE16, the x16 and x32 kernels' message load. */
.macro TR4 a, b, c, d, v
	vpunpckldq	\b, \a, %\v\()8
	vpunpckhdq	\b, \a, %\v\()9
	vpunpckldq	\d, \c, %\v\()10
	vpunpckhdq	\d, \c, %\v\()11
	vpunpcklqdq	%\v\()10, %\v\()8, \a
	vpunpckhqdq	%\v\()10, %\v\()8, \b
	vpunpcklqdq	%\v\()11, %\v\()9, \c
	vpunpckhqdq	%\v\()11, %\v\()9, \d
.endm

/* 4x4 transpose of the 128-bit chunks of zmm rows \a..\d (after TR4: the
 * 16x16 dword transpose of the x16 and x32 kernels' message loads);
 * scratch zmm8..11. */
.macro TRQ a, b, c, d
	vshufi32x4	$0x44, \b, \a, %zmm8
	vshufi32x4	$0xee, \b, \a, %zmm9
	vshufi32x4	$0x44, \d, \c, %zmm10
	vshufi32x4	$0xee, \d, \c, %zmm11
	vshufi32x4	$0x88, %zmm10, %zmm8, \a
	vshufi32x4	$0xdd, %zmm10, %zmm8, \b
	vshufi32x4	$0x88, %zmm11, %zmm9, \c
	vshufi32x4	$0xdd, %zmm11, %zmm9, \d
.endm

/* Rows 0..15 of a 16-lane block into zmm16..31 and transposed, so that
 * zmm16+j holds word j of every lane (not yet byte-swapped): lane
 * \first+l's block is at offset %r8 from the pointer 8*(\first+l)(%rsi),
 * loaded through \ptr. Scratch zmm8..11. */
.macro LOAD_TRANSPOSE16 first, ptr
	.irp	j, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	movq		8*(\first+\j-16)(%rsi), \ptr
	vmovdqu32	(\ptr,%r8), %zmm\j
	.endr
	TR4	%zmm16, %zmm17, %zmm18, %zmm19, zmm
	TR4	%zmm20, %zmm21, %zmm22, %zmm23, zmm
	TR4	%zmm24, %zmm25, %zmm26, %zmm27, zmm
	TR4	%zmm28, %zmm29, %zmm30, %zmm31, zmm
	TRQ	%zmm16, %zmm20, %zmm24, %zmm28
	TRQ	%zmm17, %zmm21, %zmm25, %zmm29
	TRQ	%zmm18, %zmm22, %zmm26, %zmm30
	TRQ	%zmm19, %zmm23, %zmm27, %zmm31
.endm
