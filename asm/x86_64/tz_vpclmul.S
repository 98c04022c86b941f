/* tz_vpclmul.S - Tillich-Zemor with AVX-512F/BW + VPCLMULQDQ: four
 * independent streams, one per 128-bit lane of each zmm register.
 * C twin: tz_twin_segments (crypto/tz/tz_twin.c); the algorithm and the
 * lazy 128-bit state are described in crypto/tz/tz_clmul.h.
 *
 *   void tz_vpclmul_segments(gf127 st[16], const uint8_t *data,
 *                            size_t rounds, size_t stride);
 *   void tz_vpclmul_mul_blocks(sl2 *state, const uint8_t *data, size_t blocks);
 *
 * 8-byte rounds. Lane l hashes 8*rounds bytes at data + l*stride into st[4e + l]
 * (e = c00, c01, c10, c11): zmm18..21 hold c00..c11 of the four lanes.
 * vpclmulqdq $imm, src2, src1, dst: imm bit 0 picks the qword of src1,
 * bit 4 of src2, in every lane. */

        .text

/* Bytes k of the four streams -> 16-byte table entries in the four lanes of
 * z: broadcast loads merged under k1..k3 (lanes 1..3) keep the shuffle unit
 * free for the clmuls and byte shifts. */
.macro GATHER k, toff, z, x
        movzbl          \k(%rsi), %eax
        movzbl          \k(%r8), %ecx
        shll            $4, %eax
        shll            $4, %ecx
        vbroadcasti32x4 \toff(%r11,%rax), \z
        vbroadcasti32x4 \toff(%r11,%rcx), \z{%k1}
        movzbl          \k(%r9), %eax
        movzbl          \k(%r10), %ecx
        shll            $4, %eax
        shll            $4, %ecx
        vbroadcasti32x4 \toff(%r11,%rax), \z{%k2}
        vbroadcasti32x4 \toff(%r11,%rcx), \z{%k3}
.endm

/* Byte k of the four streams -> a[byte] (tz_tab_pair, 8-byte entries) in
 * both qwords of the four lanes of z, under the qword masks k4..k6. */
.macro GATHER_A k, z
        movzbl          \k(%rsi), %eax
        movzbl          \k(%r8), %ecx
        vpbroadcastq    (%r11,%rax,8), \z
        vpbroadcastq    (%r11,%rcx,8), \z{%k4}
        movzbl          \k(%r9), %eax
        movzbl          \k(%r10), %ecx
        vpbroadcastq    (%r11,%rax,8), \z{%k5}
        vpbroadcastq    (%r11,%rcx,8), \z{%k6}
.endm

/* Column products of the byte pair (A, B) from tz_tab_pair: p = [e00, e10],
 * q = [e01, e11], each entry moved to bits 47..63 (junk below) by the
 * per-qword shift counts [30, 26] in zmm29. */
.macro PAIRCOL a, b, p, q
        vpclmulqdq      $0x00, \b, \a, \p               /* A * B_0 */
        vpclmulqdq      $0x10, \b, \a, \q               /* A * B_1 */
        vpsllvq         %zmm29, \p, \p
        vpsllvq         %zmm29, \q, \q
.endm

/* Row-packed pair product into p: [e00<<33 | e01, e10<<33 | e11]. */
.macro PAIR_LEFT a, b, p, q
        PAIRCOL         \a, \b, \p, \q
        vpsrlq          $14, \p, \p
        vpsrlq          $47, \q, \q
        vpternlogq      $0xea, \q, %zmm30, \p           /* (p & mhi) | q */
.endm

/* Column-packed pair product into p: [e00 | e10<<33, e01 | e11<<33]. */
.macro PAIR_RIGHT a, b, p, q, t
        PAIRCOL         \a, \b, \p, \q
        vpunpcklqdq     \q, \p, \t                      /* [e00, e01] */
        vpunpckhqdq     \q, \p, \p                      /* [e10, e11] */
        vpsrlq          $14, \p, \p
        vpsrlq          $47, \t, \t
        vpternlogq      $0xea, \t, %zmm30, \p
.endm

/* The level-2 products T_ij = row i of l . column j of r (entry at bits
 * 33..65) into t00, t01, t10, t11. */
.macro QUAD l, r, t00, t01, t10, t11
        vpclmulqdq      $0x00, \r, \l, \t00
        vpclmulqdq      $0x10, \r, \l, \t01
        vpclmulqdq      $0x01, \r, \l, \t10
        vpclmulqdq      $0x11, \r, \l, \t11
.endm

/* u = [entry of ta, entry of tb], 33 bits each; clobbers v. */
.macro EXT2 ta, tb, u, v
        vpunpcklqdq     \tb, \ta, \u
        vpunpckhqdq     \tb, \ta, \v
        vpsrlq          $33, \u, \u
        vpsllq          $31, \v, \v
        vpternlogq      $0xa8, %zmm31, \v, \u           /* (u | v) & m33 */
