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
const FS_SIGALG fs_sigalgs[] = {
    FS_SIGALG_ROW(FASTSIG_SIG_RW, "Rabin-Williams", FS_OID_RW, 0, FS_RW_VARIANT, &fs_rw_adapter,
                  "Rabin-Williams signatures (tweaked square roots, SHAKE256 full-domain hash)"),
    FS_SIGALG_ROW_MD(FASTSIG_SIG_RW_P1363, "Rabin-Williams-IEEE1363", FS_OID_RW_P1363, 0,
                     FS_RW_P1363_VARIANT, &fs_rw_adapter, "SHA256",
                     "Rabin-Williams, IEEE 1363 IFSP-RW with EMSA2"),
    FS_SIGALG_ROW(FASTSIG_SIG_WOTSP, "WOTS-plus", FS_OID_WOTSP, FS_SIGALG_STATEFUL, 0,
                  &fs_wotsp_adapter, "WOTS+ one-time signatures (RFC 8391 section 3)"),
    FS_SIGALG_ROW(FASTSIG_SIG_XMSS, "id-alg-xmss-hashsig", FS_OID_XMSS, FS_SIGALG_STATEFUL,
                  FS_XMSS_VARIANT, &fs_xmss_adapter,
                  "XMSS stateful hash-based signatures (RFC 8391, RFC 9802)"),
    FS_SIGALG_ROW(FASTSIG_SIG_XMSSMT, "id-alg-xmssmt-hashsig", FS_OID_XMSSMT, FS_SIGALG_STATEFUL,
                  FS_XMSSMT_VARIANT, &fs_xmssmt_adapter,
                  "XMSS^MT stateful hash-based signatures (RFC 8391, RFC 9802)"),
    FS_SIGALG_ROW_ALIAS(FASTSIG_SIG_HSS, FASTSIG_SIG_LMS, "id-alg-hss-lms-hashsig", FS_OID_HSS,
                        FS_SIGALG_STATEFUL, 0, &fs_hss_adapter,
                        "LMS / HSS stateful hash-based signatures (RFC 8554, SP 800-208)"),
};
const size_t fs_nsigalgs = sizeof(fs_sigalgs) / sizeof(fs_sigalgs[0]);
_Static_assert(sizeof(fs_sigalgs) / sizeof(fs_sigalgs[0]) <= FS_MAX_SIGALGS,
               "raise FS_MAX_SIGALGS and FS_FOR_EACH_SLOT");

struct fs_coreref {
    void *core;
    const FS_ADAPTER *ad;
    int refs;
};

FS_KEY *fs_key_new(void *provctx, const FS_SIGALG *alg)
{
    FS_KEY *k = OPENSSL_zalloc(sizeof(*k));
    if (k == NULL)
        return NULL;
    k->alg = alg;
    k->provctx = provctx;
    return k;
}

static void coreref_release(FS_COREREF *r)
{
    if (r == NULL || __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    r->ad->free(r->core);
    OPENSSL_free(r);
}

void fs_key_free(FS_KEY *k)
{
    if (k == NULL)
        return;
    coreref_release(k->ref);
    OPENSSL_free(k);
}

int fs_key_set_core(FS_KEY *k, void *core)
{
    FS_COREREF *r = OPENSSL_zalloc(sizeof(*r));
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

FS_KEY *fs_key_share(const FS_KEY *k)
{
    FS_KEY *c = fs_key_new(k->provctx, k->alg);
    if (c == NULL)
        return NULL;
    if (k->ref != NULL) {
        __atomic_add_fetch(&k->ref->refs, 1, __ATOMIC_ACQ_REL);
        c->ref = k->ref;
    }
    return c;
}

void *fs_key_core(const FS_KEY *k)
{
    return k != NULL && k->ref != NULL ? k->ref->core : NULL;
}

int fs_key_has_private(const FS_KEY *k)
{
    void *core = fs_key_core(k);
    return core != NULL && k->alg->ad->has_private(core);
}

int fs_key_pub(const FS_KEY *k, unsigned char **out, size_t *len)
{
    void *core = fs_key_core(k);
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
