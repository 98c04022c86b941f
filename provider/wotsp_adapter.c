/* wotsp_adapter.c - WOTS+ as a one-time signature algorithm (row WOTSP):
 * the scheme of crypto/xmss/wotsp_scheme.h behind the stateful contract
 * (xmss/wotsp_stateful.c), in the key object of the stateful rows with a
 * state file of one index.
 * One-time: the state file has max = 1; the index is spent durably before
 * the signature leaves; a second attempt (any process, after a crash) gets
 * FASTSIG_ERR_OTS_USED. */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "fastsig/provider.h"
#include "stateful_key.h"
#include "stateful_kinds.h"
#include "fastsig_err.h"
#include "set_suggest.h"
#include "prov.h"

/* The row from param (hash family, default SHA2_256) and mode (w16, w4, w256). */
static const xmss_params *pick(const FSP_GENOPTS *o)
{
    const char *base = o->param != NULL ? o->param : "WOTSP-SHA2_256";
    const char *m = o->mode;
    char name[64];

    if (m == NULL || strcmp(m, "w16") == 0 || strcmp(m, "W16") == 0)
        return stateful_params(XMSS_KIND_WOTSP, base);
    if (strcmp(m, "w4") != 0 && strcmp(m, "W4") != 0 && strcmp(m, "w256") != 0
        && strcmp(m, "W256") != 0)
        return NULL;
    if ((size_t)snprintf(name, sizeof(name), "%s_W%s", base, m + 1) >= sizeof(name))
        return NULL;
    return stateful_params(XMSS_KIND_WOTSP, name);
}

/* Why pick() found no row: the mode, or the set (naming the nearest ones). */
static int refuse(const FSP_GENOPTS *o)
{
    const char *base = o->param != NULL ? o->param : "WOTSP-SHA2_256";
    char near[160], why[300];

    if (stateful_params(XMSS_KIND_WOTSP, base) != NULL) {
        fsp_detail_file(o->detail, FASTSIG_ERR_UNSUPPORTED, "mode", o->mode, 0,
                        "not w16, w4 or w256");
        return FASTSIG_ERR_UNSUPPORTED;
    }
    fs_sets_nearest(FS_SETS_WOTSP, base, near, sizeof(near));
    snprintf(why, sizeof(why), "not a WOTSP set name (nearest: %s; the _W4 / _W256 forms are"
             " -pkeyopt mode:; fastsig-keytool list shows all)", near);
    fsp_detail_file(o->detail, FASTSIG_ERR_UNSUPPORTED, "parameter set", base, 0, why);
    return FASTSIG_ERR_UNSUPPORTED;
}

static int gen(const FSP_SIGALG *alg, const FSP_GENOPTS *o, void **key)
{
    const xmss_params *p = pick(o);
    uint8_t seed[3 * XMSS_MAX_N];
    STATEFUL_KEY *x;
    void *core;
    int err;

    if (p == NULL)
        return refuse(o);
    if ((err = stateful_seed(o, p, seed)) != FASTSIG_OK)
        return err;
    if (fs_stateful_wotsp_new(p, &core) != FASTSIG_OK
        || (x = stateful_new(&fs_stateful_wotsp, core)) == NULL) {
        OPENSSL_cleanse(seed, sizeof(seed));
        return FASTSIG_ERR_NOMEM;
    }
    if ((err = stateful_seed_check(x, seed, 3 * (size_t)p->n, o->state, o->detail)) == FASTSIG_OK)
        err = fs_stateful_wotsp_keygen(core, seed, 3 * (size_t)p->n);
    OPENSSL_cleanse(seed, sizeof(seed));
    return stateful_gen_done(x, err, o, key);
}

static int pub_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len, void **key)
{
    return stateful_pub_decode(&fs_stateful_wotsp, in, len, key);
}

/* A root that its seeds do not give still decodes: refused when the key is
 * asked to sign (before the index is spent), since OpenSSL's decoders drop
 * a decoder's reason and the signer's error keeps it. */
static int priv_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len, void **key,
                       FSP_ERRDETAIL *d)
{
    return stateful_priv_decode(&fs_stateful_wotsp, in, len, key, d);
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_MODE, NULL, 0),
    OSSL_PARAM_END
};

const FSP_ADAPTER fsp_wotsp_adapter = {
    .gen = gen, .pub_decode = pub_decode, .priv_decode = priv_decode,
    .gen_settable = gen_settable, STATEFUL_COMMON_HOOKS,
};
