/* tz_pclmul.S - Tillich-Zemor with SSE4.1 + PCLMULQDQ, one stream.
 * C twins: tz_twin_mul_bytes and sl2_mul (crypto/tz/tz_twin.c, sl2.c); the
 * algorithm and the lazy 128-bit state are described in crypto/tz/tz_clmul.h.
 *
 *   void tz_pclmul_mul_bytes(sl2 *state, const uint8_t *data, size_t len);
 *   void tz_pclmul_sl2_mul(sl2 *r, const sl2 *a, const sl2 *b);
 *
 * An sl2 is four 16-byte elements {lo, hi}: one xmm register each.
 * pclmulqdq $imm, src, dst: imm bit 0 picks the qword of dst, bit 4 of src. */

        .text

/* out = ca*ma + cb*mb for a lazy 128-bit ca, cb and small ma, mb (qword
 * picked by sa/sb = 0x00 or 0x10), folded to 128 bits:
 * X + Y x^64 = X ^ [Y.hi<<1, Y.lo ^ Y.hi]  since x^128 = x^64 + x. */
.macro ENTRY ca, cb, ma, sa, mb, sb, out, t2, t3, t4
        movdqa          \ca, \out
        pclmulqdq       $(0x00 + \sa), \ma, \out        /* ca.lo * ma */
        movdqa          \cb, \t2
        pclmulqdq       $(0x00 + \sb), \mb, \t2         /* cb.lo * mb */
        movdqa          \ca, \t3
        pclmulqdq       $(0x01 + \sa), \ma, \t3         /* ca.hi * ma */
        movdqa          \cb, \t4
        pclmulqdq       $(0x01 + \sb), \mb, \t4         /* cb.hi * mb */
        pxor            \t2, \out                       /* X */
        pxor            \t4, \t3                        /* Y */
        movdqa          \t3, \t4
        psrldq          $8, \t4                         /* [Y.hi, 0] */
        pxor            \t4, \t3                        /* [Y.lo^Y.hi, Y.hi] */
        pslldq          $8, \t3                         /* [0, Y.lo^Y.hi] */
        psllq           $1, \t4                         /* [Y.hi<<1, 0] */
        pxor            \t3, \out
        pxor            \t4, \out
.endm

/* state (xmm0..3 = c00 c01 c10 c11) *= [[m00, m01], [m10, m11]] */
.macro APPLY m00, s00, m01, s01, m10, s10, m11, s11
        ENTRY   %xmm0, %xmm1, \m00, \s00, \m10, \s10, %xmm8, %xmm9, %xmm10, %xmm11
        ENTRY   %xmm0, %xmm1, \m01, \s01, \m11, \s11, %xmm12, %xmm9, %xmm10, %xmm11
        movdqa  %xmm8, %xmm0
        movdqa  %xmm12, %xmm1
        ENTRY   %xmm2, %xmm3, \m00, \s00, \m10, \s10, %xmm8, %xmm9, %xmm10, %xmm11
        ENTRY   %xmm2, %xmm3, \m01, \s01, \m11, \s11, %xmm12, %xmm9, %xmm10, %xmm11
        movdqa  %xmm8, %xmm2
        movdqa  %xmm12, %xmm3
.endm

/* ---- 8-byte rounds (twin: round8 in tz_twin.c) ---- */

/* x = [x.q0 << 30, x.q1 << 26]: e_0j, e_1j of a column product to bits
 * 47..63 (junk below). */
.macro ALIGN47 x, t
        movdqa          \x, \t
        psllq           $30, \x
        psllq           $26, \t
        pblendw         $0xf0, \t, \x                   /* high qword from t */
.endm

/* Column products of bytes (ra: byte, rb: byte*16): p = [e00, e10],
 * q = [e01, e11] at bits 47..63. */
.macro PAIRCOL ra, rb, p, q, t
        movq            (%r11,\ra,8), \p                /* a[x] */
        movdqa          \p, \q
        pclmulqdq       $0x00, 2048(%r11,\rb), \p       /* A * B_0 */
        pclmulqdq       $0x10, 2048(%r11,\rb), \q       /* A * B_1 */
        ALIGN47         \p, \t
        ALIGN47         \q, \t
