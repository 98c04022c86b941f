/* xmss_adapter.c - the XMSS and XMSS^MT rows' adapters: crypto/hbs keys
 * behind the stateful contract (hbs/xmss_stateful.c) in the key object of
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
#include "fastsig/provider.h"

/* Per row, by FS_SIGALG.variant (sigalgs.c): the kind, its contract and
 * the parameter set generated when none is named. */
static const struct {
    int kind;
    const fs_stateful_ops *ops;
    const char *default_param;
} rows[] = {
    [FS_XMSS_VARIANT] = { HBS_KIND_XMSS, &fs_stateful_xmss, "XMSS-SHA2_10_256" },
    [FS_XMSSMT_VARIANT] = { HBS_KIND_XMSSMT, &fs_stateful_xmssmt, "XMSSMT-SHA2_20/4_256" },
};

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_uint(FASTSIG_PKEY_PARAM_THREADS, NULL),
    OSSL_PARAM_END
};

static int xmss_gen(const FS_SIGALG *alg, const FS_GENOPTS *o, void **key)
{
    const char *name = o->param != NULL ? o->param : rows[alg->variant].default_param;
    const hbs_params *p = hbsa_params(rows[alg->variant].kind, name);
    uint8_t seed[3 * HBS_MAX_N];
    HBSA_PROGRESS pg = { o, 0 };
    HBSA_KEY *x;
    void *core;
    int err;

    if (p == NULL)
        fs_detail_file(o->detail, FASTSIG_ERR_UNSUPPORTED, "parameter set", name, 0,
                           "not a name of this algorithm's sets");
    if (p == NULL || o->mode != NULL)
        return FASTSIG_ERR_UNSUPPORTED;
    if ((err = hbsa_seed(o, p, seed)) != FASTSIG_OK)
        return err;
    if (fs_stateful_xmss_new(p, &core) != FASTSIG_OK
        || (x = hbsa_new(rows[alg->variant].ops, core)) == NULL) {
        OPENSSL_cleanse(seed, sizeof(seed));
        return FASTSIG_ERR_NOMEM;
    }
    /* a seed some key has is refused before the trees are built */
    if ((err = hbsa_seed_check(x, seed, 3 * (size_t)p->n, o->detail)) == FASTSIG_OK)
        err = fs_stateful_xmss_keygen(core, seed, 3 * (size_t)p->n,
                                      o->threads ? o->threads : hbsa_default_threads(),
                                      hbsa_progress, &pg);
    OPENSSL_cleanse(seed, sizeof(seed));
    return hbsa_gen_done(x, err, o, key);
}

static int xmss_priv_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len,
                            void **key, FS_ERRDETAIL *d)
{
    return hbsa_priv_decode(rows[alg->variant].ops, in, len, key, d);
}

static int xmss_pub_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len,
                           void **key)
{
    return hbsa_pub_decode(rows[alg->variant].ops, in, len, key);
}

/* Two tables (not one shared by both rows): the glue lets a key serve a
 * row whose adapter is its own, and an XMSS key must not pass for XMSS^MT. */
#define XMSS_HOOKS                                                                       \
    .gen = xmss_gen, .pub_decode = xmss_pub_decode, .priv_decode = xmss_priv_decode,     \
    .gen_settable = gen_settable, HBSA_COMMON_HOOKS
const FS_ADAPTER fs_xmss_adapter = { XMSS_HOOKS };
const FS_ADAPTER fs_xmssmt_adapter = { XMSS_HOOKS };
