/* sha256_x8_avx2.S - SHA-256 compression of 8 independent messages (AVX2).
 *
 * C prototype (crypto/hash/sha256.h):
 *   void fs_sha256_compress_x8_avx2(uint32_t st[8 * 8],
 *                                   const uint8_t *const in[8], size_t nblocks);
 * Word i of lane l is st[i*8 + l], so word i of all lanes is one ymm.
 * Lane l reads in[l][0 .. 64*nblocks); no alignment needed.
 *
 * Per block: the 8 lanes' rows are transposed 8x8 in registers (unpck inside
 * 128-bit halves, then vperm2i128), byte-swapped and stored as W[0..15] of
 * the message schedule, 64 words on the stack (32-byte aligned); then the
 * state is loaded from st into ymm0..7 (a..h) and the 64 rounds run with
 * scratch ymm8..13 and a^b carried between rounds in ymm14/15 (Maj from it).
 * AVX2 has no rotate: each rotation is two shifts, and the six terms of a
 * Sigma are xored as a tree (the e -> Sigma1 -> e' chain is what limits a
 * round). The 48 schedule steps W[k+16] are spread over all 64 rounds,
 * three in every four, each in two halves inside a round: one pass of 8
 * rounds (ROUNDS8, a..h renamed by macro arguments) runs 8 times, its
 * rounds' W at %r9 and its 6 schedule steps' at %r10, which advance 8 and 6
 * words a pass (the whole schedule is kept, not a 16-word ring, so that
 * every pass has the same offsets). Portable twin:
 * fs_sha256_compress_x8_portable. */

	.text

#define W(i) (32*(i))(%rsp)		/* W[i] as the block is loaded */


/* dst = ror(x, r1) ^ ror(x, r2) ^ (x >> r3 or ror(x, r3)) as a tree of
 * xors (latency 4, not 7: Sigma1(e) is on the round's critical path);
 * t, u, v are scratch. */
.macro SIG3 x, dst, t, u, v, r1, r2, r3, shr3
	vpsrld		$\r1, \x, \dst
	vpslld		$(32-\r1), \x, \t
	vpsrld		$\r2, \x, \u
	vpslld		$(32-\r2), \x, \v
	vpxor		\t, \dst, \dst
	vpxor		\v, \u, \u
	vpsrld		$\r3, \x, \t
	.if !\shr3
	vpslld		$(32-\r3), \x, \v
	vpxor		\v, \t, \t
	.endif
	vpxor		\u, \dst, \dst
	vpxor		\t, \dst, \dst
.endm

/* round 8p+t of pass p, its W at 32*t(%r9) and K (broadcast) at
 * 32*t(%rax); k >= 0 also computes the schedule step 6p+k, W[6p+k+16] at
 * 32*(k+16)(%r10) (from W[6p+k], ..+1, ..+9, ..+14 there), in two halves placed after T1 and
 * after T2 so the round's own work issues first. \xc gets a^b; \xp holds
 * the previous round's a^b, which is this round's b^c:
 * Maj(a,b,c) = ((a^b) & (b^c)) ^ b. */
.macro RND a, b, c, d, e, f, g, h, t, k, xc, xp
	vpaddd		32*\t(%r9), \h, \h
	vpaddd		32*\t(%rax), \h, \h
	SIG3		\e, %ymm8, %ymm9, %ymm10, %ymm11, 6, 11, 25, 0	/* Sigma1(e) */
	vpxor		\g, \f, %ymm12
	vpand		\e, %ymm12, %ymm12
	vpxor		\g, %ymm12, %ymm12		/* Ch(e,f,g) */
	vpaddd		%ymm12, \h, \h
	vpaddd		%ymm8, \h, \h			/* h = T1 */
	vpaddd		\h, \d, \d			/* d += T1 */
	.if \k >= 0
	vmovdqa		32*(\k+1)(%r10), %ymm13
	SIG3		%ymm13, %ymm12, %ymm9, %ymm10, %ymm11, 7, 18, 3, 1	/* sigma0(W[k+1]) */
	vpaddd		32*\k(%r10), %ymm12, %ymm13
	vpaddd		32*(\k+9)(%r10), %ymm13, %ymm13		/* W[k] + sigma0 + W[k+9] */
	.endif
	SIG3		\a, %ymm8, %ymm9, %ymm10, %ymm11, 2, 13, 22, 0	/* Sigma0(a) */
	vpxor		\b, \a, \xc
	vpand		\xp, \xc, %ymm12
	vpxor		\b, %ymm12, %ymm12		/* Maj(a,b,c) */
	vpaddd		%ymm8, %ymm12, %ymm12		/* T2 */
	vpaddd		%ymm12, \h, \h			/* h = T1 + T2 */
	.if \k >= 0
	vmovdqa		32*(\k+14)(%r10), %ymm12
	SIG3		%ymm12, %ymm8, %ymm9, %ymm10, %ymm11, 17, 19, 10, 1	/* sigma1(W[k+14]) */
	vpaddd		%ymm8, %ymm13, %ymm13
	vmovdqa		%ymm13, 32*(\k+16)(%r10)
	.endif
