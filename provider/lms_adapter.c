/* lms_adapter.c - the LMS row: one LMS tree (RFC 8554 section 5) under the
 * name OpenSSL 3.6's default provider gives its LMS verifier, so that the two
 * providers answer the same fetch with the same bytes (doc/design.md, "LMS
 * beside OpenSSL 3.6").
 *
 * The key is an HSS key of one level (hss_adapter.c, the row of record): an
 * HSS public key is u32str(L) || the top tree's LMS public key, an HSS
 * signature of one level u32str(0) || an LMS signature. This row's PUB_KEY
 * parameter and signatures are the LMS bytes without those four, as 3.6's
 * keymgmt exports and its verifier reads them; it also takes the HSS forms
 * of one level (fastsig's LMS before 3.6) on import and verification. Its SPKI and PKCS#8 are the HSS
 * ones, under the HSS OID: a key file of this row reads back as an HSS key. */
#include <string.h>
#include <openssl/crypto.h>
#include "stateful_key.h"
#include "stateful_kinds.h"
#include "hss_compat.h"
#include "prov.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"
#include "bytes.h"

#define HSS_PREFIX 4 /* u32str(L) of a public key, u32str(L-1) of a signature */

static int one_level(const STATEFUL_KEY *x)
{
    return x->pklen > HSS_PREFIX && fs_load_be32(x->pk) == 1;
}

/* A decoded key of the row of record, refused unless it has one level. */
static int only_one_level(int err, void **key)
{
    if (err == FASTSIG_OK && !one_level(*key)) {
        stateful_free(*key);
        *key = NULL;
        err = FASTSIG_ERR_UNSUPPORTED; /* two or more levels: an HSS key */
    }
    return err;
}

static int lms_row_gen(const FSP_SIGALG *alg, const FSP_GENOPTS *o, void **key)
{
    if (o->param != NULL && strchr(o->param, ',') != NULL) {
        fsp_detail_file(o->detail, FASTSIG_ERR_UNSUPPORTED, "parameter set", o->param, 0,
                        "LMS is one tree: two or more levels are an HSS key (-algorithm HSS)");
        return FASTSIG_ERR_UNSUPPORTED;
    }
    return fsp_hss_adapter.gen(alg, o, key);
}

static int lms_row_priv_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                               void **key, FSP_ERRDETAIL *d)
{
    return only_one_level(fsp_hss_adapter.priv_decode(alg, in, len, key, d), key);
}

/* The raw LMS public key (OpenSSL 3.6's), or the HSS one of one level. */
static int lms_row_pub_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                              void **key)
{
    unsigned char hss[HSS_PREFIX + 8 + 16 + LMS_MAX_N];

    /* no LMS typecode is 1, so an LMS key never starts like an HSS key */
    if (len > HSS_PREFIX && fs_load_be32(in) == 1)
        return only_one_level(stateful_pub_decode(&fs_stateful_hss, in, len, key), key);
    if (len > sizeof(hss) - HSS_PREFIX)
        return FASTSIG_ERR_BAD_KEY;
    fs_store_be32(hss, 1);
    memcpy(hss + HSS_PREFIX, in, len);
    return stateful_pub_decode(&fs_stateful_hss, hss, len + HSS_PREFIX, key);
}

static int lms_row_pub_encode(const void *key, unsigned char *out, size_t *len)
{
    const STATEFUL_KEY *x = key;

    if (!one_level(x))
        return FASTSIG_ERR_BAD_KEY;
    if (out != NULL) {
        if (*len < x->pklen - HSS_PREFIX)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(out, x->pk + HSS_PREFIX, x->pklen - HSS_PREFIX);
    }
    *len = x->pklen - HSS_PREFIX;
    return FASTSIG_OK;
}

/* The HSS signature of one level, less its u32str(0). */
static int lms_row_sign(void *key, const FSP_SIGOPTS *o, int prehashed, unsigned char *sig,
                        size_t *siglen, const unsigned char *msg, size_t msglen)
{
    STATEFUL_KEY *x = key;
    size_t need = x->ops->sig_bytes(x->core), len = need;
    unsigned char *hss;
    int err;

    if (!one_level(x))
        return FASTSIG_ERR_BAD_KEY;
    if (*siglen < need - HSS_PREFIX)
        return FASTSIG_ERR_BAD_LENGTH; /* before anything is spent */
    if ((hss = OPENSSL_malloc(need)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = stateful_sign(key, o, prehashed, hss, &len, msg, msglen)) == FASTSIG_OK) {
        memcpy(sig, hss + HSS_PREFIX, len - HSS_PREFIX);
        *siglen = len - HSS_PREFIX;
    }
    OPENSSL_free(hss);
    return err;
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_uint(FASTSIG_PKEY_PARAM_THREADS, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_RESUME, NULL, 0),
    OSSL_PARAM_END
};

/* STATEFUL_COMMON_HOOKS but the public key and sign; verify is the HSS row's,
 * which takes the bare LMS signature of a one-level key too (hss_compat.c) */
const FSP_ADAPTER fsp_lms_adapter = {
    .gen = lms_row_gen, .free = stateful_free, .has_private = stateful_has_private,
    .sizes = stateful_sizes, .pub_encode = lms_row_pub_encode, .pub_decode = lms_row_pub_decode,
    .priv_encode = stateful_priv_encode, .priv_decode = lms_row_priv_decode, .sign = lms_row_sign,
    .verify = hss_compat_verify, .spki_encode = stateful_pub_encode, .param_name = stateful_param_name,
    .state = stateful_state, .sigopts_default = stateful_sigopts_default,
    .ctx_settable = stateful_ctx_params, .ctx_set = stateful_ctx_set,
    .ctx_gettable = stateful_ctx_params, .ctx_get = stateful_ctx_get,
    .gettable = stateful_key_gettable, .get_params = stateful_get_params,
    .settable = stateful_key_settable, .set_params = stateful_set_params, .text = stateful_text,
    .gen_settable = gen_settable,
};