.endm

/* Row-packed pair product into p: [e00<<33 | e01, e10<<33 | e11]. */
.macro PAIR_LEFT ra, rb, p, q, t
        PAIRCOL         \ra, \rb, \p, \q, \t
        psrlq           $14, \p
        pand            .Lmhi(%rip), \p
        psrlq           $47, \q
        por             \q, \p
.endm

/* Column-packed pair product into p: [e00 | e10<<33, e01 | e11<<33]. */
.macro PAIR_RIGHT ra, rb, p, q, t
        PAIRCOL         \ra, \rb, \p, \q, \t
        movdqa          \p, \t
        punpcklqdq      \q, \t                          /* [e00, e01] */
        punpckhqdq      \q, \p                          /* [e10, e11] */
        psrlq           $14, \p
        pand            .Lmhi(%rip), \p
        psrlq           $47, \t
        por             \t, \p
.endm

/* T_ij = row i of l . column j of r, entry at bits 33..65; t11 may be l. */
.macro QUAD l, r, t00, t01, t10, t11
        movdqa          \l, \t00
        pclmulqdq       $0x00, \r, \t00
        movdqa          \l, \t01
        pclmulqdq       $0x10, \r, \t01
        movdqa          \l, \t10
        pclmulqdq       $0x01, \r, \t10
        movdqa          \l, \t11
        pclmulqdq       $0x11, \r, \t11
.endm

/* u = [entry of ta, entry of tb], 33 bits each; clobbers ta. */
.macro EXT2 ta, tb, u
        movdqa          \ta, \u
        punpcklqdq      \tb, \u
        punpckhqdq      \tb, \ta
        psrlq           $33, \u
        psllq           $31, \ta
        por             \ta, \u
        pand            .Lm33(%rip), \u
.endm

/* out = l.q0 * r.q0 + l.q1 * r.q1 */
.macro DOT l, r, out, t
        movdqa          \l, \out
        pclmulqdq       $0x00, \r, \out
        movdqa          \l, \t
        pclmulqdq       $0x11, \r, \t
        pxor            \t, \out
.endm

/* Bytes k..k+3 at rsi -> M(b_k..b_k+3) as T00, T01, T10, T11 in xmm6, 7, 8, 4;
 * clobbers rax, rcx, r8, r9, xmm5. */
.macro QUAD8 k
        movzbl  \k(%rsi), %eax
        movzbl  \k+1(%rsi), %ecx
        movzbl  \k+2(%rsi), %r8d
        movzbl  \k+3(%rsi), %r9d
        shll    $4, %ecx
        shll    $4, %r9d
        PAIR_LEFT       %rax, %rcx, %xmm4, %xmm5, %xmm6
        PAIR_RIGHT      %r8, %r9, %xmm5, %xmm6, %xmm7
        QUAD    %xmm4, %xmm5, %xmm6, %xmm7, %xmm8, %xmm4
.endm

/* out = ca*ma + cb*mb + extra*x^64 (ma, mb < 2^64 in qword 0), folded:
 * X ^ [Y.hi<<1, Y.lo ^ Y.hi ^ Y.hi>>63]. */
.macro ENTRY65 ca, cb, ma, mb, extra, out, t2, t3, t4
        movdqa          \ca, \out
        pclmulqdq       $0x00, \ma, \out                /* ca.lo * ma */
        movdqa          \cb, \t2
        pclmulqdq       $0x00, \mb, \t2                 /* cb.lo * mb */
        movdqa          \ca, \t3
        pclmulqdq       $0x01, \ma, \t3                 /* ca.hi * ma */
        movdqa          \cb, \t4
        pclmulqdq       $0x01, \mb, \t4                 /* cb.hi * mb */
        pxor            \t2, \out                       /* X */
        pxor            \t4, \t3
        pxor            \extra, \t3                     /* Y */
        movdqa          \t3, \t4
        psrldq          $8, \t4                         /* [Y.hi, 0] */
        pxor            \t4, \t3
        movdqa          \t4, \t2
        psrlq           $63, \t2                        /* [Y.hi>>63, 0] */
        pxor            \t2, \t3
        pslldq          $8, \t3                         /* [0, Y.lo^Y.hi^(Y.hi>>63)] */
        psllq           $1, \t4                         /* [Y.hi<<1, 0] */
        pxor            \t3, \out
        pxor            \t4, \out
