/* keymgmt_gen.c - key generation of every fastsig signature algorithm
 * (keymgmt.h): the generation context, its `-pkeyopt` parameters, and the
 * call into the row's adapter. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "keymgmt.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"
#include "secmem.h"

static const OSSL_PARAM generic_gen_settable[] = {
    OSSL_PARAM_size_t(FASTSIG_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_PARAM, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SEED, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, NULL, 0),
    OSSL_PARAM_END
};
static OSSL_PARAM gen_settable[FSP_MAX_SIGALGS][FSP_KM_PARAMS_CAP];

int fsp_km_gen_tables_init(void)
{
    return fsp_params_merge_rows(gen_settable[0], FSP_KM_PARAMS_CAP, generic_gen_settable,
                                offsetof(FSP_ADAPTER, gen_settable));
}

typedef struct {
    FSP_PROVCTX *provctx;
    const FSP_SIGALG *alg;
    int selection;
    size_t bits;
    char *param, *state, *mode;
    unsigned char *seed;
    size_t seedlen;
    unsigned threads;
    OSSL_CALLBACK *cb;
    void *cbarg;
} FSP_GENCTX;

/* "threads": an unsigned integer or decimal text, 1..FSP_GEN_MAX_THREADS,
 * only for rows whose adapter offers it. */
static int get_threads(FSP_GENCTX *g, const OSSL_PARAM *p)
{
    const char *s = p->data;
    char *end = NULL;
    uint64_t v = 0;
    int ok;

    if (OSSL_PARAM_locate_const(g->alg->ad->gen_settable, FASTSIG_PKEY_PARAM_THREADS) == NULL) {
        FSP_ERR_MSG(g->provctx, FASTSIG_ERR_UNSUPPORTED, "%s key generation has no threads option",
                   g->alg->name);
        return 0;
    }
    if (p->data_type == OSSL_PARAM_UTF8_STRING)
        ok = s != NULL && s[0] >= '0' && s[0] <= '9' && (v = strtoull(s, &end, 10), *end == '\0');
    else
        ok = OSSL_PARAM_get_uint64(p, &v);
    if (!ok || v < 1 || v > FSP_GEN_MAX_THREADS) {
        FSP_ERR_MSG(g->provctx, FASTSIG_ERR_BAD_PARAM, "threads: a whole number from 1 to %d",
                   FSP_GEN_MAX_THREADS);
        return 0;
    }
    g->threads = (unsigned)v;
    return 1;
}

/* A text option into *dst (replacing what it held), when present. An empty
 * one is refused by name: "state" would silently mean the default state
 * directory, and the usual cause is OSSL_PARAM_utf8_string(name, s, 0), whose
 * 0 is the string's size (OSSL_PARAM_construct_utf8_string's 0 means strlen). */
static int get_text(FSP_GENCTX *g, const OSSL_PARAM params[], const char *name, char **dst)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
    if (p == NULL)
        return 1;
    OPENSSL_free(*dst);
    *dst = NULL;
    if (!OSSL_PARAM_get_utf8_string(p, dst, 0)) {
        FSP_ERR_MSG(g->provctx, FASTSIG_ERR_BAD_PARAM, "%s: not a UTF-8 string", name);
        return 0;
    }
    if ((*dst)[0] == '\0') {
        FSP_ERR_MSG(g->provctx, FASTSIG_ERR_BAD_PARAM, "%s is empty (from C: the size of an "
                    "OSSL_PARAM_utf8_string is the string's length, not 0)", name);
        OPENSSL_free(*dst);
        *dst = NULL;
        return 0;
    }
    return 1;
}

/* The "seed" option (octets or hex) into g->seed, a secmem.h buffer: it
 * is the private key. */
static int get_seed(FSP_GENCTX *g, const OSSL_PARAM *p)
{
    const void *raw = NULL;
    const char *hex = p->data;
    size_t n = 0;

    fs_secmem_free(g->seed);
    g->seed = NULL;
    g->seedlen = 0;
    if (p->data_type == OSSL_PARAM_OCTET_STRING) {
        if (!OSSL_PARAM_get_octet_string_ptr(p, &raw, &n))
            return FASTSIG_ERR_BAD_PARAM;
        if ((g->seed = fs_secmem_alloc(n)) == NULL)
            return FASTSIG_ERR_NOMEM;
        memcpy(g->seed, raw, n);
        g->seedlen = n;
        return FASTSIG_OK;
    }
    if (p->data_type != OSSL_PARAM_UTF8_STRING || hex == NULL)
        return FASTSIG_ERR_BAD_PARAM;
    n = strlen(hex) / 2;
    if (strlen(hex) % 2 != 0 || n == 0 || (g->seed = fs_secmem_alloc(n)) == NULL
        || !OPENSSL_hexstr2buf_ex(g->seed, n, &g->seedlen, hex, '\0'))
        return FASTSIG_ERR_BAD_HEX;
    return FASTSIG_OK;
}

