/* rw_adapter.c - Rabin-Williams (crypto/rw) behind the generic glue: the
 * rows "RW" (variant 0: compact / expanded) and "RW-P1363" (variant 1:
 * IEEE 1363 EMSA2 with SHA-1 or SHA-256) share this adapter and one key type.
 *
 * Signature-context options: FSP_SIGOPTS.rw_*. RW verification picks compact or expanded from the
 * signature length (both are exact lengths), so X.509 verification needs no
 * context parameter. Import/export parameters: "n" (public); "p", "q" and,
 * on export, the CRT values "u", "dp", "dq" (BIGNUMs) and "prf" (octets). */
#include <string.h>
#include <limits.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/bn.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"
#include "rw/rw.h"


static int rw_gen(const FSP_SIGALG *alg, const FSP_GENOPTS *o, void **key)
{
    rw_key *k;
    int err;

    if (o->param != NULL || o->seed != NULL || o->state != NULL)
        return FASTSIG_ERR_UNSUPPORTED; /* RW keys: bits only */
    if (o->bits > UINT_MAX)
        return FASTSIG_ERR_BAD_PARAM;
    if ((k = rw_key_new()) == NULL)
        return FASTSIG_ERR_NOMEM;
    if (!o->progress(o->progress_arg, 0, 0)) {
        rw_key_free(k);
        return FASTSIG_ERR_BAD_PARAM;
    }
    if ((err = rw_keygen(k, (unsigned)o->bits, o->rng, o->rng_arg)) != FASTSIG_OK) {
        rw_key_free(k);
        return err;
    }
    o->progress(o->progress_arg, 3, 0);
    *key = k;
    return FASTSIG_OK;
}

static void rw_free(void *key)
{
    rw_key_free(key);
}

static int rw_has_private(const void *key)
{
    return rw_key_has_private(key);
}

static void rw_sizes(const void *key, FSP_KEYSIZES *out)
{
    out->bits = (int)rw_key_bits(key);
    out->security_bits = rw_key_security_bits(key);
    out->max_sig = rw_sig_max_len(rw_key_bits(key));
}

static int rw_pub_encode(const void *key, unsigned char *out, size_t *len)
{
    return rw_key_encode_public(key, out, len);
}

static int rw_priv_encode(const void *key, unsigned char *out, size_t *len)
{
    return rw_key_encode_private(key, out, len);
}

static int decode_with(int (*dec)(rw_key *, const uint8_t *, size_t),
                       const unsigned char *in, size_t len, void **key)
{
    rw_key *k = rw_key_new();
    int err;

    if (k == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = dec(k, in, len)) != FASTSIG_OK) {
        rw_key_free(k);
        return err;
    }
    *key = k;
    return FASTSIG_OK;
}

static int rw_pub_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                         void **key)
{
    return decode_with(rw_key_decode_public, in, len, key);
}

static int rw_priv_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                          void **key, FSP_ERRDETAIL *detail)
{
    (void)detail; /* an RW key names no file */
    return decode_with(rw_key_decode_private, in, len, key);
}

/* EVP_PKEY_sign after a digest was chosen hands RW-P1363 the digest H(M). */
static unsigned rw_flags(const FSP_SIGOPTS *o, int prehashed)
{
    return o->rw_flags | (prehashed ? RW_SIGN_PREHASHED : 0u);
}

static int rw_do_sign(void *key, const FSP_SIGOPTS *o, int prehashed, unsigned char *sig,
                      size_t *siglen, const unsigned char *msg, size_t msglen)
{
    return rw_sign(key, o->rw_format, rw_flags(o, prehashed), msg, msglen, sig, siglen);
}

static int rw_do_verify(const void *key, const FSP_SIGOPTS *o, int prehashed,
                        const unsigned char *sig, size_t siglen, const unsigned char *msg,
                        size_t msglen)
{
    int format = o->rw_format;

    if (o->rw_variant == FSP_RW_VARIANT)
        format = siglen == rw_sig_len(key, RW_FMT_EXPANDED) ? RW_FMT_EXPANDED : RW_FMT_COMPACT;
    return rw_verify(key, format, rw_flags(o, prehashed), msg, msglen, sig, siglen);
}

static int rw_check(const void *key, int want_private)
{
    return rw_key_check(key);
}

/* ---- signature-context options ---- */

static void rw_sigopts_default(const FSP_SIGALG *alg, FSP_SIGOPTS *o)
{
    memset(o, 0, sizeof(*o));
    o->rw_variant = alg->variant;
    o->rw_format = alg->variant == FSP_RW_P1363_VARIANT ? RW_FMT_P1363_SHA256 : RW_FMT_COMPACT;
}