.endm

/* Row (ca, cb) of the state times M = [[e00 xmm4, e01 xmm5], [e10 xmm6,
 * e11 xmm7]] with x^64 in e00, and in e01 under the mask xmm8. */
.macro ROW8 ca, cb
        ENTRY65 \ca, \cb, %xmm4, %xmm6, \ca, %xmm9, %xmm10, %xmm11, %xmm12
        movdqa          \ca, %xmm13
        pand            %xmm8, %xmm13
        ENTRY65 \ca, \cb, %xmm5, %xmm7, %xmm13, %xmm14, %xmm10, %xmm11, %xmm12
        movdqa          %xmm9, \ca
        movdqa          %xmm14, \cb
.endm

/* c = canonical(c): bit 127 folds back as x^63 + 1. */
.macro FOLD c, t1, t2
        movdqa          \c, \t1
        psrlq           $63, \t1
        psrldq          $8, \t1                         /* [b, 0] */
        movdqa          \t1, \t2
        psllq           $63, \t2                        /* [b<<63, 0] */
        pxor            \t1, \c
        pxor            \t2, \c
        pand            .Lmask127(%rip), \c
.endm

        .globl  tz_pclmul_mul_bytes
        .hidden tz_pclmul_mul_bytes
        .type   tz_pclmul_mul_bytes, @function
        .balign 32
tz_pclmul_mul_bytes:
        movdqu  0(%rdi), %xmm0
        movdqu  16(%rdi), %xmm1
        movdqu  32(%rdi), %xmm2
        movdqu  48(%rdi), %xmm3
        leaq    tz_tab(%rip), %r10              /* left; right at +4096 */
        leaq    tz_tab_pair(%rip), %r11         /* a; b at +2048 */
        cmpq    $8, %rdx
        jb      .Lrounds4
.Lround8:
        QUAD8   0
        EXT2    %xmm6, %xmm7, %xmm9                     /* [l00, l01] */
        EXT2    %xmm8, %xmm4, %xmm10                    /* [l10, l11] */
        QUAD8   4
        EXT2    %xmm6, %xmm8, %xmm11                    /* [r00, r10] */
        EXT2    %xmm7, %xmm4, %xmm12                    /* [r01, r11] */
        /* e_ij = l_i0 r_0j + l_i1 r_1j, degree <= 64 */
        DOT     %xmm9, %xmm11, %xmm4, %xmm13            /* e00 */
        DOT     %xmm9, %xmm12, %xmm5, %xmm13            /* e01 */
        DOT     %xmm10, %xmm11, %xmm6, %xmm13           /* e10 */
        DOT     %xmm10, %xmm12, %xmm7, %xmm13           /* e11 */
        pshufd          $0xaa, %xmm5, %xmm8             /* bit 64 of e01 ... */
        pslld           $31, %xmm8
        psrad           $31, %xmm8                      /* ... as a mask */
        ROW8    %xmm0, %xmm1
        ROW8    %xmm2, %xmm3
        addq    $8, %rsi
        subq    $8, %rdx
        cmpq    $8, %rdx
        jae     .Lround8
.Lrounds4:
        movdqa  .Lmhi(%rip), %xmm14             /* the 8-byte rounds used them */
        movdqa  .Lm33(%rip), %xmm15
        cmpq    $4, %rdx
        jb      .Lbytes
