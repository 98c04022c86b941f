/* sha2_rounds16_ymm.h - sixteen rounds of the eight-lane-register SHA-2
 * kernel (sha256_x8_avx2.S): the state a..h in ymm0..7
 * rotates by one register per round, and the two scratch registers ymm14
 * and ymm15 (the b^c carried from one round to the next) swap. RND is the
 * including kernel's round: RND a,b,c,d,e,f,g,h, i, sched, x, y with i the
 * round within the 16 (its K word at i words from %rax) and sched 1 to
 * extend the message schedule as well. */
.macro ROUNDS16 sched
	RND %ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7, 0,\sched,%ymm14,%ymm15
	RND %ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6, 1,\sched,%ymm15,%ymm14
	RND %ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5, 2,\sched,%ymm14,%ymm15
	RND %ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4, 3,\sched,%ymm15,%ymm14
	RND %ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3, 4,\sched,%ymm14,%ymm15
	RND %ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2, 5,\sched,%ymm15,%ymm14
	RND %ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1, 6,\sched,%ymm14,%ymm15
	RND %ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0, 7,\sched,%ymm15,%ymm14
	RND %ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7, 8,\sched,%ymm14,%ymm15
	RND %ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6, 9,\sched,%ymm15,%ymm14
	RND %ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,10,\sched,%ymm14,%ymm15
	RND %ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,11,\sched,%ymm15,%ymm14
	RND %ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2,%ymm3,12,\sched,%ymm14,%ymm15
	RND %ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1,%ymm2,13,\sched,%ymm15,%ymm14
	RND %ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0,%ymm1,14,\sched,%ymm14,%ymm15
	RND %ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7,%ymm0,15,\sched,%ymm15,%ymm14
.endm