.endm

/* out = ca*ma + cb*mb + extra*x^64 (ma, mb: qword 0, < 2^64), as X + Y x^64
 * folded with x^128 = x^64 + x:  X ^ [Y.hi<<1, Y.lo ^ Y.hi ^ Y.hi>>63].
 * out may be cb; t3 may be out. */
.macro ENTRY65 ca, cb, ma, mb, extra, out, t1, t2, t3, t4, t5
        vpclmulqdq      $0x00, \ma, \ca, \t1            /* ca.lo * ma */
        vpclmulqdq      $0x00, \mb, \cb, \t2            /* cb.lo * mb */
        vpclmulqdq      $0x01, \ma, \ca, \t3            /* ca.hi * ma */
        vpclmulqdq      $0x01, \mb, \cb, \t4            /* cb.hi * mb */
        vpternlogq      $0x96, \extra, \t4, \t3         /* Y */
        vpsrldq         $8, \t3, \t4                    /* [Y.hi, 0] */
        vpsrlq          $63, \t4, \t5                   /* [Y.hi>>63, 0] */
        vpternlogq      $0x96, \t5, \t4, \t3            /* [Y.lo^Y.hi^(Y.hi>>63), .] */
        vpslldq         $8, \t3, \t3
        vpsllq          $1, \t4, \t4                    /* [Y.hi<<1, 0] */
        vpternlogq      $0x96, \t2, \t1, \t3            /* ^ X */
        vpxorq          \t4, \t3, \out
.endm

/* Constants, gather masks and the table base of TREE8. */
.macro TREE8_SETUP
        vpbroadcastq    .Lmhi(%rip), %zmm30
        vpbroadcastq    .Lm33(%rip), %zmm31
        vbroadcasti32x4 .Lsh4726(%rip), %zmm29
        movl    $0x00f0, %eax
        kmovw   %eax, %k1                       /* dwords of lane 1 */
        movl    $0x0f00, %eax
        kmovw   %eax, %k2
        movl    $0xf000, %eax
        kmovw   %eax, %k3
        movl    $0x0c, %eax
        kmovw   %eax, %k4                       /* qwords of lane 1 */
        movl    $0x30, %eax
        kmovw   %eax, %k5
        movl    $0xc0, %eax
        kmovw   %eax, %k6
        leaq    tz_tab_pair(%rip), %r11         /* a; b at +2048 */
.endm

/* The matrices M of the next 8 bytes at rsi, r8, r9, r10 (one per lane):
 * e00, e01, e10, e11 in zmm0, 2, 4, 6 (low 64 bits in qword 0 of each lane)
 * and in zmm16 the mask of the lanes whose e01 has x^64; clobbers
 * zmm1..15, rax, rcx. */
.macro TREE8
        GATHER_A 0, %zmm0
        GATHER  1, 2048, %zmm1, %xmm1
        GATHER_A 2, %zmm2
        GATHER  3, 2048, %zmm3, %xmm3
        GATHER_A 4, %zmm4
        GATHER  5, 2048, %zmm5, %xmm5
        GATHER_A 6, %zmm6
        GATHER  7, 2048, %zmm7, %xmm7
        /* level 1: byte pairs */
        PAIR_LEFT       %zmm0, %zmm1, %zmm8, %zmm9      /* M(b0 b1) */
        PAIR_RIGHT      %zmm2, %zmm3, %zmm9, %zmm10, %zmm11     /* M(b2 b3) */
        PAIR_LEFT       %zmm4, %zmm5, %zmm10, %zmm11    /* M(b4 b5) */
        PAIR_RIGHT      %zmm6, %zmm7, %zmm11, %zmm12, %zmm13    /* M(b6 b7) */
        /* level 2: M(b0..b3) in zmm0..3, M(b4..b7) in zmm4..7 */
        QUAD    %zmm8, %zmm9, %zmm0, %zmm1, %zmm2, %zmm3
        QUAD    %zmm10, %zmm11, %zmm4, %zmm5, %zmm6, %zmm7
        EXT2    %zmm0, %zmm1, %zmm8, %zmm9              /* [l00, l01] */
        EXT2    %zmm2, %zmm3, %zmm10, %zmm11            /* [l10, l11] */
        EXT2    %zmm4, %zmm6, %zmm12, %zmm13            /* [r00, r10] */
        EXT2    %zmm5, %zmm7, %zmm14, %zmm15            /* [r01, r11] */
        /* level 3: e_ij = l_i0 r_0j + l_i1 r_1j, degree <= 64 */
        vpclmulqdq      $0x00, %zmm12, %zmm8, %zmm0
        vpclmulqdq      $0x11, %zmm12, %zmm8, %zmm1
        vpclmulqdq      $0x00, %zmm14, %zmm8, %zmm2
        vpclmulqdq      $0x11, %zmm14, %zmm8, %zmm3
        vpclmulqdq      $0x00, %zmm12, %zmm10, %zmm4
        vpclmulqdq      $0x11, %zmm12, %zmm10, %zmm5
        vpclmulqdq      $0x00, %zmm14, %zmm10, %zmm6
        vpclmulqdq      $0x11, %zmm14, %zmm10, %zmm7
        vpxorq          %zmm1, %zmm0, %zmm0             /* e00 */
        vpxorq          %zmm3, %zmm2, %zmm2             /* e01 */
        vpxorq          %zmm5, %zmm4, %zmm4             /* e10 */
        vpxorq          %zmm7, %zmm6, %zmm6             /* e11 */
        /* x^64 of e00 is always set, of e01 when bit 64 says so: mask */
        vpshufd         $0xaa, %zmm2, %zmm16
        vpslld          $31, %zmm16, %zmm16
        vpsrad          $31, %zmm16, %zmm16