static int rw_ctx_digest(FSP_SIGOPTS *o, const char *mdname)
{
    if (o->rw_variant != FSP_RW_P1363_VARIANT)
        return FASTSIG_ERR_UNSUPPORTED; /* RW hashes the message itself */
    if (OPENSSL_strcasecmp(mdname, "SHA1") == 0 || OPENSSL_strcasecmp(mdname, "SHA-1") == 0)
        o->rw_format = RW_FMT_P1363_SHA1;
    else if (OPENSSL_strcasecmp(mdname, "SHA256") == 0
             || OPENSSL_strcasecmp(mdname, "SHA2-256") == 0
             || OPENSSL_strcasecmp(mdname, "SHA-256") == 0)
        o->rw_format = RW_FMT_P1363_SHA256;
    else
        return FASTSIG_ERR_UNSUPPORTED;
    return FASTSIG_OK;
}

static const OSSL_PARAM rw_ctx_params[] = {
    OSSL_PARAM_utf8_string(FASTSIG_SIG_PARAM_RW_FORMAT, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_SIG_PARAM_RW_VERIFY, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_END
};

static int rw_ctx_set(FSP_SIGOPTS *o, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    const char *s;

    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_SIG_PARAM_RW_FORMAT)) != NULL) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &s) || o->rw_variant != FSP_RW_VARIANT)
            return FASTSIG_ERR_BAD_PARAM;
        if (strcmp(s, "compact") == 0)
            o->rw_format = RW_FMT_COMPACT;
        else if (strcmp(s, "expanded") == 0)
            o->rw_format = RW_FMT_EXPANDED;
        else
            return FASTSIG_ERR_BAD_PARAM;
    }
    if ((p = OSSL_PARAM_locate_const(params, FASTSIG_SIG_PARAM_RW_VERIFY)) != NULL) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &s))
            return FASTSIG_ERR_BAD_PARAM;
        if (strcmp(s, "exact") == 0)
            o->rw_flags &= ~RW_VERIFY_PROBABILISTIC;
        else if (strcmp(s, "probabilistic") == 0)
            o->rw_flags |= RW_VERIFY_PROBABILISTIC;
        else
            return FASTSIG_ERR_BAD_PARAM;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &s))
            return FASTSIG_ERR_BAD_PARAM;
        return rw_ctx_digest(o, s);
    }
    return FASTSIG_OK;
}

static int rw_ctx_get(const FSP_SIGOPTS *o, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    int f = o->rw_format;

    if ((p = OSSL_PARAM_locate(params, FASTSIG_SIG_PARAM_RW_FORMAT)) != NULL
        && !OSSL_PARAM_set_utf8_string(p, f == RW_FMT_EXPANDED ? "expanded"
                                          : f == RW_FMT_COMPACT ? "compact" : "p1363"))
        return FASTSIG_ERR_BAD_PARAM;
    if ((p = OSSL_PARAM_locate(params, FASTSIG_SIG_PARAM_RW_VERIFY)) != NULL
        && !OSSL_PARAM_set_utf8_string(p, (o->rw_flags & RW_VERIFY_PROBABILISTIC)
                                              ? "probabilistic" : "exact"))
        return FASTSIG_ERR_BAD_PARAM;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL
        && o->rw_variant == FSP_RW_P1363_VARIANT
        && !OSSL_PARAM_set_utf8_string(p, f == RW_FMT_P1363_SHA1 ? "SHA1" : "SHA256"))
        return FASTSIG_ERR_BAD_PARAM;
    return FASTSIG_OK;
}

/* ---- import / export of the components ---- */

static const struct {
    const char *name;
    int comp;
} comps[] = {
    { "n", RW_COMP_N }, { "p", RW_COMP_P }, { "q", RW_COMP_Q }, { "u", RW_COMP_U },
    { "dp", RW_COMP_DP }, { "dq", RW_COMP_DQ },
};

static const OSSL_PARAM rw_types[] = {
    OSSL_PARAM_BN("n", NULL, 0),
    OSSL_PARAM_BN("p", NULL, 0),
    OSSL_PARAM_BN("q", NULL, 0),
    OSSL_PARAM_BN("u", NULL, 0),
    OSSL_PARAM_BN("dp", NULL, 0),
    OSSL_PARAM_BN("dq", NULL, 0),
    OSSL_PARAM_octet_string("prf", NULL, 0),
    OSSL_PARAM_END
};

/* Big-endian bytes of a BIGNUM param (OPENSSL_secure_malloc'd); NULL if absent. */
static unsigned char *param_bytes(const OSSL_PARAM params[], const char *name, size_t *len,
                                  int *err)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
    BIGNUM *bn = NULL;
    unsigned char *out = NULL;

    *len = 0;
    if (p == NULL)
        return NULL;
    if (!OSSL_PARAM_get_BN(p, &bn) || BN_is_zero(bn) || BN_is_negative(bn)) {
        *err = FASTSIG_ERR_BAD_KEY;
    } else if ((out = OPENSSL_secure_malloc(BN_num_bytes(bn))) == NULL) {
        *err = FASTSIG_ERR_NOMEM;
    } else {
        *len = (size_t)BN_bn2bin(bn, out);
    }
    BN_clear_free(bn);
    return out;
}

