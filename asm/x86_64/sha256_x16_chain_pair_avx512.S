/* sha256_x16_chain_pair_avx512.S - WOTS+ chain steps of SHA-256 with n = 32
 * for 16 chains at once, every compression paired with an independent one
 * (the Zen 5 row avx512-x16-chain; sha256_x16_chain_avx512.S, one block at
 * a time, stays the port-lean row's kernel). Same contract, prototype and
 * step as there (crypto/hash/sha256_chain.h, fs_chain_fn):
 *   void fs_sha256_chain_x16_avx512(uint32_t x[8 * 16], uint32_t adrs[7 * 16],
 *                                   const uint32_t mid[8], size_t steps, unsigned n);
 *   KEY = PRF(ADRS, 0), BM = PRF(ADRS, 1), x = F: SHA-256(0 || KEY || x ^ BM)
 * x16 rounds are bound by their latency; two independent states round by
 * round (sha256_x16_pair.h) fill the pipes. F's first block needs only KEY
 * and the next step's PRFs only its hash address, so a step s runs
 *   P: F block 1 of s  beside  KEY of s + 1      (both from round 6)
 *   Q: BM of s + 1     beside  F block 2 of s    (both from round 0)
 * after a first pair of KEY and BM of step 0; the last step's extra PRFs are
 * not used (calls of fewer than PAIR_MIN_STEPS go to the one-block kernel).
 * F's first block starts at round 6 from a constant (its rounds
 * 0..7 see only zeros), the P pair's PRF from the per-call prefix
 * (sha256_x16_wots_prefix.h). Each block's message schedule is a stack
 * array of 64 rows, ARR + 4096 * i: 0 F block 1, 1 KEY, 2 BM, 3 F block 2
 * (a pair's B array follows its A array). x ^ BM and F block 2's schedule
 * (secret when signing) are wiped before the return; KEY, BM and F's
 * middle state are PRFs of the public seed. Constant time: no branch or
 * address depends on x or the PRF outputs. Portable twin:
 * fs_sha256_chain_x16_portable. */

	.text

#include "sha256_x16_rounds.h"
#include "sha256_x16_wots_prefix.h"
#include "sha256_x16_pair.h"

/* Fewer steps go to the one-block kernel (sha256_x16_chain_avx512.S): a
 * call here pays a pair for step 0's PRFs and half of two pairs for the
 * last step's unused ones (measured against it in one process: 1 step
 * 41.3 against 31.3 ns per lane-step, 2 steps 33.5/30.7, 3 30.5/29.8,
 * 4 29.4/29.9, 8 27.6/29.9). The step count is public. */
#define PAIR_MIN_STEPS 4
	.hidden	fs_sha256_chain_x16_avx512_one

#define FMID 0			/* F's middle state, 8 rows */
#define ARR 2048		/* the four schedule arrays */
#define ROW(i, t) (ARR + PAIR_B * (i) + 64 * (t))
#define A_F1 0
#define A_KEY 1
#define A_BM 2
#define A_F2 3

/* rows fixed for a call: W[16..20] of the PRFs in zmm16..20 from PRF_PREFIX */
.macro CALL_ROWS
	.irp	j, 16,17,18,19,20
	vmovdqa32	%zmm\j, ROW(A_KEY, \j)(%rsp)
	vmovdqa32	%zmm\j, ROW(A_BM, \j)(%rsp)
	.endr
	.irp	j, 0,1,2,3,4,5
	vmovdqu32	64*\j(%rsi), %zmm16
	vmovdqa32	%zmm16, ROW(A_BM, \j)(%rsp)
	.endr
	WPAD96				/* zmm24..31 = W[8..15]; zmm25 = 0 */
	.irp	j, 24,25,26,27,28,29,30,31
	vmovdqa32	%zmm\j, ROW(A_KEY, \j-16)(%rsp)
	vmovdqa32	%zmm\j, ROW(A_BM, \j-16)(%rsp)
	vmovdqa32	%zmm\j, ROW(A_F2, \j-16)(%rsp)
	.endr
	vmovdqa32	%zmm25, ROW(A_KEY, 7)(%rsp)
	vmovdqa32	%zmm25, ROW(A_F1, 6)(%rsp)
	vmovdqa32	%zmm25, ROW(A_F1, 7)(%rsp)
	vpbroadcastd	.Lone(%rip), %zmm16
	vmovdqa32	%zmm16, ROW(A_BM, 7)(%rsp)