.endm

/* rounds 8p .. 8p+7 (a..h in ymm0..7 at round 8p, renamed one register a
 * round; a^b in ymm14/15 by turns) with the schedule's steps 6p .. 6p+5
 * in six of them: the 48 steps spread over all 64 rounds, 3 in 4, rather
 * than in the first 48 (2.9% faster on Zen 5, doc/performance.md section
 * 3). Step k runs in round 4k/3, before round k+16 reads its W. */
.macro ROUNDS8
	RND %ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7, 0, 0, %ymm14,%ymm15
	RND %ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6, 1, 1, %ymm15,%ymm14
	RND %ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5, 2, 2, %ymm14,%ymm15
	RND %ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4, 3, -1, %ymm15,%ymm14
	RND %ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3, 4, 3, %ymm14,%ymm15
	RND %ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2, 5, 4, %ymm15,%ymm14
	RND %ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1, 6, 5, %ymm14,%ymm15
	RND %ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0, 7, -1, %ymm15,%ymm14
.endm

#include "transpose_d4.h"

/* W[base+m] and W[base+4+m] from the halves of \lo (rows 0-3) and \hi (rows 4-7) */
.macro HALVES lo, hi, slot
	vperm2i128	$0x20, \hi, \lo, %ymm12
	vperm2i128	$0x31, \hi, \lo, %ymm13
	vpshufb		%ymm15, %ymm12, %ymm12
	vpshufb		%ymm15, %ymm13, %ymm13
	vmovdqa		%ymm12, W(\slot)
	vmovdqa		%ymm13, W(\slot+4)
.endm

/* message words 8*\half .. 8*\half+7 of the 8 lanes into the ring */
.macro LOAD8 half
	.irp	l, 0,1,2,3,4,5,6,7
	movq		8*\l(%rsi), %rax
	vmovdqu		32*\half(%rax,%r8), %ymm\l
	.endr
	TR4	%ymm0, %ymm1, %ymm2, %ymm3, ymm
	TR4	%ymm4, %ymm5, %ymm6, %ymm7, ymm
	HALVES	%ymm0, %ymm4, 8*\half+0
	HALVES	%ymm1, %ymm5, 8*\half+1
	HALVES	%ymm2, %ymm6, 8*\half+2
	HALVES	%ymm3, %ymm7, 8*\half+3
.endm

	.globl	fs_sha256_compress_x8_avx2
	.hidden	fs_sha256_compress_x8_avx2
	.type	fs_sha256_compress_x8_avx2, @function
	.p2align 5
fs_sha256_compress_x8_avx2:
	testq	%rdx, %rdx
	jz	3f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$2048, %rsp
	andq	$-32, %rsp
	xorl	%r8d, %r8d			/* offset of the block in every lane */
1:	vbroadcasti128	.Lbswap32(%rip), %ymm15
	LOAD8	0
	LOAD8	1
	.irp	i, 0,1,2,3,4,5,6,7
	vmovdqu		32*\i(%rdi), %ymm\i
	.endr
	vpxor	%ymm2, %ymm1, %ymm15		/* b^c for round 0's Maj */
	leaq	.Lk256x8(%rip), %rax
	movq	%rsp, %r9			/* W[t] of this pass's rounds */
	movq	%rsp, %r10			/* W[k] of its schedule steps */
	movl	$8, %ecx
2:	ROUNDS8
	addq	$256, %rax
	addq	$256, %r9
	addq	$192, %r10
	decl	%ecx
	jnz	2b
	/* feed forward: st holds the state the block started from */
	.irp	i, 0,1,2,3,4,5,6,7
	vpaddd	32*\i(%rdi), %ymm\i, %ymm\i
	vmovdqu	%ymm\i, 32*\i(%rdi)
	.endr
	addq	$64, %r8
	decq	%rdx
	jnz	1b
	vzeroupper
	movq	%rbp, %rsp
	popq	%rbp