static int rw_import(const FSP_SIGALG *alg, const OSSL_PARAM params[], int selection,
                     void **key)
{
    size_t nl, pl, ql, prfl = 0;
    int err = FASTSIG_OK;
    unsigned char *n = param_bytes(params, "n", &nl, &err);
    unsigned char *p = param_bytes(params, "p", &pl, &err);
    unsigned char *q = param_bytes(params, "q", &ql, &err);
    const OSSL_PARAM *prfp = OSSL_PARAM_locate_const(params, "prf");
    const void *prf = NULL;
    rw_key *k = NULL;

    if (err != FASTSIG_OK || (n == NULL && p == NULL && q == NULL))
        goto done; /* an error, or none of ours: the glue tries PUB_KEY/PRIV_KEY */
    if (prfp != NULL && !OSSL_PARAM_get_octet_string_ptr(prfp, &prf, &prfl)) {
        err = FASTSIG_ERR_BAD_PARAM;
        goto done;
    }
    if ((k = rw_key_new()) == NULL) {
        err = FASTSIG_ERR_NOMEM;
        goto done;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && p != NULL && q != NULL)
        err = rw_key_set_private(k, n, nl, p, pl, q, ql, prf, prfl);
    else if (n != NULL)
        err = rw_key_set_public(k, n, nl);
    else
        err = FASTSIG_ERR_BAD_KEY;
    if (err == FASTSIG_OK) {
        *key = k;
        k = NULL;
    }
done:
    rw_key_free(k);
    OPENSSL_secure_clear_free(n, nl);
    OPENSSL_secure_clear_free(p, pl);
    OPENSSL_secure_clear_free(q, ql);
    return err;
}

/* The component as an allocated big-endian buffer. */
static int comp_bytes(const void *key, int comp, unsigned char **out, size_t *len)
{
    int err;

    *out = NULL;
    if ((err = rw_key_export(key, comp, NULL, len)) != FASTSIG_OK)
        return err;
    if ((*out = OPENSSL_secure_malloc(*len ? *len : 1)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = rw_key_export(key, comp, *out, len)) != FASTSIG_OK) {
        OPENSSL_secure_clear_free(*out, *len ? *len : 1);
        *out = NULL;
    }
    return err;
}

static int rw_export(const void *key, int selection, FSP_EXPORT *x)
{
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && rw_key_has_private(key);
    size_t ncomp = priv ? sizeof(comps) / sizeof(comps[0]) : 1;
    unsigned char *b;
    size_t len;
    int err = FASTSIG_OK;

    for (size_t i = 0; i < ncomp && err == FASTSIG_OK; i++) {
        if ((err = comp_bytes(key, comps[i].comp, &b, &len)) != FASTSIG_OK)
            return err;
        err = fsp_export_bn(x, comps[i].name, b, len);
        OPENSSL_secure_clear_free(b, len ? len : 1);
    }
    if (err == FASTSIG_OK && priv) {
        if ((err = comp_bytes(key, RW_COMP_PRF, &b, &len)) != FASTSIG_OK)
            return err;
        err = fsp_export_octets(x, "prf", b, len);
        OPENSSL_secure_clear_free(b, len ? len : 1);
    }
    return err;
}

static int rw_text(const void *key, int selection, BIO *out)
{
    static const struct { const char *label; int comp; } rows[] = {
        { "modulus", RW_COMP_N }, { "prime1 (p = 3 mod 8)", RW_COMP_P },
        { "prime2 (q = 7 mod 8)", RW_COMP_Q }, { "coefficient (q^-1 mod p)", RW_COMP_U },
    };
    size_t nrows = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) ? 4 : 1;
    unsigned char *b;
    size_t len;
    int err, ok;

    for (size_t i = 0; i < nrows; i++) {
        if ((err = comp_bytes(key, rows[i].comp, &b, &len)) != FASTSIG_OK)
            return err;
        ok = fsp_text_hex(out, rows[i].label, b, len);
        OPENSSL_secure_clear_free(b, len ? len : 1);
        if (!ok)
            return FASTSIG_ERR_INTERNAL;
    }
    return FASTSIG_OK;
}

const FSP_ADAPTER fsp_rw_adapter = {
    .gen = rw_gen,
    .free = rw_free,
    .has_private = rw_has_private,
    .sizes = rw_sizes,
    .pub_encode = rw_pub_encode,
    .pub_decode = rw_pub_decode,
    .priv_encode = rw_priv_encode,
    .priv_decode = rw_priv_decode,
    .sign = rw_do_sign,
    .verify = rw_do_verify,
    .check = rw_check,
    .sigopts_default = rw_sigopts_default,
    .ctx_settable = rw_ctx_params,
    .ctx_set = rw_ctx_set,
    .ctx_digest = rw_ctx_digest,
    .ctx_gettable = rw_ctx_params,
    .ctx_get = rw_ctx_get,
    .import_types = rw_types,
    .import = rw_import,
    .export = rw_export,
    .text = rw_text,
};