.endm

        .globl  tz_vpclmul_segments
        .hidden tz_vpclmul_segments
        .type   tz_vpclmul_segments, @function
        .balign 32
tz_vpclmul_segments:
        vmovdqu64       0(%rdi), %zmm18
        vmovdqu64       64(%rdi), %zmm19
        vmovdqu64       128(%rdi), %zmm20
        vmovdqu64       192(%rdi), %zmm21
        TREE8_SETUP
        leaq    (%rsi,%rcx), %r8                /* stream 1 */
        leaq    (%r8,%rcx), %r9                 /* stream 2 */
        leaq    (%r9,%rcx), %r10                /* stream 3 */
        testq   %rdx, %rdx
        jz      .Ldone
        .balign 32
.Lround:
        TREE8
        vpandq          %zmm16, %zmm18, %zmm17          /* c00 if e01 has x^64 */
        vpandq          %zmm16, %zmm20, %zmm16          /* c10 if e01 has x^64 */
        /* state *= M */
        ENTRY65 %zmm18, %zmm19, %zmm0, %zmm4, %zmm18, %zmm22, %zmm1, %zmm3, %zmm5, %zmm7, %zmm8
        ENTRY65 %zmm18, %zmm19, %zmm2, %zmm6, %zmm17, %zmm19, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13
        vmovdqa64       %zmm22, %zmm18
        ENTRY65 %zmm20, %zmm21, %zmm0, %zmm4, %zmm20, %zmm23, %zmm14, %zmm15, %zmm24, %zmm25, %zmm26
        ENTRY65 %zmm20, %zmm21, %zmm2, %zmm6, %zmm16, %zmm21, %zmm27, %zmm28, %zmm1, %zmm3, %zmm5
        vmovdqa64       %zmm23, %zmm20
        addq    $8, %rsi
        addq    $8, %r8
        addq    $8, %r9
        addq    $8, %r10
        decq    %rdx
        jnz     .Lround
.Ldone:
        vmovdqu64       %zmm18, 0(%rdi)
        vmovdqu64       %zmm19, 64(%rdi)
        vmovdqu64       %zmm20, 128(%rdi)
        vmovdqu64       %zmm21, 192(%rdi)
        vzeroupper
        ret
        .size   tz_vpclmul_segments, .-tz_vpclmul_segments


/* One stream, 32-byte blocks: lane r of TREE8 holds the matrix of bytes
 * 8r..8r+7 (streams at stride 8), applied in order to one state held as
 * zmm18 = [c00, c01, c10, c11]. Lane (i,j) computes c_i0 e_0j + c_i1 e_1j
 * + c_i0 x^64 (for j = 0, or j = 1 when e01 of block lane r has x^64):
 * A = [c00, c00, c10, c10], B = [c01, c01, c11, c11] by lane shuffles,
 * MA = [e00, e01, e00, e01], MB = [e10, e11, e10, e11] by qword permutes.
 *
 *   void tz_vpclmul_mul_blocks(sl2 *state, const uint8_t *data, size_t blocks);
 * Canonical state out. C twin: tz_twin_mul_bytes on 32*blocks bytes. */
