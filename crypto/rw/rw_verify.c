/* rw_verify.c - verification of the three formats. All inputs are public:
 * plain (variable-time) GMP mpn arithmetic. */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "rw/rw_msg.h"
#include "rw/rw_sig.h"

#define MAXL (RW_MAX_BITS / GMP_NUMB_BITS + 1)

/* X = f*s^2 - e*h (2nn + 1 limbs); 0 if that would be negative. */
static int lhs(const mp_limb_t *s, const mp_limb_t *h, size_t nn, int e, int f, mp_limb_t *X)
{
    size_t xn = 2 * nn + 1;
    mpn_sqr(X, s, (mp_size_t)nn);
    X[2 * nn] = f == 2 ? mpn_lshift(X, X, (mp_size_t)(2 * nn), 1) : 0;
    if (e < 0)
        mpn_add(X, X, (mp_size_t)xn, h, (mp_size_t)nn);
    else if (mpn_sub(X, X, (mp_size_t)xn, h, (mp_size_t)nn))
        return 0;
    return 1;
}

int rw_quotient(const rw_key *k, const mp_limb_t *s, const mp_limb_t *h, int e, int f,
                mp_limb_t *q)
{
    size_t nn = mpz_size(k->n);
    mp_limb_t X[2 * MAXL + 1], rem[MAXL];
    if (!lhs(s, h, nn, e, f, X))
        return 0;
    mpn_tdiv_qr(q, rem, 0, X, (mp_size_t)(2 * nn + 1), mpz_limbs_read(k->n), (mp_size_t)nn);
    return mpn_zero_p(rem, (mp_size_t)nn);
}

/* The "gmp" row of rw_check_table: the division (compact) and the products
 * over the integers (expanded). */
static int square_gmp(const rw_key *k, const mp_limb_t *s, const mp_limb_t *h, int e, int f)
{
    mp_limb_t q[MAXL + 2];
    return rw_quotient(k, s, h, e, f, q);
}

static int expanded_gmp(const rw_key *k, const mp_limb_t *s, const mp_limb_t *kq,
                        const mp_limb_t *h, int e, int f)
{
    size_t nn = mpz_size(k->n);
    mp_limb_t X[2 * MAXL + 1], Y[2 * MAXL + 1];
    if (!lhs(s, h, nn, e, f, X))
        return 0;
    mpn_mul_n(Y, kq, mpz_limbs_read(k->n), (mp_size_t)nn);
    Y[2 * nn] = 0;
    return mpn_cmp(X, Y, (mp_size_t)(2 * nn + 1)) == 0;
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
/* The "ifma" row: almost-Montgomery products (rw_ifma.h); a key whose n got
 * no IFMA context (too large) takes its twin. */
static int square_ifma(const rw_key *k, const mp_limb_t *s, const mp_limb_t *h, int e, int f)
{
    return k->nmont != NULL ? rw_ifma_check_square(k->nmont, s, h, mpz_size(k->n), e, f)
                            : square_gmp(k, s, h, e, f);
}

static int expanded_ifma(const rw_key *k, const mp_limb_t *s, const mp_limb_t *kq,
                         const mp_limb_t *h, int e, int f)
{
    return k->nmont != NULL ? rw_ifma_check_expanded(k->nmont, s, kq, h, mpz_size(k->n), e, f)
                            : expanded_gmp(k, s, kq, h, e, f);
}
#endif

static const fs_kernel check_rows[] = {
    { "gmp", FS_KERNEL_FN(square_gmp), FS_KERNEL_FN(expanded_gmp), 1, 0, 0, 100 },
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "ifma", FS_KERNEL_FN(square_ifma), FS_KERNEL_FN(expanded_ifma), 1,
      RW_IFMA_CPU, 0, 40 },
#endif
    FS_KERNEL_END,
};

FS_KERNEL_TABLE(rw_check_table, "rw-check", check_rows, NULL);

/* Limb i of n >> 1 (of nn limbs). */
static mp_limb_t half_limb(const mp_limb_t *N, size_t i, size_t nn)
{
    return N[i] >> 1 | (i + 1 < nn ? N[i + 1] << (GMP_NUMB_BITS - 1) : 0);
}

/* s from nbytes big-endian bytes with 0 < s <= (n-1)/2 = n >> 1 (n odd):
 * compared with the limbs of n >> 1 from the top (the first limb decides
 * but for equal prefixes). */
static int parse_s(const rw_key *k, const uint8_t *in, mp_limb_t *s)
{
    size_t nn = mpz_size(k->n);
    const mp_limb_t *N = mpz_limbs_read(k->n);
    rw_from_be(s, nn, in, k->nbytes);
    if (mpn_zero_p(s, (mp_size_t)nn))
        return 0;
    for (size_t i = nn; i-- > 0;) {
        mp_limb_t half = half_limb(N, i, nn);
        if (s[i] != half)
            return s[i] < half;
    }
    return 1;                             /* s == n >> 1 */
}

/* The range checks of the expanded form, on s || kq as sent by a key with
 * nbytes = 8 limbs(n) (word j is limb nn-1-j): 0 < s <= n >> 1, kq < n. */
