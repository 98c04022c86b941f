/* sigalgs.c - the descriptor table of fastsig's signature algorithms and the
 * generic key object (a row plus a shared, reference-counted core key). */
#include <string.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "oids.h"
#include "sigalgs.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"

/* One row per OpenSSL algorithm; parameter sets live in the cores' tables.
 * Key OID == signature OID, parameters absent (RFC 9802 style for all). */
const FSP_SIGALG fsp_sigalgs[] = {
    FSP_SIGALG_ROW(FASTSIG_SIG_RW, "Rabin-Williams", FSP_OID_RW, 0, FSP_RW_VARIANT, &fsp_rw_adapter,
                  "Rabin-Williams signatures (tweaked square roots, SHAKE256 full-domain hash)"),
    FSP_SIGALG_ROW_MD(FASTSIG_SIG_RW_P1363, "Rabin-Williams-IEEE1363", FSP_OID_RW_P1363, 0,
                     FSP_RW_P1363_VARIANT, &fsp_rw_adapter, "SHA256",
                     "Rabin-Williams, IEEE 1363 IFSP-RW with EMSA2"),
    FSP_SIGALG_ROW(FASTSIG_SIG_WOTSP, "WOTS-plus", FSP_OID_WOTSP, FSP_SIGALG_STATEFUL, 0,
                  &fsp_wotsp_adapter, "WOTS+ one-time signatures (RFC 8391 section 3)"),
    FSP_SIGALG_ROW(FASTSIG_SIG_XMSS, "id-alg-xmss-hashsig", FSP_OID_XMSS, FSP_SIGALG_STATEFUL,
                  FSP_XMSS_VARIANT, &fsp_xmss_adapter,
                  "XMSS stateful hash-based signatures (RFC 8391, RFC 9802)"),
    FSP_SIGALG_ROW(FASTSIG_SIG_XMSSMT, "id-alg-xmssmt-hashsig", FSP_OID_XMSSMT, FSP_SIGALG_STATEFUL,
                  FSP_XMSSMT_VARIANT, &fsp_xmssmt_adapter,
                  "XMSS^MT stateful hash-based signatures (RFC 8391, RFC 9802)"),
    FSP_SIGALG_ROW_ALIAS(FASTSIG_SIG_HSS, FASTSIG_SIG_LMS, "id-alg-hss-lms-hashsig", FSP_OID_HSS,
                        FSP_SIGALG_STATEFUL, 0, &fsp_hss_adapter,
                        "LMS / HSS stateful hash-based signatures (RFC 8554, SP 800-208)"),
};
const size_t fsp_nsigalgs = sizeof(fsp_sigalgs) / sizeof(fsp_sigalgs[0]);
_Static_assert(sizeof(fsp_sigalgs) / sizeof(fsp_sigalgs[0]) <= FSP_MAX_SIGALGS,
               "raise FSP_MAX_SIGALGS and FSP_FOR_EACH_SLOT");

struct fsp_coreref {
    void *core;
    const FSP_ADAPTER *ad;
    int refs;
};

FSP_KEY *fsp_key_new(void *provctx, const FSP_SIGALG *alg)
{
    FSP_KEY *k = OPENSSL_zalloc(sizeof(*k));
    if (k == NULL)
        return NULL;
    k->alg = alg;
    k->provctx = provctx;
    return k;
}

static void coreref_release(FSP_COREREF *r)
{
    if (r == NULL || __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    r->ad->free(r->core);
    OPENSSL_free(r);
}

void fsp_key_free(FSP_KEY *k)
{
    if (k == NULL)
        return;
    coreref_release(k->ref);
    OPENSSL_free(k);
}

int fsp_key_set_core(FSP_KEY *k, void *core)
{
    FSP_COREREF *r = OPENSSL_zalloc(sizeof(*r));
    if (r == NULL) {
        k->alg->ad->free(core);
        return 0;
    }
    r->core = core;
    r->ad = k->alg->ad;
    r->refs = 1;
    coreref_release(k->ref);
    k->ref = r;
    return 1;
}

FSP_KEY *fsp_key_share(const FSP_KEY *k)
{
    FSP_KEY *c = fsp_key_new(k->provctx, k->alg);
    if (c == NULL)
        return NULL;
    if (k->ref != NULL) {
        __atomic_add_fetch(&k->ref->refs, 1, __ATOMIC_ACQ_REL);
        c->ref = k->ref;
    }
    return c;
}

void *fsp_key_core(const FSP_KEY *k)
{
    return k != NULL && k->ref != NULL ? k->ref->core : NULL;
}

int fsp_key_has_private(const FSP_KEY *k)
{
    void *core = fsp_key_core(k);
    return core != NULL && k->alg->ad->has_private(core);
}

int fsp_key_pub(const FSP_KEY *k, unsigned char **out, size_t *len)
{
    void *core = fsp_key_core(k);
    int err;

    *out = NULL;
    if (core == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if ((err = k->alg->ad->pub_encode(core, NULL, len)) != FASTSIG_OK)
        return err;
    if ((*out = OPENSSL_malloc(*len ? *len : 1)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = k->alg->ad->pub_encode(core, *out, len)) != FASTSIG_OK) {
        OPENSSL_free(*out);
        *out = NULL;
    }
    return err;
}
