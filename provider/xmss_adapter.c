/* xmss_adapter.c - the XMSS and XMSS^MT rows' adapters: crypto/xmss keys
 * behind the stateful contract (xmss/xmss_stateful.c) in the key object of
 * the stateful rows (stateful_key.h), with their tree-node cache file
 * (crypto/state/cachefile.h: public nodes, authenticated by the core with a
 * key derived from SK_SEED, rebuilt when missing or bad). The two rows
 * differ only in the kind, which picks the parameter-set oid space; the
 * row's variant says which. */
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "stateful_key.h"
#include "stateful_kinds.h"
#include "prov.h"
#include "fastsig_err.h"
#include "set_suggest.h"
#include "fastsig/provider.h"

/* Per row, by FSP_SIGALG.variant (sigalgs.c): the kind, its contract and
 * the parameter set generated when none is named. */
static const struct {
    int kind;
    const fs_stateful_ops *ops;
    const char *default_param;
} rows[] = {
    [FSP_XMSS_VARIANT] = { XMSS_KIND_XMSS, &fs_stateful_xmss, "XMSS-SHA2_10_256" },
    [FSP_XMSSMT_VARIANT] = { XMSS_KIND_XMSSMT, &fs_stateful_xmssmt, "XMSSMT-SHA2_20/4_256" },
};

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_uint(FASTSIG_PKEY_PARAM_THREADS, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_RESUME, NULL, 0),
    OSSL_PARAM_END
};

static int xmss_gen(const FSP_SIGALG *alg, const FSP_GENOPTS *o, void **key)
{
    const char *name = o->param != NULL ? o->param : rows[alg->variant].default_param;
    const xmss_params *p = stateful_params(rows[alg->variant].kind, name);
    uint8_t seed[3 * XMSS_MAX_N];
    STATEFUL_KEY *x;
    void *core;
    int err;

    if (p == NULL) {
        char near[160], why[300];
        fs_sets_nearest(alg->variant == FSP_XMSS_VARIANT ? FS_SETS_XMSS : FS_SETS_XMSSMT, name,
                        near, sizeof(near));
        snprintf(why, sizeof(why), "not a name of this algorithm's sets (nearest: %s;"
                 " fastsig-keytool list shows all)", near);
        fsp_detail_file(o->detail, FASTSIG_ERR_UNSUPPORTED, "parameter set", name, 0, why);
    }
    if (p == NULL || o->mode != NULL)
        return FASTSIG_ERR_UNSUPPORTED;
    if (fs_stateful_xmss_new(p, &core) != FASTSIG_OK
        || (x = stateful_new(rows[alg->variant].ops, core)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = stateful_seed(o, p, seed)) != FASTSIG_OK) {
        OPENSSL_cleanse(seed, sizeof(seed));
        stateful_free(x);
        return err;
    }
    return stateful_gen_resumable(x, o, seed, 3 * (size_t)p->n, fs_stateful_xmss_resume_plan,
                                  fs_stateful_xmss_keygen_resume, key);
}

static int xmss_priv_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                            void **key, FSP_ERRDETAIL *d)
{
    return stateful_priv_decode(rows[alg->variant].ops, in, len, key, d);
}

static int xmss_pub_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                           void **key)
{
    return stateful_pub_decode(rows[alg->variant].ops, in, len, key);
}

/* Two tables (not one shared by both rows): the glue lets a key serve a
 * row whose adapter is its own, and an XMSS key must not pass for XMSS^MT. */
#define XMSS_HOOKS                                                                       \
    .gen = xmss_gen, .pub_decode = xmss_pub_decode, .priv_decode = xmss_priv_decode,     \
    .gen_settable = gen_settable, STATEFUL_COMMON_HOOKS
const FSP_ADAPTER fsp_xmss_adapter = { XMSS_HOOKS };
const FSP_ADAPTER fsp_xmssmt_adapter = { XMSS_HOOKS };
