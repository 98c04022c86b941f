/* transpose_d4.h - 4x4 dword transpose inside each 128-bit chunk of rows
 * \a..\d (the SHA-256 lane kernels' message loads), on ymm or zmm
 * registers: v is the register kind, its registers 8..11 the scratch. */
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
