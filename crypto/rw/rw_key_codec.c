/* rw_key_codec.c - RW keys in and out: import/export of components and the
 * compact public/private encodings (see rw.h). */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "hash/keccak.h"
#include "rw/rw_internal.h"

static void prf_derive(uint8_t prf[RW_PRF_BYTES], const mpz_t p, const mpz_t q);

int rw_key_set_public(rw_key *k, const uint8_t *n, size_t nlen)
{
    if (k == NULL || n == NULL)
        return FASTSIG_ERR_NULL_ARG;
    mpz_t t;
    mpz_init(t);
    mpz_import(t, nlen, 1, 1, 1, 0, n);
    int rc = rw_check_public(t, RW_MIN_IMPORT_BITS);
    if (rc == FASTSIG_OK) {
        rw_key_clear_private(k);
        mpz_swap(k->n, t);
        rc = rw_key_derive(k);
    }
    mpz_clear(t);
    return rc;
}

int rw_key_set_private(rw_key *k, const uint8_t *n, size_t nlen,
                       const uint8_t *p, size_t plen, const uint8_t *q, size_t qlen,
                       const uint8_t *prf, size_t prflen)
{
    if (k == NULL || p == NULL || q == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (prf != NULL && prflen != RW_PRF_BYTES)
        return FASTSIG_ERR_BAD_LENGTH;
    rw_key *t = rw_key_new();
    if (t == NULL)
        return FASTSIG_ERR_NOMEM;
    mpz_import(t->p, plen, 1, 1, 1, 0, p);
    mpz_import(t->q, qlen, 1, 1, 1, 0, q);
    int rc = rw_modulus(t->n, t->p, t->q);
    if (rc == FASTSIG_OK && n != NULL) {
        mpz_t given;
        mpz_init(given);
        mpz_import(given, nlen, 1, 1, 1, 0, n);
        if (mpz_cmp(given, t->n) != 0)
            rc = FASTSIG_ERR_BAD_KEY;
        mpz_clear(given);
    }
    if (rc == FASTSIG_OK)
        rc = rw_check_private(t->n, t->p, t->q, RW_MIN_IMPORT_BITS);
    if (rc == FASTSIG_OK) {
        t->has_priv = 1;
        if (prf != NULL)
            memcpy(t->prf, prf, RW_PRF_BYTES);
        else
            prf_derive(t->prf, t->p, t->q);
        rc = rw_key_derive(t);
    }
    if (rc == FASTSIG_OK)
        rc = rw_key_self_test(t);
    if (rc == FASTSIG_OK)
        rw_key_swap(k, t); /* the old contents freed with t */
    rw_key_free(t);
    return rc;
}

/* The out/outlen convention: FASTSIG_OK with *outlen = len, and 1 in *write
 * when out is there to be written (big enough). */
static int out_room(const uint8_t *out, size_t *outlen, size_t len, int *write)
{
    if (outlen == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (out != NULL && *outlen < len)
        return FASTSIG_ERR_BAD_LENGTH;
    *write = out != NULL;
    *outlen = len;
    return FASTSIG_OK;
}

static int put_bytes(uint8_t *out, size_t *outlen, const uint8_t *src, size_t len)
{
    int w, rc = out_room(out, outlen, len, &w);
    if (rc == FASTSIG_OK && w)
        memcpy(out, src, len);
    return rc;
}

static int put_mpz(uint8_t *out, size_t *outlen, const mpz_t z, size_t len)
{
    int w, rc = out_room(out, outlen, len, &w);
    if (rc == FASTSIG_OK && w)
        rw_mpz_to_be(out, len, z);
    return rc;
}

static size_t minimal_len(const mpz_t z)
{
    return (rw_bitlen(z) + 7) / 8;
}

int rw_key_export(const rw_key *k, int comp, uint8_t *out, size_t *outlen)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (k->bits == 0 || (comp != RW_COMP_N && !k->has_priv))
        return FASTSIG_ERR_BAD_KEY;
    const mpz_t *z;
    switch (comp) {
    case RW_COMP_N: return put_mpz(out, outlen, k->n, k->nbytes);
    case RW_COMP_P: z = &k->p; break;
    case RW_COMP_Q: z = &k->q; break;
    case RW_COMP_U: z = &k->u; break;
    case RW_COMP_DP: z = &k->dp; break;
    case RW_COMP_DQ: z = &k->dq; break;
    case RW_COMP_PRF: return put_bytes(out, outlen, k->prf, RW_PRF_BYTES);
    default: return FASTSIG_ERR_BAD_PARAM;
    }
    return put_mpz(out, outlen, *z, minimal_len(*z));
}

/* ---- compact encodings --------------------------------------------------- */

int rw_key_encode_public(const rw_key *k, uint8_t *out, size_t *outlen)
{
    return rw_key_export(k, RW_COMP_N, out, outlen);
}

int rw_key_decode_public(rw_key *k, const uint8_t *in, size_t inlen)
{
    if (in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (inlen == 0 || in[0] == 0)
        return FASTSIG_ERR_BAD_KEY;   /* exactly nbytes: no leading zero byte */
    return rw_key_set_public(k, in, inlen);
}

/* BE16(len) || bytes of z (minimal) at *pos. */
static void put_field(uint8_t *out, size_t *pos, const mpz_t z)
{
    size_t len = minimal_len(z);
    out[(*pos)++] = (uint8_t)(len >> 8);
    out[(*pos)++] = (uint8_t)len;
    rw_mpz_to_be(out + *pos, len, z);
    *pos += len;
}

int rw_key_encode_private(const rw_key *k, uint8_t *out, size_t *outlen)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (!k->has_priv)
        return FASTSIG_ERR_BAD_KEY;
    size_t len = 1 + RW_PRF_BYTES + 2 + minimal_len(k->p) + 2 + minimal_len(k->q);
    int w, rc = out_room(out, outlen, len, &w);
    if (rc == FASTSIG_OK && w) {
        size_t pos = 0;
        out[pos++] = 0x01;
        memcpy(out + pos, k->prf, RW_PRF_BYTES);
        pos += RW_PRF_BYTES;
        put_field(out, &pos, k->p);
        put_field(out, &pos, k->q);
    }
    return rc;
}

/* Reads BE16(len) || bytes (minimal: leading byte != 0). */
static int get_field(const uint8_t *in, size_t inlen, size_t *pos, const uint8_t **f, size_t *flen)
{
    if (inlen - *pos < 2)
        return FASTSIG_ERR_BAD_KEY;
    size_t len = fs_load_be16(in + *pos);
    *pos += 2;
    if (len == 0 || inlen - *pos < len || in[*pos] == 0)
        return FASTSIG_ERR_BAD_KEY;
    *f = in + *pos;
    *flen = len;
    *pos += len;
    return FASTSIG_OK;
}

int rw_key_decode_private(rw_key *k, const uint8_t *in, size_t inlen)
{
    if (k == NULL || in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (inlen < 1 + RW_PRF_BYTES || in[0] != 0x01)
        return FASTSIG_ERR_BAD_KEY;
    size_t pos = 1 + RW_PRF_BYTES, plen, qlen;
    const uint8_t *p, *q;
    int rc = get_field(in, inlen, &pos, &p, &plen);
    if (rc == FASTSIG_OK)
        rc = get_field(in, inlen, &pos, &q, &qlen);
    if (rc == FASTSIG_OK && pos != inlen)
        rc = FASTSIG_ERR_BAD_KEY;      /* trailing bytes */
    if (rc != FASTSIG_OK)
        return rc;
    return rw_key_set_private(k, NULL, 0, p, plen, q, qlen, in + 1, RW_PRF_BYTES);
}

/* prf = SHAKE256("FASTSIG-RW-PRF-v1" || BE16(plen) || p || BE16(qlen) || q, 32) */
static void prf_derive(uint8_t prf[RW_PRF_BYTES], const mpz_t p, const mpz_t q)
{
    static const char dom[] = "FASTSIG-RW-PRF-v1";
    size_t len = 4 + minimal_len(p) + minimal_len(q), pos = 0;
    uint8_t *buf = malloc(len);
    fs_shake_ctx x;
    fs_shake_init(&x, FS_SHAKE256_RATE);
    fs_shake_absorb(&x, dom, sizeof(dom) - 1);
    if (buf != NULL) {
        put_field(buf, &pos, p);
        put_field(buf, &pos, q);
        fs_shake_absorb(&x, buf, len);
        rw_wipe(buf, len);
        free(buf);
    }
    fs_shake_squeeze(&x, prf, RW_PRF_BYTES);
    fs_shake_wipe(&x);
}
