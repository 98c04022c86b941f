/* tz_homomorphic.c - concat, subtract and validate on encoded digests. */
#include "tz.h"
#include "fastsig_err.h"

int tz_digest_check(const uint8_t digest[TZ_DIGEST_SIZE])
{
    sl2 t;
    if (digest == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return sl2_from_bytes(&t, digest) ? FASTSIG_ERR_TZ_BIT127 : FASTSIG_OK;
}

static int concat_state(const uint8_t *digests, size_t count, sl2 *acc)
{
    sl2_identity(acc);
    if (count && digests == NULL)
        return FASTSIG_ERR_NULL_ARG;
    for (size_t i = 0; i < count; i++) {
        sl2 part;
        if (sl2_from_bytes(&part, digests + TZ_DIGEST_SIZE * i))
            return FASTSIG_ERR_TZ_BIT127;
        sl2_mul(acc, acc, &part);
    }
    return FASTSIG_OK;
}

int tz_concat(const uint8_t *digests, size_t count, uint8_t out[TZ_DIGEST_SIZE])
{
    sl2 acc;
    if (out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int err = concat_state(digests, count, &acc);
    if (err == FASTSIG_OK)
        sl2_to_bytes(&acc, out);
    return err;
}

/* Parses x and y, inverts the one named by `invert`, writes the product in
 * the order given: right ? x * y^-1 : y^-1 * x. */
static int divide(const uint8_t x_enc[TZ_DIGEST_SIZE], const uint8_t y_enc[TZ_DIGEST_SIZE],
                  int right, uint8_t out[TZ_DIGEST_SIZE])
{
    sl2 x, y, yi, r;
    if (x_enc == NULL || y_enc == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (sl2_from_bytes(&x, x_enc) || sl2_from_bytes(&y, y_enc))
        return FASTSIG_ERR_TZ_BIT127;
    if (sl2_inv(&yi, &y))
        return FASTSIG_ERR_TZ_SINGULAR;
    if (right)
        sl2_mul(&r, &x, &yi);
    else
        sl2_mul(&r, &yi, &x);
    sl2_to_bytes(&r, out);
    return FASTSIG_OK;
}

int tz_subtract_right(const uint8_t c[TZ_DIGEST_SIZE], const uint8_t b[TZ_DIGEST_SIZE],
                      uint8_t a_out[TZ_DIGEST_SIZE])
{
    return divide(c, b, 1, a_out);
}

int tz_subtract_left(const uint8_t c[TZ_DIGEST_SIZE], const uint8_t a[TZ_DIGEST_SIZE],
                     uint8_t b_out[TZ_DIGEST_SIZE])
{
    return divide(c, a, 0, b_out);
}

int tz_ct_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint8_t diff = 0;
    for (size_t i = 0; i < len; i++)
        diff |= a[i] ^ b[i];
    return (int)(1 & ((diff - 1u) >> 8));
}

int tz_validate(const uint8_t h[TZ_DIGEST_SIZE], const uint8_t *parts, size_t count)
{
    uint8_t got[TZ_DIGEST_SIZE];
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int err = tz_digest_check(h);
    if (err == FASTSIG_OK)
        err = tz_concat(parts, count, got);
    if (err != FASTSIG_OK)
        return err;
    return tz_ct_equal(h, got, TZ_DIGEST_SIZE) ? FASTSIG_OK : FASTSIG_ERR_VERIFY;
}