.endm

/* the PRFs' W[6] (the hash address in zmm22) and W[21]; zmm30, zmm31 =
 * their W[20], W[21] (the B ring of a pair from round 6) */
.macro PRF_ROWS
	vmovdqa32	%zmm22, ROW(A_KEY, 6)(%rsp)
	vmovdqa32	%zmm22, ROW(A_BM, 6)(%rsp)
	SIGMA0	%zmm22
	vpaddd		PRE+512+320(%rsp), %zmm11, %zmm31
	vmovdqa32	%zmm31, ROW(A_KEY, 21)(%rsp)
	vmovdqa32	%zmm31, ROW(A_BM, 21)(%rsp)
	vmovdqa32	PRE+512+256(%rsp), %zmm30
.endm

/* the listed registers = rows 0, 1, ... at \off(%rsp) */
.macro LOADSTK off, regs:vararg
	.set	.Lw, 0
	.irp	r, \regs
	vmovdqa32	\off+64*.Lw(%rsp), \r
	.set	.Lw, .Lw + 1
	.endr
.endm

/* registers \r.. += mid (a PRF's feed-forward) */
.macro ADD_MID regs:vararg
	.set	.Lw, 0
	.irp	r, \regs
	vpaddd		4*.Lw(%rdx){1to16}, \r, \r
	.set	.Lw, .Lw + 1
	.endr
.endm

/* the listed registers to rows 0, 1, ... at \off(%rsp) */
.macro STORESTK off, regs:vararg
	.set	.Lw, 0
	.irp	r, \regs
	vmovdqa32	\r, \off+64*.Lw(%rsp)
	.set	.Lw, .Lw + 1
	.endr
.endm

/* F block 1's W[16..21] from KEY in its rows 8..15 (rows 0..7 are zero:
 * W[t] = sigma1(W[t-2]) + W[t-7]); zmm28, zmm29 = W[20], W[21] */
.macro F1_ROWS
	.irp	t, 16,17,18,19,20,21
	vmovdqa32	ROW(A_F1, \t-2)(%rsp), %zmm14
	SIGMA1	%zmm14
	vpaddd		ROW(A_F1, \t-7)(%rsp), %zmm11, %zmm14
	vmovdqa32	%zmm14, ROW(A_F1, \t)(%rsp)
	.endr
	vmovdqa32	ROW(A_F1, 20)(%rsp), %zmm28
	vmovdqa32	%zmm14, %zmm29
.endm

	.globl	fs_sha256_chain_x16_avx512
	.hidden	fs_sha256_chain_x16_avx512
	.type	fs_sha256_chain_x16_avx512, @function
	.hidden	fs_sha256_k
	.hidden	fs_sha256_iv
	.p2align 5
fs_sha256_chain_x16_avx512:
	cmpq	$PAIR_MIN_STEPS, %rcx
	jb	fs_sha256_chain_x16_avx512_one
	pushq	%rbp
	movq	%rsp, %rbp
	.rept	5			/* 18 KiB and alignment, a page at a time */
	subq	$4096, %rsp
	orq	$0, (%rsp)
	.endr
	andq	$-64, %rsp
	movq	%rcx, %r8		/* the rounds take %rax and %ecx */
	PRF_PREFIX
	CALL_ROWS
	/* step 0's KEY and BM side by side */
	vmovdqu32	64*6(%rsi), %zmm22
	PRF_ROWS
	vmovdqa32	%zmm30, %zmm28
	vmovdqa32	%zmm31, %zmm29
	LOADSTK	PRE, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
	LOADSTK	PRE, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	leaq	ROW(A_KEY, 0)(%rsp), %r9
	leaq	fs_sha256_k(%rip), %rax
	call	.Lpair_6_63
	ADD_MID	%zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
	STORESTK ROW(A_F1, 8), %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7	/* KEY */
	ADD_MID	%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	.irp	i, 16,17,18,19,20,21,22,23
	vpxord		64*(\i-16)(%rdi), %zmm\i, %zmm\i
	.endr
	STORESTK ROW(A_F2, 0), %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23	/* x ^ BM */
	/* P: F block 1 of this step beside KEY of the next */
