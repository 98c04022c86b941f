/* fastsig.c - provider entry point: init, teardown, parameters, queries. */
#define _GNU_SOURCE /* secure_getenv */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "prov.h"
#include "fastsig_err.h"
#include "state/statefile.h"
#include "fastsig/provider.h"
#include "stateful_key.h"

#ifndef FASTSIG_VERSION
#define FASTSIG_VERSION "unknown"
#endif
#ifndef FASTSIG_BUILDINFO
#define FASTSIG_BUILDINFO "fastsig " FASTSIG_VERSION
#endif

static const OSSL_PARAM gettable_params[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PROV_PARAM_STATE_DIR, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *fsp_gettable_params(void *provctx)
{
    return gettable_params;
}

static int fsp_get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "fastsig provider"))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, FASTSIG_VERSION))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, FASTSIG_BUILDINFO))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1))
        return 0;
    p = OSSL_PARAM_locate(params, FASTSIG_PROV_PARAM_STATE_DIR);
    if (p != NULL) { /* unresolved: the tools say which directory they looked in */
        char dir[4096];
        if (fastsig_state_default_dir(fsp_config_state_dir(), dir, sizeof(dir)) != FASTSIG_OK
            || !OSSL_PARAM_set_utf8_string(p, dir))
            return 0;
    }
    return 1;
}

/* `state_dir = DIR` in the provider's config section: the default state
 * directory of stateful keys after $FASTSIG_STATE_DIR (crypto/state). */
static char config_state_dir[4096];

const char *fsp_config_state_dir(void)
{
    return config_state_dir[0] != '\0' ? config_state_dir : NULL;
}

/* The lock timeout of state files (crypto/state): $FASTSIG_STATE_LOCK_TIMEOUT,
 * else `state_lock_timeout = SECONDS` in the provider's config section, else
 * the default. A value that is no number of seconds fails the load, naming
 * it: a typo must not leave signers waiting a time nobody chose. */
static int set_lock_timeout(const OSSL_CORE_HANDLE *handle, const char *cnf)
{
    const char *env = secure_getenv("FASTSIG_STATE_LOCK_TIMEOUT");
    const char *what = env != NULL && env[0] != '\0' ? "FASTSIG_STATE_LOCK_TIMEOUT"
                                                      : "state_lock_timeout";
    const char *text = env != NULL && env[0] != '\0' ? env : cnf;
    unsigned ms;
    FSP_PROVCTX at_init = { handle, NULL };

    if (text == NULL)
        return 1;
    if (fastsig_state_parse_timeout(text, &ms) != FASTSIG_OK) {
        FSP_ERR_MSG(&at_init, FASTSIG_ERR_BAD_PARAM,
                   "%s=%s: not a number of seconds from 0 to %u (e.g. 5 or 0.25)", what, text,
                   FASTSIG_STATE_LOCK_TIMEOUT_MAX_S);
        return 0;
    }
    fastsig_state_set_lock_timeout(ms);
    return 1;
}

static int read_config(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in)
{
    OSSL_FUNC_core_get_params_fn *get = NULL;
    char *dir = NULL, *timeout = NULL, *warn = NULL;
    FSP_PROVCTX at_init = { handle, NULL };
    OSSL_PARAM p[4];

    for (; in->function_id != 0; in++)
        if (in->function_id == OSSL_FUNC_CORE_GET_PARAMS)
            get = OSSL_FUNC_core_get_params(in);
    p[0] = OSSL_PARAM_construct_utf8_ptr("state_dir", &dir, 0);
    p[1] = OSSL_PARAM_construct_utf8_ptr("state_lock_timeout", &timeout, 0);
    p[2] = OSSL_PARAM_construct_utf8_ptr("warn_remaining", &warn, 0);
    p[3] = OSSL_PARAM_construct_end();
    if (get == NULL || !get(handle, p))
        dir = timeout = warn = NULL;
    if (!stateful_warn_config(warn)) { /* a typo must not silence the warning */
        FSP_ERR_MSG(&at_init, FASTSIG_ERR_BAD_PARAM,
                   "warn_remaining=%s: not a number of signatures", warn);
        return 0;
    }
    if (dir != NULL && strlen(dir) < sizeof(config_state_dir))
        strcpy(config_state_dir, dir);
    return set_lock_timeout(handle, timeout);
}

static const OSSL_ALGORITHM *fsp_query(void *provctx, int operation_id, int *no_cache)
{
    *no_cache = 0;
    return fsp_query_algorithms(operation_id);
}

static const OSSL_ITEM *fsp_get_reason_strings(void *provctx)
{
    return fsp_reason_strings();
}

static void fsp_teardown(void *provctx)
{
    FSP_PROVCTX *ctx = provctx;
    if (ctx == NULL)
        return;
    OSSL_LIB_CTX_free(ctx->libctx);
    OPENSSL_free(ctx);
}

static const OSSL_DISPATCH provider_functions[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))fsp_teardown },
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))fsp_gettable_params },
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))fsp_get_params },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))fsp_query },
    { OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))fsp_get_reason_strings },
    { 0, NULL }
};

/* The module's one exported symbol (everything else is hidden). */
__attribute__((visibility("default")))
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    FSP_PROVCTX *ctx;

    fsp_err_init(in);
    if (!read_config(handle, in) || !fsp_register_objects(handle, in))
        return 0;
    ctx = OPENSSL_zalloc(sizeof(*ctx));
    if (ctx == NULL)
        return 0;
    ctx->handle = handle;
    ctx->libctx = OSSL_LIB_CTX_new_child(handle, in);
    if (ctx->libctx == NULL) {
        OPENSSL_free(ctx);
        return 0;
    }
    *out = provider_functions;
    *provctx = ctx;
    return 1;
}
