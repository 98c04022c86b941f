/* hss_verify.c - HSS verification: the levels side by side, and the
 * serial reference (see hss.h). */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/hss.h"
#include "lms/lmots.h"

/* The length of the LMS public key at pub (avail bytes). */
static int pub_len(const uint8_t *pub, size_t avail, size_t *len)
{
    lms_params lp;
    if (avail < 4 || lms_params_get(&lp, fs_load_be32(pub)) != FASTSIG_OK ||
        avail < lms_pub_bytes(&lp))
        return FASTSIG_ERR_BAD_SIGNATURE;
    *len = lms_pub_bytes(&lp);
    return FASTSIG_OK;
}

/* The checks before the levels: arguments, level counts. */
static int check_outer(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                       const uint8_t *sig, size_t siglen)
{
    if (pub == NULL || sig == NULL || (msg == NULL && mlen))
        return FASTSIG_ERR_NULL_ARG;
    if (publen < 4 || fs_load_be32(pub) < 1 || fs_load_be32(pub) > LMS_MAX_LEVELS)
        return FASTSIG_ERR_BAD_KEY;
    if (siglen < 4 || fs_load_be32(sig) + 1 != fs_load_be32(pub))
        return FASTSIG_ERR_BAD_SIGNATURE;
    return FASTSIG_OK;
}

/* The lengths of a level's signature and (unless last) of the next
 * level's public key after it, at p (left bytes); the last signature
 * must end the bytes. */
static int level_parts(const uint8_t *p, size_t left, int last, size_t *sl, size_t *pl)
{
    *pl = 0;
    int rc = lms_sig_len(p, left, sl);
    if (rc == FASTSIG_OK && !last)
        rc = pub_len(p + *sl, left - *sl, pl);
    if (rc == FASTSIG_OK && last && *sl != left)
        rc = FASTSIG_ERR_BAD_SIGNATURE; /* bytes after the last signature */
    return rc;
}

int hss_sig_parse(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                  const uint8_t *sig, size_t siglen, hss_levels_view *h)
{
    int rc = check_outer(pub, publen, msg, mlen, sig, siglen);
    if (rc != FASTSIG_OK)
        return rc;
    unsigned nspk = fs_load_be32(sig);
    const uint8_t *key = pub + 4, *p = sig + 4;
    size_t keylen = publen - 4, left = siglen - 4;
    h->levels = nspk + 1;
    h->parsed = 0;
    h->bad = FASTSIG_OK;
    for (unsigned i = 0; i <= nspk && h->bad == FASTSIG_OK; i++) {
        size_t sl, pl;
        int bad = level_parts(p, left, i == nspk, &sl, &pl);
        if (bad == FASTSIG_OK)
            bad = lms_sig_parse(&h->v[i], key, keylen, p, sl);
        if (bad == FASTSIG_ERR_BAD_KEY && i > 0)
            bad = FASTSIG_ERR_BAD_SIGNATURE; /* a lower key is part of the signature */
        h->bad = bad;
        if (bad != FASTSIG_OK)
            break;
        /* level i's key signs the next public key, the last one the message */
        h->msg[i] = i < nspk ? p + sl : msg;
        h->mlen[i] = i < nspk ? pl : mlen;
        h->parsed++;
        key = p + sl;
        keylen = pl;
        p += sl + pl;
        left -= sl + pl;
    }
    return FASTSIG_OK;
}

int hss_levels_verify(const hss_levels_view *h)
{
    if (h->parsed > 0) {
        uint8_t roots[LMS_MAX_LEVELS * LMS_MAX_N];
        int rc = lms_roots(h->v, h->msg, h->mlen, h->parsed, roots);
        if (rc != FASTSIG_OK)
            return rc;
        for (unsigned i = 0; i < h->parsed; i++)
            if (memcmp(roots + i * LMS_MAX_N, h->v[i].T1, h->v[i].lp.m) != 0)
                return FASTSIG_ERR_VERIFY;
    }
    return h->bad;
}

/* RFC 8554 section 6.3 with the levels side by side: every level is
 * parsed first (the checks of the serial algorithm, in its order), then
 * the roots of the levels that parsed are computed together. The first
 * level that fails, by a wrong root or a malformed part, gives the code:
 * the one the serial algorithm returns. */
int hss_verify(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
               const uint8_t *sig, size_t siglen)
{
    hss_levels_view h;
    int rc = hss_sig_parse(pub, publen, msg, mlen, sig, siglen, &h);
    return rc != FASTSIG_OK ? rc : hss_levels_verify(&h);
}

int hss_levels_q_start(const hss_levels_view *h, fs_hash_stream *s)
{
    if (h->parsed != h->levels)
        return h->bad; /* a malformed level: refused before any hashing */
    const lms_sig_view *v = &h->v[h->levels - 1];
    /* the LM-OTS signature: u32str(type) || C || y */
    return lmots_digest_begin(&v->op, v->I, v->q, v->ots_sig + 4, s);
}

int hss_levels_verify_q(hss_levels_view *h, const uint8_t *Q)
{
    if (h->parsed == h->levels)
        h->v[h->levels - 1].Q = Q;
    return hss_levels_verify(h);
}

int hss_verify_digest(const uint8_t *pub, size_t publen, const uint8_t *Q, const uint8_t *sig,
                      size_t siglen)
{
    hss_levels_view h;
    if (Q == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = hss_sig_parse(pub, publen, NULL, 0, sig, siglen, &h);
    return rc != FASTSIG_OK ? rc : hss_levels_verify_q(&h, Q);
}

int hss_verify_serial(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                      const uint8_t *sig, size_t siglen)
{
    int rc = check_outer(pub, publen, msg, mlen, sig, siglen);
    if (rc != FASTSIG_OK)
        return rc;
    unsigned nspk = fs_load_be32(sig);
    const uint8_t *key = pub + 4, *p = sig + 4;
    size_t keylen = publen - 4, left = siglen - 4;
    for (unsigned i = 0; i <= nspk; i++) {
        size_t sl, pl;
        rc = level_parts(p, left, i == nspk, &sl, &pl);
        if (rc != FASTSIG_OK)
            return rc;
        /* level i's key signs the next public key, the last one the message */
        if (i < nspk)
            rc = lms_verify(key, keylen, p + sl, pl, p, sl);
        else
            rc = lms_verify(key, keylen, msg, mlen, p, sl);
        if (rc == FASTSIG_ERR_BAD_KEY && i > 0)
            rc = FASTSIG_ERR_BAD_SIGNATURE; /* a lower key is part of the signature */
        if (rc != FASTSIG_OK)
            return rc;
        key = p + sl;
        keylen = pl;
        p += sl + pl;
        left -= sl + pl;
    }
    return FASTSIG_OK;
}
