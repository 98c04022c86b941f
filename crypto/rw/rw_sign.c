/* rw_sign.c - signing in the three formats: representative, |principal|
 * root, fault check (recomputing e*f*s^2 = h mod n, which also yields the
 * expanded form's k), encoding. */
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
    /* public from here: the signature carries s, e, f and r (P1363: e and f
     * follow from s as the verifier finds them; h follows from r) */
    FS_DECLASSIFY(s, nn * sizeof(mp_limb_t));
    FS_DECLASSIFY(h, nn * sizeof(mp_limb_t));
    FS_DECLASSIFY(&e, sizeof(e));
    FS_DECLASSIFY(&f, sizeof(f));
    FS_DECLASSIFY(&r, sizeof(r));
    /* fault check: f*s^2 - e*h = q*n exactly, with q the expanded form's k */
    if (rc == FASTSIG_OK)
        rc = rw_quotient(k, s, h, e, f, q) ? FASTSIG_OK : FASTSIG_ERR_FAULT;
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
