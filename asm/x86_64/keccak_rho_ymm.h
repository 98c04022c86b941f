/* keccak_rho_ymm.h - what the AVX2 Keccak kernels (keccak_x4_avx2.S,
 * keccak_x8_avx2.S) share: rho's rotate of one ymm of words, and their
 * constants (KECCAK_YMM_CONSTS, placed once in each kernel's .rodata).
 * AVX2 has no 64-bit rotate: two shifts and an or, except rol 8 and 56
 * (one vpshufb: byte moves) and rol 1 (its left shift an add: the shift
 * pipes are half the vector ALU). */

/* \b = rol(\b, \r); scratch ymm15 */
.macro ROL_YMM b, r
	.if \r == 8
	vpshufb	.Lkeccak_rol8(%rip), \b, \b
	.elseif \r == 56
	vpshufb	.Lkeccak_rol56(%rip), \b, \b
	.elseif \r == 1
	vpaddq	\b, \b, %ymm15
	vpsrlq	$63, \b, \b
	vpor	%ymm15, \b, \b
	.elseif \r
	vpsllq	$\r, \b, %ymm15
	vpsrlq	$(64-\r), \b, \b
	vpor	%ymm15, \b, \b
	.endif
.endm

/* .Lkeccak_rc4: the 24 round constants (fs_keccak_rc), 4 copies each (one
 * memory-operand xor applies iota to a ymm); the two vpshufb masks */
.macro KECCAK_YMM_CONSTS
	.p2align 5
.Lkeccak_rc4:
	.irp	c, 0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000, 0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009, 0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a, 0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003, 0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a, 0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008
	.quad	\c, \c, \c, \c
	.endr
.Lkeccak_rol8:		/* each 64-bit word rotated left by 8 */
	.rept 2
	.byte	7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14
	.endr
.Lkeccak_rol56:		/* and by 56 */
	.rept 2
	.byte	1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8
	.endr
.endm
