/* digest_tz.c - the TZ digest: OpenSSL digest dispatch over crypto/tz. */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "prov.h"
#include "tz/tz.h"
#include "fastsig_err.h"

typedef struct {
    FS_PROVCTX *provctx;
    tz_ctx tz;
} FS_TZ_CTX;

static void *tz_newctx(void *provctx)
{
    FS_TZ_CTX *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL)
        return NULL;
    c->provctx = provctx;
    tz_init(&c->tz);
    return c;
}

static void tz_freectx(void *vctx)
{
    OPENSSL_clear_free(vctx, sizeof(FS_TZ_CTX));
}

static void *tz_dupctx(void *vctx)
{
    FS_TZ_CTX *src = vctx, *dst = OPENSSL_malloc(sizeof(*dst));
    if (dst != NULL)
        *dst = *src;
    return dst;
}

static int tz_dinit(void *vctx, const OSSL_PARAM params[])
{
    FS_TZ_CTX *c = vctx;
    tz_init(&c->tz);
    return 1;
}

static int tz_dupdate(void *vctx, const unsigned char *in, size_t inl)
{
    FS_TZ_CTX *c = vctx;
    tz_update(&c->tz, in, inl);
    return 1;
}

static int tz_dfinal(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    FS_TZ_CTX *c = vctx;
    if (outsz < TZ_DIGEST_SIZE) {
        FS_ERR(c->provctx, FASTSIG_ERR_BAD_LENGTH);
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
        FS_ERR(provctx, FASTSIG_ERR_BAD_LENGTH);
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

const OSSL_DISPATCH fs_tz_digest_functions[] = {
    { OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))tz_newctx },
    { OSSL_FUNC_DIGEST_INIT, (void (*)(void))tz_dinit },
    { OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))tz_dupdate },
    { OSSL_FUNC_DIGEST_FINAL, (void (*)(void))tz_dfinal },
    { OSSL_FUNC_DIGEST_DIGEST, (void (*)(void))tz_oneshot },
    { OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))tz_freectx },
    { OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))tz_dupctx },
    { OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))tz_get_params },
    { OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))tz_gettable_params },
    { 0, NULL }
};