2:	vpbroadcastd	.Lone(%rip), %zmm22
	vpaddd		64*6(%rsi), %zmm22, %zmm22
	PRF_ROWS
	F1_ROWS
	.irp	i, 0,1,2,3,4,5,6,7
	vpbroadcastd	.Lf1_round6+4*\i(%rip), %zmm\i
	.endr
	LOADSTK	PRE, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	leaq	ROW(A_F1, 0)(%rsp), %r9
	leaq	fs_sha256_k(%rip), %rax
	call	.Lpair_6_63
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd		fs_sha256_iv+4*\i(%rip){1to16}, %zmm\i, %zmm\i
	.endr
	STORESTK FMID, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
	ADD_MID	%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	STORESTK ROW(A_F1, 8), %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23	/* the next KEY */
	/* Q: BM of the next step beside F block 2 of this one */
	vpxord		%zmm28, %zmm28, %zmm28	/* W[14], W[15] of both */
	vpbroadcastd	.Lbits768(%rip), %zmm29
	vmovdqa32	%zmm28, %zmm30
	vmovdqa32	%zmm29, %zmm31
	.irp	i, 0,1,2,3,4,5,6,7
	vpbroadcastd	4*\i(%rdx), %zmm\i
	.endr
	LOADSTK	FMID, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	leaq	ROW(A_BM, 0)(%rsp), %r9
	leaq	fs_sha256_k(%rip), %rax
	call	.Lpair_0_63
	.irp	i, 16,17,18,19,20,21,22,23
	vpaddd		FMID+64*(\i-16)(%rsp), %zmm\i, %zmm\i
	vmovdqu32	%zmm\i, 64*(\i-16)(%rdi)
	.endr
	ADD_MID	%zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
	/* x ^ BM of the next step */
	vpxord		%zmm16, %zmm0, %zmm0
	vpxord		%zmm17, %zmm1, %zmm1
	vpxord		%zmm18, %zmm2, %zmm2
	vpxord		%zmm19, %zmm3, %zmm3
	vpxord		%zmm20, %zmm4, %zmm4
	vpxord		%zmm21, %zmm5, %zmm5
	vpxord		%zmm22, %zmm6, %zmm6
	vpxord		%zmm23, %zmm7, %zmm7
	STORESTK ROW(A_F2, 0), %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
	/* the next step's hash address */
	vpbroadcastd	.Lone(%rip), %zmm8
	vpaddd		64*6(%rsi), %zmm8, %zmm8
	vmovdqu32	%zmm8, 64*6(%rsi)
	decq	%r8
	jnz	2b
	/* chain values (secret when signing) leave no copy in registers or
	 * in F block 2's schedule */
	vpxord		%zmm0, %zmm0, %zmm0
	leaq	ROW(A_F2, 0)(%rsp), %r9
	movl	$64, %ecx
4:	vmovdqa32	%zmm0, (%r9)
	addq	$64, %r9
	decl	%ecx
	jnz	4b
	WZERO	%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
	WZERO	%zmm24, %zmm25, %zmm26, %zmm27, %zmm28, %zmm29, %zmm30, %zmm31
	movq	%rbp, %rsp
	popq	%rbp
	vzeroall
	ret
	.size	fs_sha256_chain_x16_avx512, .-fs_sha256_chain_x16_avx512

	.p2align 5
	PAIR_ROUNDS_BODY

	.section .rodata
	.p2align 2
.Lpad80:
	.long	0x80000000
.Lbits768:
	.long	768
.Lone:
	.long	1
	.p2align 5
.Lf1_round6:	/* zmm0..7 after rounds 0..5 of SHA-256 on the IV with W = 0 */
	.long	0x909cf5c9, 0xc57b68fb, 0x6bb2da87, 0x489fc27e
	.long	0x0a24b1aa, 0xf3dd6c3f, 0x9d120f96, 0x2cab14aa

	.section .note.GNU-stack,"",@progbits