static int ranges_ok_be(const rw_key *k, const uint8_t *sig)
{
    size_t nn = mpz_size(k->n), nb = k->nbytes;
    const mp_limb_t *N = mpz_limbs_read(k->n);
    int s_cmp = 0, k_cmp = 0;   /* sign of s - (n >> 1), kq - n, from the top */
    uint64_t any = 0;
    for (size_t j = 0; j < nn; j++) {
        size_t i = nn - 1 - j;
        uint64_t sw = fs_load_be64(sig + 8 * j), kw = fs_load_be64(sig + nb + 8 * j), half = half_limb(N, i, nn);
        any |= sw;
        if (s_cmp == 0 && sw != half)
            s_cmp = sw < half ? -1 : 1;
        if (k_cmp == 0 && kw != N[i])
            k_cmp = kw < N[i] ? -1 : 1;
        if (s_cmp != 0 && k_cmp != 0 && any != 0)
            break;
    }
    return any != 0 && s_cmp <= 0 && k_cmp < 0;
}

/* IFVP-RW: t = s^2 mod n; F' from t, 2t, n-t, 2(n-t) by the residue rule. */
static int verify_p1363(const rw_key *k, const mp_limb_t *s, const mp_limb_t *F)
{
    size_t nn = mpz_size(k->n);
    const mp_limb_t *N = mpz_limbs_read(k->n);
    mp_limb_t X[2 * MAXL], q[MAXL + 2], t[MAXL + 1], c[MAXL + 1];
    mpn_sqr(X, s, (mp_size_t)nn);
    mpn_tdiv_qr(q, t, 0, X, (mp_size_t)(2 * nn), N, (mp_size_t)nn);
    for (int neg = 0; neg < 2; neg++) {
        if (neg)
            mpn_sub_n(c, N, t, (mp_size_t)nn);
        else
            memcpy(c, t, nn * sizeof(mp_limb_t));
        c[nn] = 0;
        if ((c[0] & 15) == 12)
            ;
        else if ((c[0] & 7) == 6)
            c[nn] = mpn_lshift(c, c, (mp_size_t)nn, 1);
        else
            continue;
        return c[nn] == 0 && mpn_cmp(c, F, (mp_size_t)nn) == 0;
    }
    return 0;
}

int rw_verify(const rw_key *k, int format, unsigned flags,
              const uint8_t *msg, size_t msglen, const uint8_t *sig, size_t siglen)
{
    if (k == NULL || sig == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    size_t need = rw_sig_len(k, format);
    if (need == 0)
        return k->bits == 0 ? FASTSIG_ERR_BAD_KEY : FASTSIG_ERR_BAD_PARAM;
    /* probabilistic is a verifier preference: no effect on the compact form
     * (a context may set it once and verify whichever form arrives) */
    unsigned allowed = format == RW_FMT_EXPANDED || format == RW_FMT_COMPACT
                       ? RW_VERIFY_PROBABILISTIC : RW_SIGN_PREHASHED;
    if (flags & ~allowed)
        return FASTSIG_ERR_BAD_PARAM;
    if (siglen != need)
        return FASTSIG_ERR_BAD_SIGNATURE;

    size_t nn = mpz_size(k->n), nb = k->nbytes;
    if (format == RW_FMT_EXPANDED && (flags & RW_VERIFY_PROBABILISTIC) && rw_fdh_dot_usable(k)) {
        /* the stitched path reads s and kq from the signature itself */
        uint8_t T = sig[need - 1];
        if ((T & ~(RW_T_E | RW_T_F | RW_T_R)) || !ranges_ok_be(k, sig))
            return FASTSIG_ERR_BAD_SIGNATURE;
        return rw_prob_verify_be(k, sig, (T & RW_T_R) != 0, msg, msglen, T & RW_T_E ? -1 : 1,
                                 T & RW_T_F ? 2 : 1) ? FASTSIG_OK : FASTSIG_ERR_VERIFY;
    }
    mp_limb_t s[MAXL], h[MAXL];
    if (!parse_s(k, sig, s))
        return FASTSIG_ERR_BAD_SIGNATURE;
    if (rw_is_p1363(format)) {
        int rc = rw_emsa2(k, format, flags, msg, msglen, h);
        if (rc != FASTSIG_OK)
            return rc;
        return verify_p1363(k, s, h) ? FASTSIG_OK : FASTSIG_ERR_VERIFY;
    }
    uint8_t T = sig[need - 1];
    if (T & ~(RW_T_E | RW_T_F | RW_T_R))
        return FASTSIG_ERR_BAD_SIGNATURE;
    int e = T & RW_T_E ? -1 : 1, f = T & RW_T_F ? 2 : 1;
    if (format == RW_FMT_COMPACT) {
        rw_fdh(k, (T & RW_T_R) != 0, msg, msglen, h);
        return rw_check_square(fs_kernel_default(&rw_check_table))(k, s, h, e, f)
                   ? FASTSIG_OK : FASTSIG_ERR_VERIFY;
    }
    /* expanded: f*s^2 - e*h == kq*n, kq < n */
    mp_limb_t kq[MAXL];
    const mp_limb_t *N = mpz_limbs_read(k->n);
    rw_from_be(kq, nn, sig + nb, nb);
    if (mpn_cmp(kq, N, (mp_size_t)nn) >= 0)
        return FASTSIG_ERR_BAD_SIGNATURE;
    if (flags & RW_VERIFY_PROBABILISTIC)   /* hashes as it checks */
        return rw_prob_verify(k, s, kq, (T & RW_T_R) != 0, msg, msglen, e, f) ? FASTSIG_OK
                                                                               : FASTSIG_ERR_VERIFY;
    rw_fdh(k, (T & RW_T_R) != 0, msg, msglen, h);
    return rw_check_expanded(fs_kernel_default(&rw_check_table))(k, s, kq, h, e, f)
               ? FASTSIG_OK : FASTSIG_ERR_VERIFY;
}
