/* stack_wipe.h - zeroing a kernel's stack scratch before it returns: the
 * message schedules and state copies there give back what was hashed (the
 * schedule runs backwards; a Keccak state's rounds invert), and the lane
 * engine wipes its own copies of secret inputs (PRF keys, WOTS+ chains).
 * Included by .S files only. */
#ifndef FASTSIG_STACK_WIPE_H
#define FASTSIG_STACK_WIPE_H

/* Zeroes \bytes (a multiple of 256) from (%rsp) up, %rsp 64-byte aligned,
 * four stores a turn; clobbers \zreg and \ptr. The loop count is fixed. */
.macro WIPE_STACK zreg, bytes, ptr
	vpxord		\zreg, \zreg, \zreg
	leaq		\bytes(%rsp), \ptr
.Lwipe\@:
	subq		$256, \ptr
	vmovdqa64	\zreg, (\ptr)
	vmovdqa64	\zreg, 64(\ptr)
	vmovdqa64	\zreg, 128(\ptr)
	vmovdqa64	\zreg, 192(\ptr)
	cmpq		%rsp, \ptr
	jne		.Lwipe\@
.endm

#endif
