/* verify.c - libfastsig-verify (<fastsig/verify.h>): the schemes' one-shot
 * and streamed verification over the cores' verification paths
 * (xmss_verify.c, hss_verify.c, lms_verify.c) and the incremental message
 * hash (hash/hash_stream.c). Device builds may leave a family out:
 * -DFASTSIG_VERIFY_NO_XMSS or -DFASTSIG_VERIFY_NO_LMS (its schemes then
 * give FASTSIG_ERR_UNSUPPORTED). */
#include <string.h>
#include "verify.h"
#include "bytes.h"
#include "hash/hash_stream.h"
#include "lms/hss.h"
#include "xmss/xmss.h"
#include "xmss/xmss_key.h"

/* A context's phases: refused before init succeeds and after final. */
enum { PHASE_NONE = 0, PHASE_OPEN = 0x5653 };

typedef struct {
    int phase, scheme;
    const uint8_t *pk, *sig;
    size_t pklen, siglen;
    const xmss_params *xp; /* XMSS, XMSS^MT */
    fs_hash_stream hs;     /* H_msg (XMSS) or the last level's Q (LMS, HSS) */
    hss_levels_view lv;    /* LMS (one level), HSS */
} verify_ctx;

_Static_assert(sizeof(verify_ctx) <= sizeof(fastsig_verify_ctx), "fastsig_verify_ctx too small");
_Static_assert(_Alignof(verify_ctx) <= _Alignof(fastsig_verify_ctx), "fastsig_verify_ctx alignment");

static int is_xmss(int scheme)
{
    return scheme == FASTSIG_VERIFY_XMSS || scheme == FASTSIG_VERIFY_XMSSMT;
}

/* A bare LMS signature as a one-level view (the checks of lms_verify). */
static int lms_view(hss_levels_view *h, const uint8_t *pk, size_t pklen, const uint8_t *sig,
                    size_t siglen)
{
    if (pk == NULL || sig == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = lms_sig_parse(&h->v[0], pk, pklen, sig, siglen);
    h->levels = h->parsed = 1;
    h->bad = FASTSIG_OK;
    h->msg[0] = NULL;
    h->mlen[0] = 0;
    return rc;
}

int fastsig_verify(int scheme, const uint8_t *pk, size_t pklen, const uint8_t *msg,
                   size_t msglen, const uint8_t *sig, size_t siglen)
{
#ifndef FASTSIG_VERIFY_NO_XMSS
    if (is_xmss(scheme))
        return xmss_verify(scheme == FASTSIG_VERIFY_XMSS ? XMSS_KIND_XMSS : XMSS_KIND_XMSSMT,
                           pk, pklen, msg, msglen, sig, siglen);
#endif
#ifndef FASTSIG_VERIFY_NO_LMS
    if (scheme == FASTSIG_VERIFY_HSS)
        return hss_verify(pk, pklen, msg, msglen, sig, siglen);
    if (scheme == FASTSIG_VERIFY_LMS)
        return lms_verify(pk, pklen, msg, msglen, sig, siglen);
#endif
    (void)pk, (void)pklen, (void)msg, (void)msglen, (void)sig, (void)siglen;
    return scheme >= FASTSIG_VERIFY_XMSS && scheme <= FASTSIG_VERIFY_LMS
               ? FASTSIG_ERR_UNSUPPORTED
               : FASTSIG_ERR_BAD_PARAM;
}

static int start(verify_ctx *c)
{
#ifndef FASTSIG_VERIFY_NO_XMSS
    if (is_xmss(c->scheme)) {
        int kind = c->scheme == FASTSIG_VERIFY_XMSS ? XMSS_KIND_XMSS : XMSS_KIND_XMSSMT;
        if (c->pk == NULL || c->sig == NULL)
            return FASTSIG_ERR_NULL_ARG;
        int rc = xmss_tree_row_of(kind, c->pk, c->pklen, &c->xp);
        if (rc != FASTSIG_OK)
            return rc;
        return xmss_verify_begin(c->xp, c->pk, c->pklen, c->sig, c->siglen, &c->hs);
    }
#endif
#ifndef FASTSIG_VERIFY_NO_LMS
    if (c->scheme == FASTSIG_VERIFY_HSS || c->scheme == FASTSIG_VERIFY_LMS) {
        hss_levels_view *h = &c->lv;
        int rc = c->scheme == FASTSIG_VERIFY_LMS
                     ? lms_view(h, c->pk, c->pklen, c->sig, c->siglen)
                     : hss_sig_parse(c->pk, c->pklen, NULL, 0, c->sig, c->siglen, h);
        return rc != FASTSIG_OK ? rc : hss_levels_q_start(h, &c->hs);
    }
#endif
    return c->scheme >= FASTSIG_VERIFY_XMSS && c->scheme <= FASTSIG_VERIFY_LMS
               ? FASTSIG_ERR_UNSUPPORTED
               : FASTSIG_ERR_BAD_PARAM;
}

int fastsig_verify_init(fastsig_verify_ctx *ctx, int scheme, const uint8_t *pk, size_t pklen,
                        const uint8_t *sig, size_t siglen)
{
    if (ctx == NULL)
        return FASTSIG_ERR_NULL_ARG;
    verify_ctx *c = (verify_ctx *)ctx;
    memset(c, 0, sizeof(*c));
    c->scheme = scheme;
    c->pk = pk;
    c->pklen = pklen;
    c->sig = sig;
    c->siglen = siglen;
    int rc = start(c);
    c->phase = rc == FASTSIG_OK ? PHASE_OPEN : PHASE_NONE;
    return rc;
}

int fastsig_verify_update(fastsig_verify_ctx *ctx, const uint8_t *data, size_t len)
{
    verify_ctx *c = (verify_ctx *)ctx;
    if (c == NULL || (data == NULL && len))
        return FASTSIG_ERR_NULL_ARG;
    if (c->phase != PHASE_OPEN)
        return FASTSIG_ERR_BAD_PARAM;
    if (len)
        fs_hash_stream_update(&c->hs, data, len);
    return FASTSIG_OK;
}

int fastsig_verify_final(fastsig_verify_ctx *ctx)
{
    verify_ctx *c = (verify_ctx *)ctx;
    if (c == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (c->phase != PHASE_OPEN)
        return FASTSIG_ERR_BAD_PARAM;
    c->phase = PHASE_NONE;
    uint8_t digest[FS_HASH_MAX_N];
    fs_hash_stream_final(&c->hs, digest);
#ifndef FASTSIG_VERIFY_NO_XMSS
    if (is_xmss(c->scheme))
        return xmss_verify_digest(c->xp, c->pk, c->pklen, digest, c->sig, c->siglen);
#endif
#ifndef FASTSIG_VERIFY_NO_LMS
    return hss_levels_verify_q(&c->lv, digest);
#else
    return FASTSIG_ERR_UNSUPPORTED;
#endif
}
