/* rw_sign.c - signing in the three formats: representative, |principal|
 * root, fault check (recomputing e*f*s^2 = h mod n in constant time, which
 * also yields the expanded form's k), encoding. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "ctgrind.h"
#include "rw/rw_msg.h"
#include "rw/rw_sig.h"

#define MAXL (RW_MAX_BITS / GMP_NUMB_BITS + 1)

size_t rw_sig_max_len(unsigned bits)
{
    return 2 * (size_t)(bits / 8) + 1;
}

size_t rw_sig_len(const rw_key *k, int format)
{
    if (k == NULL || k->bits == 0)
        return 0;
    switch (format) {
    case RW_FMT_COMPACT: return k->nbytes + 1;
    case RW_FMT_EXPANDED: return 2 * k->nbytes + 1;
    case RW_FMT_P1363_SHA1:
    case RW_FMT_P1363_SHA256: return k->nbytes;
    default: return 0;
    }
}

int rw_is_p1363(int format)
{
    return format == RW_FMT_P1363_SHA1 || format == RW_FMT_P1363_SHA256;
}

/* The representative of msg for this format; *r gets the randomizer bit. */
static int representative(const rw_key *k, int format, unsigned flags, const uint8_t *msg,
                          size_t msglen, mp_limb_t *h, int *r)
{
    if (rw_is_p1363(format))
        return rw_emsa2(k, format, flags, msg, msglen, h);
    *r = rw_randomizer_bit(k, msg, msglen);
    rw_fdh(k, *r, msg, msglen, h);
    return FASTSIG_OK;
}

/* The fault check, in constant time (s is not public until it passed):
 * 1 iff f*s^2 - e*h = q*n exactly, 0 if not, -1 out of memory (s, h: nn
 * limbs; q: nn + 1 limbs, the expanded form's k). The same equation as
 * rw_quotient, with mpn_sec_* and masked carries only. */
static int fault_check(const rw_key *k, const mp_limb_t *s, const mp_limb_t *h, int e, int f,
                       mp_limb_t *q)
{
    mp_size_t nn = (mp_size_t)mpz_size(k->n), xn = 2 * nn + 1;
    size_t sl = (size_t)mpn_sec_sqr_itch(nn), dl = (size_t)mpn_sec_div_qr_itch(xn, nn);
    size_t total = 2 * (size_t)xn + (sl > dl ? sl : dl);
    mp_limb_t *X = calloc(total, sizeof(mp_limb_t));
    if (X == NULL)
        return -1;
    mp_limb_t *Y = X + xn, *S = Y + xn;
    mp_limb_t eneg = (mp_limb_t)(e < 0), mask = 0 - (mp_limb_t)(f == 2);
    mpn_sec_sqr(X, s, nn, S);                          /* X = s^2 */
    Y[2 * nn] = mpn_lshift(Y, X, 2 * nn, 1);           /* Y = 2 s^2 */
    for (mp_size_t i = 0; i < xn; i++)                 /* X = f s^2 */
        X[i] ^= (X[i] ^ Y[i]) & mask;
    /* X + h (e = -1) or X - h (e = 1); the carry or borrow runs to the top */
    mp_limb_t cy = mpn_cnd_add_n(eneg, X, X, h, nn), bw = mpn_cnd_sub_n(eneg ^ 1, X, X, h, nn);
    for (mp_size_t i = nn; i < xn; i++) {
        mp_limb_t t = X[i] + cy;
        cy = t < cy;
        X[i] = t - bw;
        bw = t < bw;
    }
    mpn_sec_div_qr(q, X, xn, mpz_limbs_read(k->n), nn, S);   /* q: nn + 1 limbs; high one 0 */
    mp_limb_t acc = 0;
    for (mp_size_t i = 0; i < nn; i++)
        acc |= X[i];
    int ok = (int)((((acc | (0 - acc)) >> (GMP_NUMB_BITS - 1)) ^ 1) & (bw ^ 1));
    rw_wipe(X, total * sizeof(mp_limb_t));
    free(X);
    return ok;
}

int rw_sign(const rw_key *k, int format, unsigned flags,
            const uint8_t *msg, size_t msglen, uint8_t *sig, size_t *siglen)
{
    if (k == NULL || siglen == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    size_t need = rw_sig_len(k, format);
    if (need == 0)
        return k->bits == 0 ? FASTSIG_ERR_BAD_KEY : FASTSIG_ERR_BAD_PARAM;
    if ((flags & ~RW_SIGN_PREHASHED) || ((flags & RW_SIGN_PREHASHED) && !rw_is_p1363(format)))
        return FASTSIG_ERR_BAD_PARAM;
    if (!k->has_priv)
        return FASTSIG_ERR_BAD_KEY;
    if (sig == NULL) {
        *siglen = need;
        return FASTSIG_OK;
    }
    if (*siglen < need)
        return FASTSIG_ERR_BAD_LENGTH;

    size_t nn = mpz_size(k->n), nb = k->nbytes;
    mp_limb_t h[MAXL], s[MAXL], q[MAXL + 2];
    int r = 0, e, f;
    int rc = representative(k, format, flags, msg, msglen, h, &r);
    if (rc == FASTSIG_OK)
        rc = rw_root(k, h, s, &e, &f);
    /* fault check: f*s^2 - e*h = q*n exactly, with q the expanded form's k */
    if (rc == FASTSIG_OK) {
        int ok = fault_check(k, s, h, e, f, q);
        FS_DECLASSIFY(&ok, sizeof(ok));   /* whether a signature is released */
        rc = ok > 0 ? FASTSIG_OK : ok < 0 ? FASTSIG_ERR_NOMEM : FASTSIG_ERR_FAULT;
    }
    if (rc == FASTSIG_OK) {
        /* public from here: the signature carries s, e, f, r (and k); for
         * P1363 e and f follow from s as the verifier finds them; h from r */
        FS_DECLASSIFY(s, nn * sizeof(mp_limb_t));
        FS_DECLASSIFY(q, nn * sizeof(mp_limb_t));
        FS_DECLASSIFY(&e, sizeof(e));
        FS_DECLASSIFY(&f, sizeof(f));
        FS_DECLASSIFY(&r, sizeof(r));
    }
    if (rc == FASTSIG_OK) {
        rw_to_be(sig, nb, s, nn);
        if (format == RW_FMT_EXPANDED)
            rw_to_be(sig + nb, nb, q, nn);
        if (!rw_is_p1363(format))
            sig[need - 1] = (uint8_t)((e < 0 ? RW_T_E : 0) | (f == 2 ? RW_T_F : 0) |
                                      (r ? RW_T_R : 0));
        *siglen = need;
    }
    rw_wipe(s, sizeof(s));
    return rc;
}
