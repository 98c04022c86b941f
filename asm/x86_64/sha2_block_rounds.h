/* sha2_block_rounds.h - the rounds and the feed-forward of one block in the
 * SHA-2 lane kernels on ymm/zmm registers 0..7 (sha256_x8_avx2.S):
 * `loops` passes of the including
 * kernel's ROUNDS16 that also extend the message schedule, K advancing by
 * kstep bytes from table k at %rax, one last pass without, then each state
 * row at %rdi gets the block's result added (add) and stored back (mov),
 * rows vbytes apart in register kind v. Uses rax and ecx. */
.macro SHA2_BLOCK_ROUNDS k, loops, kstep, add, mov, v, vbytes
	leaq	\k(%rip), %rax
	movl	$\loops, %ecx
2:	ROUNDS16 1
	addq	$\kstep, %rax
	decl	%ecx
	jnz	2b
	ROUNDS16 0
	/* feed forward: st holds the state the block started from */
	.irp	i, 0,1,2,3,4,5,6,7
	\add	\vbytes*\i(%rdi), %\v\()\i, %\v\()\i
	\mov	%\v\()\i, \vbytes*\i(%rdi)
	.endr
.endm