3:	ret
	.size	fs_sha256_compress_x8_avx2, .-fs_sha256_compress_x8_avx2

	.section .rodata
	.p2align 5
.Lk256x8:	/* K[t] repeated for the 8 lanes: one load-add per round */
	.rept 8
	.long	0x428a2f98
	.endr
	.rept 8
	.long	0x71374491
	.endr
	.rept 8
	.long	0xb5c0fbcf
	.endr
	.rept 8
	.long	0xe9b5dba5
	.endr
	.rept 8
	.long	0x3956c25b
	.endr
	.rept 8
	.long	0x59f111f1
	.endr
	.rept 8
	.long	0x923f82a4
	.endr
	.rept 8
	.long	0xab1c5ed5
	.endr
	.rept 8
	.long	0xd807aa98
	.endr
	.rept 8
	.long	0x12835b01
	.endr
	.rept 8
	.long	0x243185be
	.endr
	.rept 8
	.long	0x550c7dc3
	.endr
	.rept 8
	.long	0x72be5d74
	.endr
	.rept 8
	.long	0x80deb1fe
	.endr
	.rept 8
	.long	0x9bdc06a7
	.endr
	.rept 8
	.long	0xc19bf174
	.endr
	.rept 8
	.long	0xe49b69c1
	.endr
	.rept 8
	.long	0xefbe4786
	.endr
	.rept 8
	.long	0x0fc19dc6
	.endr
	.rept 8
	.long	0x240ca1cc
	.endr
	.rept 8
	.long	0x2de92c6f
	.endr
	.rept 8
	.long	0x4a7484aa
	.endr
	.rept 8
	.long	0x5cb0a9dc
	.endr
	.rept 8
	.long	0x76f988da
	.endr
	.rept 8
	.long	0x983e5152
	.endr
	.rept 8
	.long	0xa831c66d
	.endr
	.rept 8
	.long	0xb00327c8
	.endr
	.rept 8
	.long	0xbf597fc7
	.endr
	.rept 8
	.long	0xc6e00bf3
	.endr
	.rept 8
	.long	0xd5a79147
	.endr
	.rept 8
	.long	0x06ca6351
	.endr
	.rept 8
	.long	0x14292967
	.endr
	.rept 8
	.long	0x27b70a85
	.endr
	.rept 8
	.long	0x2e1b2138
	.endr
	.rept 8
	.long	0x4d2c6dfc
	.endr
	.rept 8
	.long	0x53380d13
	.endr
	.rept 8
	.long	0x650a7354
	.endr
	.rept 8
	.long	0x766a0abb
	.endr
	.rept 8
	.long	0x81c2c92e
	.endr
	.rept 8
	.long	0x92722c85
	.endr
	.rept 8
	.long	0xa2bfe8a1
	.endr
	.rept 8
	.long	0xa81a664b
	.endr
	.rept 8
	.long	0xc24b8b70
	.endr
	.rept 8
	.long	0xc76c51a3
	.endr
	.rept 8
	.long	0xd192e819
	.endr
	.rept 8
	.long	0xd6990624
	.endr
	.rept 8
	.long	0xf40e3585
	.endr
	.rept 8
	.long	0x106aa070
	.endr
	.rept 8
	.long	0x19a4c116
	.endr
	.rept 8
	.long	0x1e376c08
	.endr
	.rept 8
	.long	0x2748774c
	.endr
	.rept 8
	.long	0x34b0bcb5
	.endr
	.rept 8
	.long	0x391c0cb3
	.endr
	.rept 8
	.long	0x4ed8aa4a
	.endr
	.rept 8
	.long	0x5b9cca4f
	.endr
	.rept 8
	.long	0x682e6ff3
	.endr
	.rept 8
	.long	0x748f82ee
	.endr
	.rept 8
	.long	0x78a5636f
	.endr
	.rept 8
	.long	0x84c87814
	.endr
	.rept 8
	.long	0x8cc70208
	.endr
	.rept 8
	.long	0x90befffa
	.endr
	.rept 8
	.long	0xa4506ceb
	.endr
	.rept 8
	.long	0xbef9a3f7
	.endr
	.rept 8
	.long	0xc67178f2
	.endr
	.p2align 4
.Lbswap32:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

	.section .note.GNU-stack,"",@progbits
