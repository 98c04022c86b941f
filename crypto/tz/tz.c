/* tz.c - streaming Tillich-Zemor hashing on top of the SL2 state. */
#include "tz.h"
#include "tz_kernel.h"
#include "fastsig_err.h"

void tz_init(tz_ctx *ctx)
{
    sl2_identity(&ctx->state);
}

void tz_update(tz_ctx *ctx, const void *data, size_t len)
{
    if (len)
        tz_mul_bytes(&ctx->state, data, len);
}

void tz_final(const tz_ctx *ctx, uint8_t out[TZ_DIGEST_SIZE])
{
    sl2_to_bytes(&ctx->state, out);
}

void tz_hash(const void *data, size_t len, uint8_t out[TZ_DIGEST_SIZE])
{
    tz_ctx ctx;
    tz_init(&ctx);
    tz_update(&ctx, data, len);
    tz_final(&ctx, out);
}

int tz_ctx_set_digest(tz_ctx *ctx, const uint8_t digest[TZ_DIGEST_SIZE])
{
    if (ctx == NULL || digest == NULL)
        return FASTSIG_ERR_NULL_ARG;
    sl2 t;
    if (sl2_from_bytes(&t, digest))
        return FASTSIG_ERR_TZ_BIT127;
    /* a prefix outside SL2 (e.g. singular) would degenerate every later digest */
    if (!sl2_in_group(&t))
        return FASTSIG_ERR_TZ_SINGULAR;
    ctx->state = t;
    return FASTSIG_OK;
}

/* Column-major order is a transpose of the row-major digest. */
static void transpose(sl2 *a)
{
    gf127 t = a->m[1];
    a->m[1] = a->m[2];
    a->m[2] = t;
}

void tz_ctx_marshal(const tz_ctx *ctx, uint8_t out[TZ_DIGEST_SIZE])
{
    sl2 t = ctx->state;
    transpose(&t);
    sl2_to_bytes(&t, out);
}

int tz_ctx_unmarshal(tz_ctx *ctx, const uint8_t in[TZ_DIGEST_SIZE])
{
    sl2 t;
    if (ctx == NULL || in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (sl2_from_bytes(&t, in))
        return FASTSIG_ERR_TZ_BIT127;
    transpose(&t);
    ctx->state = t;
    return FASTSIG_OK;
}
