/* sha256_x16_pipe.h - the Zen 5 round layout of the x16 kernels, included
 * by sha256_x16_rounds.h (which has the shared macros and the port-lean
 * layout). Registers as there: a..h in zmm0..7, W in zmm16..31, scratch
 * zmm8..13 and zmm15, K at (%rax).
 *
 * A round is an e half (RE) and an a half (RA), and the 64 rounds run
 * pipelined: the e half of round t + 1 comes before the a half of round t
 * in program order. The e chain (Sigma1, then one add into the new e) is
 * the kernel's dependency path; Zen 5 issues the oldest ready op first, so
 * the next e half's ops now win the ports over the a path and the schedule
 * (3.9-4.8% less time per lane-compression, 3.1-3.5% per LM-OTS step,
 * A/B in one process, doc/performance.md section 3).
 *
 * 8 adds a round: the new e lands in h's register (h + W + K + d + Ch +
 * Sigma1) and the new a in d's, as T1 = e' - d, + Maj + Sigma0. The a..d
 * and e..h registers each rotate among themselves (period 4), and neither
 * half writes a register the other half of the round before or after
 * reads, so no copy is needed for the pipelining. Unpipelined, this layout
 * is 4% slower than the 9-add one (the a path ends 2 cycles later). */
#ifndef FASTSIG_SHA256_X16_PIPE_H
#define FASTSIG_SHA256_X16_PIPE_H

/* the e half: \h = e' = h + W + K + d + Ch(e,f,g) + Sigma1(e); Ch on a
 * copy of e, Sigma1's last rotate the ternlog's destination */
.macro RE a, b, c, d, e, f, g, h, koff, w0
	vpaddd		\w0, \h, \h
	vpaddd		\koff(%rax){1to16}, \h, \h
	vpaddd		\d, \h, \h			/* off the e chain */
	CH_E		\e, \f, \g
	BIGSIGMA	\e, 6, 11, 25
	vpaddd		%zmm9, \h, \h
	vpaddd		%zmm8, \h, \h			/* e' */
.endm
/* the a half: \d = a' = (e' - d) + Maj(a,b,c) + Sigma0(a) (T1 first: it
 * is ready before Maj + Sigma0 would be), then the schedule's part */
.macro RA a, b, c, d, e, f, g, h, sched, w0, w1, w9, w14
	vpsubd		\d, \h, \d			/* T1 = e' - d */
	MAJ_A		\a, \b, \c
	BIGSIGMA	\a, 2, 13, 22
	vpaddd		%zmm9, \d, \d
	vpaddd		%zmm8, \d, \d			/* a' */
	SCHED_A		\sched, \w0, \w1, \w9
	SCHED_B		\sched, \w0, \w14
.endm
/* one whole round (the kernels' first rounds, outside the pipeline) */
.macro RND a, b, c, d, e, f, g, h, koff, sched, w0, w1, w9, w14
	RE		\a, \b, \c, \d, \e, \f, \g, \h, \koff, \w0
	RA		\a, \b, \c, \d, \e, \f, \g, \h, \sched, \w0, \w1, \w9, \w14
.endm

/* round t of 16 (R0..R7; R8..15 as R0..R7 with K and W 8 on), whole */
.macro R0 sched
	RND	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,\sched,%zmm16,%zmm17,%zmm25,%zmm30
.endm
.macro R1 sched
	RND	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,4,\sched,%zmm17,%zmm18,%zmm26,%zmm31
.endm
.macro R2 sched
	RND	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,8,\sched,%zmm18,%zmm19,%zmm27,%zmm16
.endm
.macro R3 sched
	RND	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,12,\sched,%zmm19,%zmm20,%zmm28,%zmm17
.endm
.macro R4 sched
	RND	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,16,\sched,%zmm20,%zmm21,%zmm29,%zmm18
.endm
.macro R5 sched
	RND	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,20,\sched,%zmm21,%zmm22,%zmm30,%zmm19
.endm
.macro R6 sched
	RND	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,24,\sched,%zmm22,%zmm23,%zmm31,%zmm20
.endm
.macro R7 sched
	RND	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,28,\sched,%zmm23,%zmm24,%zmm16,%zmm21
.endm
.macro ROUNDS8_LO sched
	R0 \sched
	R1 \sched
	R2 \sched
	R3 \sched
	R4 \sched
	R5 \sched
	R6 \sched
	R7 \sched
.endm
/* the first e half: of round 0 or 8 */
.macro PIPE_HEAD t
	.if \t == 0
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm16
	.else
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,32,%zmm24
	.endif
