/* keccak_x16_avx512.S - Keccak-f[1600] on 16 interleaved states (AVX-512F:
 * two groups of 8 lanes), and the SHAKE absorb loop around it.
 *
 * C prototypes (crypto/hash/keccak.h):
 *   void fs_keccakf1600_x16_avx512(uint64_t st[25 * 16]);
 *   void fs_keccak_absorb_x16_avx512(uint64_t st[25 * 16], const uint8_t *const in[16],
 *                                    size_t nblocks, size_t rate);
 * Word i of lane l is st[i*16 + l]: lanes 0-7 of word i are one zmm (group
 * 0), lanes 8-15 the next (group 1). The round (keccak_x16_round.h, written
 * by tools/gen_keccak_x16.py, which says why) streams each group's state
 * row by row from st to a buffer on the stack, between two such buffers,
 * and back to st in the last round, with the column parities and five
 * words of each group in registers.
 * absorb: for each of nblocks blocks, xors the next `rate` bytes of every
 * lane (rate 136 or 168, little-endian words) into st and permutes; each
 * group's block is read as rows of 8 words per lane (the last row masked
 * to the rate: nothing past it is read) and turned into columns by an 8x8
 * transpose. rate 0 permutes nblocks times.
 * Leaf functions; 6.5 KB of stack, nothing needs alignment. Portable twins:
 * fs_keccakf1600_x16_portable and fs_keccak_absorb_blocks over it. */

#include "transpose_q8_avx512.h"
#include "keccak_absorb_avx512.h"
#include "stack_wipe.h"
#include "keccak_x16_round.h"

	.text

/* loads 8 words at byte \off of the block of lanes 8*\g..8*\g+7 (%r8 past
 * in[l]) into zmm24..31, masked by \k (masked-off words read as zero) */
.macro LOADROW16 g, l, off, k
	movq		8*(8*\g+\l-24)(%rsi), %rax
	vmovdqu64	\off(%rax,%r8), %zmm\l{\k}{z}
.endm
.macro LOADROWS16 g, off, k
	.irp	l, 24,25,26,27,28,29,30,31
	LOADROW16 \g, \l, \off, \k
	.endr
.endm
/* st word \w of group \g ^= \r; words \w..\w+7 ^= zmm8..15 */
.macro XORWORD g, w, r
	vpxorq		(128*(\w)+64*\g)(%rdi), \r, \r
	vmovdqu64	\r, (128*(\w)+64*\g)(%rdi)
.endm
.macro XORWORDS g, w
	XORWORD \g, \w+0, %zmm8
	XORWORD \g, \w+1, %zmm9
	XORWORD \g, \w+2, %zmm10
	XORWORD \g, \w+3, %zmm11
	XORWORD \g, \w+4, %zmm12
	XORWORD \g, \w+5, %zmm13
	XORWORD \g, \w+6, %zmm14
	XORWORD \g, \w+7, %zmm15
.endm
/* xors one block of group \g's 8 lanes into st (rows 0-7, 8-15 and the
 * masked 16-23: rate 168 ends at word 20, 136 at 16; the rest xor zero) */
.macro ABSORB_GROUP g
	LOADROWS16 \g, 0, %k1
	TRANSPOSE8 %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31, %zmm8,%zmm9,%zmm10,%zmm11,%zmm12,%zmm13,%zmm14,%zmm15
	XORWORDS \g, 0
	LOADROWS16 \g, 64, %k1
	TRANSPOSE8 %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31, %zmm8,%zmm9,%zmm10,%zmm11,%zmm12,%zmm13,%zmm14,%zmm15
	XORWORDS \g, 8
	LOADROWS16 \g, 128, %k2
	TRANSPOSE8 %zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31, %zmm8,%zmm9,%zmm10,%zmm11,%zmm12,%zmm13,%zmm14,%zmm15
	XORWORDS \g, 16
.endm

	.globl	fs_keccakf1600_x16_avx512
	.hidden	fs_keccakf1600_x16_avx512
	.type	fs_keccakf1600_x16_avx512, @function
	.p2align 5
fs_keccakf1600_x16_avx512:
	movl	$1, %edx
	xorl	%ecx, %ecx
	jmp	.Labsorb16
	.size	fs_keccakf1600_x16_avx512, .-fs_keccakf1600_x16_avx512

	.globl	fs_keccak_absorb_x16_avx512
	.hidden	fs_keccak_absorb_x16_avx512
	.type	fs_keccak_absorb_x16_avx512, @function
	.hidden	fs_keccak_rc
	.p2align 5
fs_keccak_absorb_x16_avx512:
.Labsorb16:
	testq	%rdx, %rdx
	jz	4f
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$(2*25*128+64), %rsp
	andq	$-64, %rsp		/* two buffers of 25 words of 128 bytes */
	ABSORB_SETUP
2:	testq	%r11, %r11
	jz	3f
	ABSORB_GROUP 0
	ABSORB_GROUP 1
	/* round 0 reads st, round 23 writes it, rounds 1-22 run between two
	 * aligned buffers on the stack (st need not be aligned) */
3:	KECCAK_X16_ENTER %rdi
	leaq	fs_keccak_rc(%rip), %rax
	leaq	23*8(%rax), %rcx
	leaq	25*128(%rsp), %r9
	KECCAK_X16_ROUND %rdi, %rsp
	addq	$8, %rax
	.p2align 5
1:	KECCAK_X16_ROUND %rsp, %r9
	addq	$8, %rax
	KECCAK_X16_ROUND %r9, %rsp
	addq	$8, %rax
	cmpq	%rcx, %rax
	jne	1b
	KECCAK_X16_ROUND %rsp, %rdi
	KECCAK_X16_LEAVE %rdi
	addq	%r11, %r8
	decq	%r10
	jnz	2b
	/* the buffers hold the states after rounds 21 and 22 (stack_wipe.h) */
	WIPE_STACK	%zmm0, 2*25*128, %rax
	movq	%rbp, %rsp
	popq	%rbp
	vzeroupper
4:	ret
	.size	fs_keccak_absorb_x16_avx512, .-fs_keccak_absorb_x16_avx512

	.section .note.GNU-stack,"",@progbits