.Lround:
        movzbl  0(%rsi), %eax
        movzbl  1(%rsi), %ecx
        movzbl  2(%rsi), %r8d
        movzbl  3(%rsi), %r9d
        shll    $4, %eax
        shll    $4, %ecx
        shll    $4, %r8d
        shll    $4, %r9d
        /* M(b0)M(b1), row-packed into xmm9 */
        movdqa          (%r10,%rax), %xmm8              /* left[b0] */
        movdqa          %xmm8, %xmm9
        pclmulqdq       $0x00, 4096(%r10,%rcx), %xmm9   /* R00 */
        movdqa          %xmm8, %xmm10
        pclmulqdq       $0x10, 4096(%r10,%rcx), %xmm10  /* R01 */
        movdqa          %xmm8, %xmm11
        pclmulqdq       $0x01, 4096(%r10,%rcx), %xmm11  /* R10 */
        pclmulqdq       $0x11, 4096(%r10,%rcx), %xmm8   /* R11 */
        punpcklqdq      %xmm11, %xmm9                   /* [R00, R10] */
        punpcklqdq      %xmm8, %xmm10                   /* [R01, R11] */
        pand            %xmm14, %xmm9
        psrlq           $33, %xmm10
        por             %xmm10, %xmm9
        /* M(b2)M(b3), column-packed into xmm13 */
        movdqa          (%r10,%r8), %xmm10              /* left[b2] */
        movdqa          %xmm10, %xmm11
        pclmulqdq       $0x00, 4096(%r10,%r9), %xmm11   /* S00 */
        movdqa          %xmm10, %xmm12
        pclmulqdq       $0x10, 4096(%r10,%r9), %xmm12   /* S01 */
        movdqa          %xmm10, %xmm13
        pclmulqdq       $0x01, 4096(%r10,%r9), %xmm13   /* S10 */
        pclmulqdq       $0x11, 4096(%r10,%r9), %xmm10   /* S11 */
        punpcklqdq      %xmm10, %xmm13                  /* [S10, S11] */
        punpcklqdq      %xmm12, %xmm11                  /* [S00, S01] */
        pand            %xmm14, %xmm13
        psrlq           $33, %xmm11
        por             %xmm11, %xmm13
        /* M = M01 * M23: entry ij at bits 33..65 of T_ij */
        movdqa          %xmm9, %xmm4
        pclmulqdq       $0x00, %xmm13, %xmm4
        movdqa          %xmm9, %xmm5
        pclmulqdq       $0x10, %xmm13, %xmm5
        movdqa          %xmm9, %xmm6
        pclmulqdq       $0x01, %xmm13, %xmm6
        movdqa          %xmm9, %xmm7
        pclmulqdq       $0x11, %xmm13, %xmm7
        psrldq          $4, %xmm4
        psrldq          $4, %xmm5
        psrldq          $4, %xmm6
        psrldq          $4, %xmm7
        psrlq           $1, %xmm4
        psrlq           $1, %xmm5
        psrlq           $1, %xmm6
        psrlq           $1, %xmm7
        pand            %xmm15, %xmm4
        pand            %xmm15, %xmm5
        pand            %xmm15, %xmm6
        pand            %xmm15, %xmm7
        APPLY   %xmm4, 0x00, %xmm5, 0x00, %xmm6, 0x00, %xmm7, 0x00
        addq    $4, %rsi
        subq    $4, %rdx
        cmpq    $4, %rdx
        jae     .Lround
.Lbytes:
        testq   %rdx, %rdx
        jz      .Ldone
.Lbyte:
        movzbl  (%rsi), %eax
        shll    $4, %eax
        movdqa  4096(%r10,%rax), %xmm4          /* right[b] */
        movdqa  %xmm4, %xmm6
        psrlq   $33, %xmm6                      /* [m10, m11] */
        pand    %xmm15, %xmm4                   /* [m00, m01] */
        APPLY   %xmm4, 0x00, %xmm4, 0x10, %xmm6, 0x00, %xmm6, 0x10
        incq    %rsi
        decq    %rdx
        jnz     .Lbyte
