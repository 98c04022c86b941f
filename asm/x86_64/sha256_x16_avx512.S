/* sha256_x16_avx512.S - SHA-256 compression of 16 independent messages
 * (AVX-512F/BW).
 *
 * C prototype (crypto/hash/sha256.h):
 *   void fs_sha256_compress_x16_avx512(uint32_t st[8 * 16],
 *                                      const uint8_t *const in[16], size_t nblocks);
 * Word i of lane l is st[i*16 + l], so word i of all lanes is one zmm.
 * Lane l reads in[l][0 .. 64*nblocks); no alignment needed.
 *
 * Rounds: sha256_x16_rounds.h (a..h in zmm0..7, W in zmm16..31, scratch
 * zmm8..13 and zmm15); the byte-swap mask is in zmm14. Each block's 16 rows
 * (one per lane) are loaded and transposed 16x16 in registers: 4x4 dword
 * transposes inside each 128-bit lane (unpck), then 4x4 transposes of
 * 128-bit chunks (vshufi32x4). Leaf function, no stack. Portable twin: fs_sha256_compress_x16_portable. */

	.text

#include "sha256_x16_rounds.h"

#include "transpose_d4.h"

	.globl	fs_sha256_compress_x16_avx512
	.hidden	fs_sha256_compress_x16_avx512
	.type	fs_sha256_compress_x16_avx512, @function
	.hidden	fs_sha256_k
	.p2align 5
fs_sha256_compress_x16_avx512:
	testq	%rdx, %rdx
	jz	3f
	vbroadcasti32x4	.Lbswap32(%rip), %zmm14
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu32	64*\i(%rdi), %zmm\i
	.endr
	xorl	%r8d, %r8d			/* offset of the block in every lane */
1:	/* row l = lane l's block; transpose so that zmm16+j = W[j] of all lanes */
	LOAD_TRANSPOSE16 0, %rax
	.irp	j, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpshufb		%zmm14, %zmm\j, %zmm\j
	.endr
	ROUNDS64
	/* feed forward: st holds the state the block started from */
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd		64*\i(%rdi), %zmm\i, %zmm\i
	vmovdqu32	%zmm\i, 64*\i(%rdi)
	.endr
	addq	$64, %r8
	decq	%rdx
	jnz	1b
	vzeroupper
3:	ret
	.size	fs_sha256_compress_x16_avx512, .-fs_sha256_compress_x16_avx512

	.section .rodata
	.p2align 4
.Lbswap32:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

	.section .note.GNU-stack,"",@progbits
