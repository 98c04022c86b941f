/* digest_tz.c - the TZ digest: OpenSSL digest dispatch over crypto/tz. */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "prov.h"
#include "fastsig/provider.h"
#include "fastsig/tz.h"
#include "fastsig_err.h"

typedef struct {
    FSP_PROVCTX *provctx;
    tz_ctx tz;
} FSP_TZ_CTX;

static void *tz_newctx(void *provctx)
{
    FSP_TZ_CTX *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL)
        return NULL;
    c->provctx = provctx;
    tz_init(&c->tz);
    return c;
}

static void tz_freectx(void *vctx)
{
    OPENSSL_clear_free(vctx, sizeof(FSP_TZ_CTX));
}

static void *tz_dupctx(void *vctx)
{
    FSP_TZ_CTX *src = vctx, *dst = OPENSSL_malloc(sizeof(*dst));
    if (dst != NULL)
        *dst = *src;
    return dst;
}

static int tz_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int tz_dinit(void *vctx, const OSSL_PARAM params[])
{
    FSP_TZ_CTX *c = vctx;
    tz_init(&c->tz);
    return tz_set_ctx_params(c, params);
}

static int tz_dupdate(void *vctx, const unsigned char *in, size_t inl)
{
    FSP_TZ_CTX *c = vctx;
    tz_update(&c->tz, in, inl);
    return 1;
}

static int tz_dfinal(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    FSP_TZ_CTX *c = vctx;
    if (outsz < TZ_DIGEST_SIZE) {
        FSP_ERR(c->provctx, FASTSIG_ERR_BAD_LENGTH);
        return 0;
    }
    tz_final(&c->tz, out);
    *outl = TZ_DIGEST_SIZE;
    return 1;
}

static int tz_oneshot(void *provctx, const unsigned char *in, size_t inl,
                      unsigned char *out, size_t *outl, size_t outsz)
{
    if (outsz < TZ_DIGEST_SIZE) {
        FSP_ERR(provctx, FASTSIG_ERR_BAD_LENGTH);
        return 0;
    }
    tz_hash(in, inl, out);
    *outl = TZ_DIGEST_SIZE;
    return 1;
}

static const OSSL_PARAM tz_gettable[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *tz_gettable_params(void *provctx)
{
    return tz_gettable;
}

static int tz_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, TZ_BLOCK_SIZE))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, TZ_DIGEST_SIZE))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) != NULL
        && !OSSL_PARAM_set_int(p, 0))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) != NULL
        && !OSSL_PARAM_set_int(p, 1))
        return 0;
    return 1;
}

/* Homomorphic use: "tz-prefix" (settable) continues from a prior digest
 * H(a), so that hashing b afterwards gives H(a||b); "tz-state" (gettable) is
 * the digest of everything hashed so far, without finalizing. */
static const OSSL_PARAM tz_settable_ctx[] = {
    OSSL_PARAM_octet_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM tz_gettable_ctx[] = {
    OSSL_PARAM_octet_string(FASTSIG_DIGEST_PARAM_TZ_STATE, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *tz_settable_ctx_params(void *vctx, void *provctx)
{
    return tz_settable_ctx;
}

static const OSSL_PARAM *tz_gettable_ctx_params(void *vctx, void *provctx)
{
    return tz_gettable_ctx;
}

static int tz_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    FSP_TZ_CTX *c = vctx;
    const OSSL_PARAM *p;
    const void *v;
    size_t len;
    if (params == NULL)
        return 1;
    p = OSSL_PARAM_locate_const(params, FASTSIG_DIGEST_PARAM_TZ_PREFIX);
    if (p == NULL)
        return 1;
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len)) {
        FSP_ERR(c->provctx, FASTSIG_ERR_BAD_PARAM);
        return 0;
    }
    if (len != TZ_DIGEST_SIZE) {
        FSP_ERR(c->provctx, FASTSIG_ERR_BAD_LENGTH);
        return 0;
    }
    int err = tz_ctx_set_digest(&c->tz, v); /* checks bit 127; ctx unchanged on error */
    if (err != FASTSIG_OK) {
        FSP_ERR(c->provctx, err);
        return 0;
    }
    return 1;
}

static int tz_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    FSP_TZ_CTX *c = vctx;
    OSSL_PARAM *p = OSSL_PARAM_locate(params, FASTSIG_DIGEST_PARAM_TZ_STATE);
    if (p != NULL) {
        uint8_t d[TZ_DIGEST_SIZE];
        tz_final(&c->tz, d);
        if (!OSSL_PARAM_set_octet_string(p, d, sizeof(d)))
            return 0;
    }
    return 1;
}

const OSSL_DISPATCH fsp_tz_digest_functions[] = {
    { OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))tz_newctx },
    { OSSL_FUNC_DIGEST_INIT, (void (*)(void))tz_dinit },
    { OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))tz_dupdate },
    { OSSL_FUNC_DIGEST_FINAL, (void (*)(void))tz_dfinal },
    { OSSL_FUNC_DIGEST_DIGEST, (void (*)(void))tz_oneshot },
    { OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))tz_freectx },
    { OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))tz_dupctx },
    { OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))tz_get_params },
    { OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))tz_gettable_params },
    { OSSL_FUNC_DIGEST_SET_CTX_PARAMS, (void (*)(void))tz_set_ctx_params },
    { OSSL_FUNC_DIGEST_SETTABLE_CTX_PARAMS, (void (*)(void))tz_settable_ctx_params },
    { OSSL_FUNC_DIGEST_GET_CTX_PARAMS, (void (*)(void))tz_get_ctx_params },
    { OSSL_FUNC_DIGEST_GETTABLE_CTX_PARAMS, (void (*)(void))tz_gettable_ctx_params },
    { 0, NULL }
};