int fsp_km_gen_set_params(void *genctx, const OSSL_PARAM params[])
{
    FSP_GENCTX *g = genctx;
    const OSSL_PARAM *p;
    int err = FASTSIG_ERR_BAD_PARAM;

    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_BITS)) != NULL
        && !OSSL_PARAM_get_size_t(p, &g->bits)) {
        /* also "bits" as decimal text */
        char *end = NULL;
        unsigned long long v;
        if (p->data_type != OSSL_PARAM_UTF8_STRING || p->data == NULL)
            goto fail;
        v = strtoull(p->data, &end, 10);
        if (end == p->data || *end != '\0' || v > SIZE_MAX)
            goto fail;
        g->bits = (size_t)v;
    }
    if (!get_text(g, params, FASTSIG_PKEY_PARAM_PARAM, &g->param)
        || !get_text(g, params, FASTSIG_PKEY_PARAM_MODE, &g->mode))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_THREADS)) != NULL
        && !get_threads(g, p))
        return 0;
    if (!get_text(g, params, FASTSIG_PKEY_PARAM_STATE, &g->state))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_SEED)) != NULL
        && (err = get_seed(g, p)) != FASTSIG_OK)
        goto fail;
    return 1;
fail:
    FSP_ERR(g->provctx, err);
    return 0;
}

void *fsp_km_gen_init(void *provctx, int selection, const OSSL_PARAM params[],
                     const FSP_SIGALG *alg)
{
    FSP_GENCTX *g = OPENSSL_zalloc(sizeof(*g));
    if (g == NULL)
        return NULL;
    g->provctx = provctx;
    g->alg = alg;
    g->selection = selection;
    if (!fsp_km_gen_set_params(g, params)) {
        OPENSSL_free(g);
        return NULL;
    }
    return g;
}

void fsp_km_gen_cleanup(void *genctx)
{
    FSP_GENCTX *g = genctx;
    if (g == NULL)
        return;
    OPENSSL_free(g->param);
    OPENSSL_free(g->state);
    OPENSSL_free(g->mode);
    fs_secmem_free(g->seed); /* wiped */
    OPENSSL_free(g);
}

static int gen_progress(void *arg, int potential, int iteration)
{
    FSP_GENCTX *g = arg;
    OSSL_PARAM p[3];

    if (g->cb == NULL)
        return 1;
    p[0] = OSSL_PARAM_construct_int(OSSL_GEN_PARAM_POTENTIAL, &potential);
    p[1] = OSSL_PARAM_construct_int(OSSL_GEN_PARAM_ITERATION, &iteration);
    p[2] = OSSL_PARAM_construct_end();
    return g->cb(p, g->cbarg);
}

void *fsp_km_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
    FSP_GENCTX *g = genctx;
    FSP_ERRDETAIL detail = { 0 };
    FSP_GENOPTS o = { g->bits, g->param, g->seed, g->seedlen, g->state,
                     fsp_rng_bytes, g->provctx, gen_progress, g, g->mode, g->threads, &detail };
    FSP_KEY *k;
    void *core = NULL;
    int err;

    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
        FSP_ERR(g->provctx, FASTSIG_ERR_UNSUPPORTED); /* no domain parameters */
        return NULL;
    }
    g->cb = cb;
    g->cbarg = cbarg;
    if ((err = g->alg->ad->gen(g->alg, &o, &core)) != FASTSIG_OK) {
        FSP_ERR_DETAIL(g->provctx, err, &detail);
        return NULL;
    }
    if ((k = fsp_key_new(g->provctx, g->alg)) == NULL) {
        g->alg->ad->free(core);
        return NULL;
    }
    if (!fsp_key_set_core(k, core)) {
        fsp_key_free(k);
        return NULL;
    }
    return k;
}

/* reference: the FSP_KEY * a decoder of this provider made; ownership moves. */

const OSSL_PARAM *fsp_km_gen_settable(void *genctx, void *provctx)
{
    FSP_GENCTX *g = genctx;
    return g != NULL ? gen_settable[g->alg - fsp_sigalgs] : generic_gen_settable;
}