.Ldone:
        FOLD    %xmm0, %xmm8, %xmm9
        FOLD    %xmm1, %xmm8, %xmm9
        FOLD    %xmm2, %xmm8, %xmm9
        FOLD    %xmm3, %xmm8, %xmm9
        movdqu  %xmm0, 0(%rdi)
        movdqu  %xmm1, 16(%rdi)
        movdqu  %xmm2, 32(%rdi)
        movdqu  %xmm3, 48(%rdi)
        ret
        .size   tz_pclmul_mul_bytes, .-tz_pclmul_mul_bytes

/* out = a * b in GF(2^127), lazy inputs, canonical output. Schoolbook
 * 256-bit product L + H x^128, then H x^128 = H x^64 + H x, where
 * H x^64 = [0, H.lo] + H.hi x^128 = [H.hi<<1, H.lo ^ H.hi]. */
.macro GFMUL a, b, out, t1, t2, t3
        movdqa          \a, \out
        pclmulqdq       $0x00, \b, \out                 /* a.lo*b.lo */
        movdqa          \a, \t1
        pclmulqdq       $0x11, \b, \t1                  /* a.hi*b.hi */
        movdqa          \a, \t2
        pclmulqdq       $0x10, \b, \t2                  /* a.lo*b.hi */
        movdqa          \a, \t3
        pclmulqdq       $0x01, \b, \t3                  /* a.hi*b.lo */
        pxor            \t3, \t2                        /* middle */
        movdqa          \t2, \t3
        pslldq          $8, \t3
        pxor            \t3, \out                       /* L */
        psrldq          $8, \t2
        pxor            \t2, \t1                        /* H */
        movdqa          \t1, \t2
        psllq           $1, \t2
        pxor            \t2, \out
        movdqa          \t1, \t2
        psrlq           $63, \t2
        pslldq          $8, \t2
        pxor            \t2, \out                       /* += H x */
        movdqa          \t1, \t2
        psrldq          $8, \t2                         /* [H.hi, 0] */
        pxor            \t2, \t1
        pslldq          $8, \t1
        pxor            \t1, \out                       /* += [0, H.lo^H.hi] */
        psllq           $1, \t2
        pxor            \t2, \out                       /* += [H.hi<<1, 0] */
        FOLD            \out, \t1, \t2
.endm

/* r_ij = a_i0 b_0j + a_i1 b_1j */
.macro SL2ENTRY ai0, ai1, b0j, b1j, off
        GFMUL   \ai0, \b0j, %xmm8, %xmm10, %xmm11, %xmm12
        GFMUL   \ai1, \b1j, %xmm9, %xmm10, %xmm11, %xmm12
        pxor    %xmm9, %xmm8
        movdqu  %xmm8, \off(%rdi)
.endm

        .globl  tz_pclmul_sl2_mul
        .hidden tz_pclmul_sl2_mul
        .type   tz_pclmul_sl2_mul, @function
        .balign 32
tz_pclmul_sl2_mul:
        movdqu  0(%rsi), %xmm0
        movdqu  16(%rsi), %xmm1
        movdqu  32(%rsi), %xmm2
        movdqu  48(%rsi), %xmm3
        movdqu  0(%rdx), %xmm4
        movdqu  16(%rdx), %xmm5
        movdqu  32(%rdx), %xmm6
        movdqu  48(%rdx), %xmm7
        SL2ENTRY %xmm0, %xmm1, %xmm4, %xmm6, 0
        SL2ENTRY %xmm0, %xmm1, %xmm5, %xmm7, 16
        SL2ENTRY %xmm2, %xmm3, %xmm4, %xmm6, 32
        SL2ENTRY %xmm2, %xmm3, %xmm5, %xmm7, 48
        ret
        .size   tz_pclmul_sl2_mul, .-tz_pclmul_sl2_mul

        .section .rodata
        .balign 16
.Lmhi:  .quad   0xfffffffe00000000, 0xfffffffe00000000  /* ~(2^33 - 1) */
.Lm33:  .quad   0x00000001ffffffff, 0x00000001ffffffff  /* 2^33 - 1 */
.Lmask127:
        .quad   0xffffffffffffffff, 0x7fffffffffffffff

        .section .note.GNU-stack, "", @progbits
