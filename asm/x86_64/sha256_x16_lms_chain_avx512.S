/* sha256_x16_lms_chain_avx512.S - LM-OTS chain steps (RFC 8554 section
 * 4.4) of SHA-256 (n = 32) and SHA-256/192 (n = 24) for 16 chains at once,
 * kept in words from step to step: each step's message is rebuilt from the
 * last digest with shifts, with no byte rows, transposes or byte swaps.
 *
 * C prototype (crypto/hash/sha256_chain.h, fs_chain_fn, row FS_CHAIN_LMOTS):
 *   void fs_lms_chain_x16_avx512(uint32_t x[8 * 16], uint32_t qij[7 * 16],
 *                                const uint32_t I[8], size_t steps, unsigned n);
 * (qij words 0 and 1 and I words 0..3 are read.)
 * Word k of lane l is at x[k*16 + l] (SHA-256 words: big-endian bytes read
 * as integers; n/4 words per lane, the rest untouched). qij[l] = q and
 * qij[16 + l] = i << 16 | j << 8 of lane l; j is advanced (mod 256) by one
 * per step. I: the key identifier as four words. One step, per lane:
 *   x = SHA-256(I || u32str(q) || u16str(i) || u8str(j) || x), truncated to n
 * The message is one block: W[0..3] = I, W[4] = q, W[5] = i|j|x[0] >> 24,
 * then x shifted by a byte, 0x80, zeros and the bit length (55 or 47 bytes).
 * W[0..4] are the same for every step of a call: rounds 0..4 run once per
 * call, and their parts of W[16..20] (with the constant W[14], W[15]) are
 * kept on the stack. Rounds 8..63 go through one shared copy of their code
 * (ROUNDS_8_63_BODY). Chain values are secret when signing: the message
 * registers are cleared on return; the stack holds only public values.
 * Portable twin: fs_lms_chain_x16_portable. */

	.text

#include "sha256_x16_rounds.h"
#include "sha256_lms_step.h"

#define S5	0	/* a..h after round 4 (8 rows) */
#define C16	512	/* W[0] + sigma0(W[1])  (+ sigma1(W[14]) = 0) */
#define C17	576	/* W[1] + sigma0(W[2]) + sigma1(W[15]) */
#define C18	640	/* W[2] + sigma0(W[3]) */
#define C19	704	/* W[3] + sigma0(W[4]) */
#define IJ	768	/* i << 16 | j << 8 */
#define W15	832	/* the bit length */
#define FRAME	896

	.globl	fs_lms_chain_x16_avx512
	.hidden	fs_lms_chain_x16_avx512
	.type	fs_lms_chain_x16_avx512, @function
	.hidden	fs_sha256_k
	.hidden	fs_sha256_iv
	.p2align 5
fs_lms_chain_x16_avx512:
	testq	%rcx, %rcx
	jz	9f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$FRAME+64, %rsp
	andq	$-64, %rsp
	movq	%rcx, %r10		/* the rounds take %rax and %ecx */
	/* once per call: rounds 0..4 on I and q */
	.irp	i, 0,1,2,3,4,5,6,7
	vpbroadcastd	fs_sha256_iv+4*\i(%rip), %zmm\i
	.endr
	.irp	i, 16,17,18,19
	vpbroadcastd	4*(\i-16)(%rdx), %zmm\i	/* W[0..3] = I */
	.endr
	vmovdqu32	(%rsi), %zmm20		/* W[4] = q */
	leaq	fs_sha256_k(%rip), %rax
	R0 0
	R1 0
	R2 0
	R3 0
	R4 0
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqa32	%zmm\i, S5+64*\i(%rsp)
	.endr
	leal	184(,%r8,8), %r9d	/* (23 + n) * 8 bits */
	vpbroadcastd	%r9d, %zmm14
	vmovdqa32	%zmm14, W15(%rsp)
	LMS_CALL_PARTS %zmm14, C16, C17, C18
	SIGMA0	%zmm20
	vpaddd	%zmm19, %zmm11, %zmm11
	vmovdqa32	%zmm11, C19(%rsp)
	vmovdqu32	64(%rsi), %zmm8
	vmovdqa32	%zmm8, IJ(%rsp)
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu32	64*\i(%rdi), %zmm\i
	.endr
	/* each step: W[5..15] from the chain words in zmm0..7 */
2:	vpsrld	$24, %zmm0, %zmm21
	vpord	IJ(%rsp), %zmm21, %zmm21
	SHIFT8	%zmm22, %zmm0, %zmm1
	SHIFT8	%zmm23, %zmm1, %zmm2
	SHIFT8	%zmm24, %zmm2, %zmm3
	SHIFT8	%zmm25, %zmm3, %zmm4
	SHIFT8	%zmm26, %zmm4, %zmm5
	cmpl	$24, %r8d
	je	4f
	SHIFT8	%zmm27, %zmm5, %zmm6
	SHIFT8	%zmm28, %zmm6, %zmm7
	vpslld	$8, %zmm7, %zmm29
	vpord	.Lpad80(%rip){1to16}, %zmm29, %zmm29
	vpxord	%zmm30, %zmm30, %zmm30
	jmp	5f
4:	vpslld	$8, %zmm5, %zmm27
	vpord	.Lpad80(%rip){1to16}, %zmm27, %zmm27
	vpxord	%zmm28, %zmm28, %zmm28
	vpxord	%zmm29, %zmm29, %zmm29
	vpxord	%zmm30, %zmm30, %zmm30
5:	vmovdqa32	W15(%rsp), %zmm31
	/* W[16..20]: the per-step parts added to the per-call ones */
	vpaddd	C16(%rsp), %zmm25, %zmm16
	vpaddd	C17(%rsp), %zmm26, %zmm17
	SIGMA1	%zmm16
	vpaddd	C18(%rsp), %zmm27, %zmm18
	vpaddd	%zmm11, %zmm18, %zmm18
	SIGMA1	%zmm17
	vpaddd	C19(%rsp), %zmm28, %zmm19
	vpaddd	%zmm11, %zmm19, %zmm19
	SIGMA1	%zmm18
	vpaddd	(%rsi), %zmm29, %zmm20		/* + W[4] = q */
	vpaddd	%zmm11, %zmm20, %zmm20
	SIGMA0	%zmm21
	vpaddd	%zmm11, %zmm20, %zmm20
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqa32	S5+64*\i(%rsp), %zmm\i
	.endr
	leaq	fs_sha256_k(%rip), %rax
	R5 1
	R6 1
	R7 1
	call	.Lrounds_8_63
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd	fs_sha256_iv+4*\i(%rip){1to16}, %zmm\i, %zmm\i
	.endr
	LMS_NEXT_J IJ
	decq	%r10
	jnz	2b
	.irp	i, 0,1,2,3,4,5
	vmovdqu32	%zmm\i, 64*\i(%rdi)
	.endr
	cmpl	$24, %r8d
	je	6f
	vmovdqu32	%zmm6, 64*6(%rdi)
	vmovdqu32	%zmm7, 64*7(%rdi)
6:	vmovdqu32	%zmm8, 64(%rsi)
	/* chain values (secret when signing) leave no copy in registers */
	.irp	r, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpxord	%zmm\r, %zmm\r, %zmm\r
	.endr
	movq	%rbp, %rsp
	popq	%rbp
	vzeroall
9:	ret
	.size	fs_lms_chain_x16_avx512, .-fs_lms_chain_x16_avx512

	.p2align 5
.Lrounds_8_63:
	ROUNDS_8_63_BODY

	LMS_STEP_CONSTS

	.section .note.GNU-stack,"",@progbits