.macro APPLY1 r
        vmovdqa64       %zmm\r, %zmm21
        vpermi2q        %zmm2, %zmm0, %zmm21            /* MA */
        vmovdqa64       %zmm\r, %zmm22
        vpermi2q        %zmm6, %zmm4, %zmm22            /* MB */
        vshufi64x2      $0xa0, %zmm18, %zmm18, %zmm19   /* A: lanes 0,0,2,2 */
        vshufi64x2      $0xf5, %zmm18, %zmm18, %zmm20   /* B: lanes 1,1,3,3 */
        vshufi64x2      $((\r - 24) * 0x55), %zmm16, %zmm16, %zmm17 /* e01 mask of lane r */
        vpternlogq      $0xa8, %zmm19, %zmm23, %zmm17   /* extra = A & (mask | j=0) */
        vpclmulqdq      $0x00, %zmm21, %zmm19, %zmm1    /* A.lo * MA */
        vpclmulqdq      $0x00, %zmm22, %zmm20, %zmm3    /* B.lo * MB */
        vpclmulqdq      $0x01, %zmm21, %zmm19, %zmm5    /* A.hi * MA */
        vpclmulqdq      $0x01, %zmm22, %zmm20, %zmm7    /* B.hi * MB */
        /* the fold of ENTRY65: X ^ [Y.hi<<1, Y.lo ^ Y.hi ^ Y.hi>>63] */
        vpternlogq      $0x96, %zmm17, %zmm7, %zmm5     /* Y */
        vpxorq          %zmm3, %zmm1, %zmm18            /* X (A, B hold the old C) */
        vpslldq         $8, %zmm5, %zmm1                /* [0, Y.lo] */
        vpsrldq         $8, %zmm5, %zmm3                /* [Y.hi, 0] */
        vpsrlq          $63, %zmm5, %zmm7
        vpternlogq      $0x28, %zmm28, %zmm7, %zmm5     /* [0, Y.hi ^ Y.hi>>63] */
        vpsllq          $1, %zmm3, %zmm3                /* [Y.hi<<1, 0] */
        vpternlogq      $0x96, %zmm1, %zmm5, %zmm18
        vpxorq          %zmm3, %zmm18, %zmm18
.endm

        .globl  tz_vpclmul_mul_blocks
        .hidden tz_vpclmul_mul_blocks
        .type   tz_vpclmul_mul_blocks, @function
        .balign 32
tz_vpclmul_mul_blocks:
        vmovdqu64       (%rdi), %zmm18
        TREE8_SETUP
        vmovdqa64       .Lidx+0(%rip), %zmm24
        vmovdqa64       .Lidx+64(%rip), %zmm25
        vmovdqa64       .Lidx+128(%rip), %zmm26
        vmovdqa64       .Lidx+192(%rip), %zmm27
        vmovdqa64       .Lhiq(%rip), %zmm28
        vmovdqa64       .Lcol0(%rip), %zmm23
        leaq    8(%rsi), %r8
        leaq    16(%rsi), %r9
        leaq    24(%rsi), %r10
        testq   %rdx, %rdx
        jz      .Lbdone
        .balign 32
.Lblock:
        TREE8
        APPLY1  24
        APPLY1  25
        APPLY1  26
        APPLY1  27
        addq    $32, %rsi
        addq    $32, %r8
        addq    $32, %r9
        addq    $32, %r10
        decq    %rdx
        jnz     .Lblock
.Lbdone:
        /* canonical: bit 127 folds back as x^63 + 1 */
        vpsrlq          $63, %zmm18, %zmm0
        vpsrldq         $8, %zmm0, %zmm0                /* [b, 0] */
        vpsllq          $63, %zmm0, %zmm1               /* [b<<63, 0] */
        vpternlogq      $0x96, %zmm1, %zmm0, %zmm18
        vpandq          .Lmask127(%rip), %zmm18, %zmm18
        vmovdqu64       %zmm18, (%rdi)
        vzeroupper
        ret
        .size   tz_vpclmul_mul_blocks, .-tz_vpclmul_mul_blocks

        .section .rodata
        .balign 64
/* vpermi2q indices for block lane r (qword 2r): from the first table (e00
 * or e10) for output lanes (i,0), from the second (e01 or e11) for (i,1). */
.Lidx:  .quad   0, 0, 8, 8, 0, 0, 8, 8
        .quad   2, 2, 10, 10, 2, 2, 10, 10
        .quad   4, 4, 12, 12, 4, 4, 12, 12
        .quad   6, 6, 14, 14, 6, 6, 14, 14
.Lhiq:  .quad   0, -1, 0, -1, 0, -1, 0, -1      /* qword 1 of each lane */
.Lcol0: .quad   -1, -1, 0, 0, -1, -1, 0, 0      /* lanes (i, 0) */
.Lmask127:
        .quad   -1, 0x7fffffffffffffff, -1, 0x7fffffffffffffff
        .quad   -1, 0x7fffffffffffffff, -1, 0x7fffffffffffffff
.Lsh4726:
        .quad   30, 26                          /* e_0j, e_1j to bits 47..63 */
.Lmhi:  .quad   0xfffffffe00000000      /* ~(2^33 - 1) */
.Lm33:  .quad   0x00000001ffffffff      /* 2^33 - 1 */

        .section .note.GNU-stack, "", @progbits