.endm
/* a halves of rounds 8..15, e halves of 9..16 */
.macro PIPE_HI8
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,36,%zmm25
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,1,%zmm24,%zmm25,%zmm17,%zmm22
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,40,%zmm26
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,1,%zmm25,%zmm26,%zmm18,%zmm23
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,44,%zmm27
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,1,%zmm26,%zmm27,%zmm19,%zmm24
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,48,%zmm28
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,1,%zmm27,%zmm28,%zmm20,%zmm25
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,52,%zmm29
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,1,%zmm28,%zmm29,%zmm21,%zmm26
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,56,%zmm30
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,1,%zmm29,%zmm30,%zmm22,%zmm27
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,60,%zmm31
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,1,%zmm30,%zmm31,%zmm23,%zmm28
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,64,%zmm16
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,1,%zmm31,%zmm16,%zmm24,%zmm29
.endm
/* a halves of rounds 0..15, e halves of 1..16 (16 at 64(%rax)) */
.macro PIPE16 sched
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,4,%zmm17
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm16,%zmm17,%zmm25,%zmm30
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,8,%zmm18
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm17,%zmm18,%zmm26,%zmm31
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,12,%zmm19
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm18,%zmm19,%zmm27,%zmm16
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,16,%zmm20
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm19,%zmm20,%zmm28,%zmm17
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,20,%zmm21
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm20,%zmm21,%zmm29,%zmm18
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,24,%zmm22
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm21,%zmm22,%zmm30,%zmm19
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,28,%zmm23
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm22,%zmm23,%zmm31,%zmm20
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,32,%zmm24
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm23,%zmm24,%zmm16,%zmm21
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,36,%zmm25
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm24,%zmm25,%zmm17,%zmm22
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,40,%zmm26
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm25,%zmm26,%zmm18,%zmm23
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,44,%zmm27
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm26,%zmm27,%zmm19,%zmm24
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,48,%zmm28
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm27,%zmm28,%zmm20,%zmm25
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,52,%zmm29
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,\sched,%zmm28,%zmm29,%zmm21,%zmm26
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,56,%zmm30
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,\sched,%zmm29,%zmm30,%zmm22,%zmm27
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,60,%zmm31
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,\sched,%zmm30,%zmm31,%zmm23,%zmm28
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,64,%zmm16
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,\sched,%zmm31,%zmm16,%zmm24,%zmm29
.endm
/* a halves of rounds 48..63, e halves of 49..63: no schedule */
.macro PIPE_TAIL16
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,4,%zmm17
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm16,%zmm17,%zmm25,%zmm30
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,8,%zmm18
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm17,%zmm18,%zmm26,%zmm31
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,12,%zmm19
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm18,%zmm19,%zmm27,%zmm16
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,16,%zmm20
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm19,%zmm20,%zmm28,%zmm17
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,20,%zmm21
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm20,%zmm21,%zmm29,%zmm18
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,24,%zmm22
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm21,%zmm22,%zmm30,%zmm19
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,28,%zmm23
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm22,%zmm23,%zmm31,%zmm20
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,32,%zmm24
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm23,%zmm24,%zmm16,%zmm21
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,36,%zmm25
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm24,%zmm25,%zmm17,%zmm22
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,40,%zmm26
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm25,%zmm26,%zmm18,%zmm23
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,44,%zmm27
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm26,%zmm27,%zmm19,%zmm24
	RE	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,48,%zmm28
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm27,%zmm28,%zmm20,%zmm25
	RE	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,52,%zmm29
	RA	%zmm0,%zmm1,%zmm2,%zmm3,%zmm4,%zmm5,%zmm6,%zmm7,0,%zmm28,%zmm29,%zmm21,%zmm26
	RE	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,56,%zmm30
	RA	%zmm3,%zmm0,%zmm1,%zmm2,%zmm7,%zmm4,%zmm5,%zmm6,0,%zmm29,%zmm30,%zmm22,%zmm27
	RE	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,60,%zmm31
	RA	%zmm2,%zmm3,%zmm0,%zmm1,%zmm6,%zmm7,%zmm4,%zmm5,0,%zmm30,%zmm31,%zmm23,%zmm28
	RA	%zmm1,%zmm2,%zmm3,%zmm0,%zmm5,%zmm6,%zmm7,%zmm4,0,%zmm31,%zmm16,%zmm24,%zmm29
.endm

/* a..h after round 5 to and from \off(%rsp) as the port-lean layout's
 * round 6 names them (the WOTS+ prefix: the pair kernel's rounds read
 * them so): c, d, g, h are in zmm0, 1, 4, 5 here, zmm4, 5, 0, 1 there. */
.macro STATE_R6_STORE off
	.irp	i, 2,3,6,7
	vmovdqa32	%zmm\i, \off+64*\i(%rsp)
	.endr
	vmovdqa32	%zmm0, \off+64*4(%rsp)
	vmovdqa32	%zmm1, \off+64*5(%rsp)
	vmovdqa32	%zmm4, \off+64*0(%rsp)
	vmovdqa32	%zmm5, \off+64*1(%rsp)
.endm
.macro STATE_R6_LOAD off
	.irp	i, 2,3,6,7
	vmovdqa32	\off+64*\i(%rsp), %zmm\i
	.endr
	vmovdqa32	\off+64*4(%rsp), %zmm0
	vmovdqa32	\off+64*5(%rsp), %zmm1
	vmovdqa32	\off+64*0(%rsp), %zmm4
	vmovdqa32	\off+64*1(%rsp), %zmm5
.endm

/* The body of a local subroutine: rounds 8..63 with %rax at K and W[8..23]
 * in the ring, pipelined (one shared copy per kernel: a copy per block
 * makes the chain kernels bound by instruction fetch). Clobbers %rax, %ecx. */
.macro ROUNDS_8_63_BODY
	PIPE_HEAD 8
	PIPE_HI8
	addq	$64, %rax
	movl	$2, %ecx
8:	PIPE16 1
	addq	$64, %rax
	decl	%ecx
	jnz	8b
	PIPE_TAIL16
	ret
.endm

/* 64 rounds on a..h with W[0..15] in zmm16..31, pipelined; clobbers %rax,
 * %ecx. */
.macro ROUNDS64
	leaq	fs_sha256_k(%rip), %rax
	PIPE_HEAD 0
	movl	$3, %ecx
9:	PIPE16 1
	addq	$64, %rax
	decl	%ecx
	jnz	9b
	PIPE_TAIL16
.endm

#endif
