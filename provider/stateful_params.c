/* stateful_params.c - the parameters and text of the stateful hash-based keys
 * (stateful_key.h): the reservation block ("batch") of a key and of a
 * signature context, a context's verify-after-sign, the state path,
 * `openssl pkey -text` lines. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "prov.h"
#include "stateful_key.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"

/* Signature-context options: reservation block size (FSP_SIGOPTS.batch),
 * verify-after-sign (FSP_SIGOPTS.verify_after_sign). */
const OSSL_PARAM stateful_ctx_params[] = {
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_BATCH, NULL),
    OSSL_PARAM_int(FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN, NULL),
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_WARN_REMAINING, NULL),
    OSSL_PARAM_END
};
const OSSL_PARAM stateful_key_gettable[] = {
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_BATCH, NULL),
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_WARN_REMAINING, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, NULL, 0),
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_SHARD_ALIGN, NULL),
    OSSL_PARAM_END
};
const OSSL_PARAM stateful_key_settable[] = {
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_BATCH, NULL),
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_WARN_REMAINING, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, NULL, 0),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_STATE, NULL, 0),
    OSSL_PARAM_END
};

void stateful_sigopts_default(const FSP_SIGALG *alg, FSP_SIGOPTS *o)
{
    memset(o, 0, sizeof(*o));
}

static int get_batch(const OSSL_PARAM params[], uint64_t *v)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_BATCH);
    if (p == NULL)
        return 0;
    if (p->data_type == OSSL_PARAM_UTF8_STRING) { /* -pkeyopt / -sigopt text */
        char *end = NULL;
        if (p->data == NULL || ((const char *)p->data)[0] == '-')
            return -1;
        *v = strtoull(p->data, &end, 10);
        if (end == p->data || *end != '\0')
            return -1;
    } else if (!OSSL_PARAM_get_uint64(p, v)) {
        return -1;
    }
    return *v >= 1 && *v <= (1u << 30) ? 1 : -1;
}

/* verify-after-sign: 0 or 1, as an integer or as text. */
static int get_verify_after_sign(const OSSL_PARAM params[], int *v)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN);
    if (p == NULL)
        return 0;
    if (p->data_type == OSSL_PARAM_UTF8_STRING) {
        if (p->data == NULL || (strcmp(p->data, "0") != 0 && strcmp(p->data, "1") != 0))
            return -1;
        *v = ((const char *)p->data)[0] - '0';
    } else if (!OSSL_PARAM_get_int(p, v)) {
        return -1;
    }
    return *v == 0 || *v == 1 ? 1 : -1;
}

/* 1 when params name a digest: these schemes sign the message itself, so a
 * digest set on the context (EVP_PKEY_CTX_set_signature_md) is refused before
 * anything is signed. That is OpenSSL's CMS without signed attributes: it
 * hands the signer the content's digest, where RFC 9708 section 4 signs the
 * content itself (doc/design.md section 9). */
static int names_digest(const OSSL_PARAM params[])
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST);
    const char *md = NULL;
    return p != NULL && (!OSSL_PARAM_get_utf8_string_ptr(p, &md) || md[0] != '\0');
}

int stateful_ctx_set(FSP_SIGOPTS *o, const OSSL_PARAM params[])
{
    uint64_t v = 0, w = 0;
    int vas = 0;
    int r = get_batch(params, &v), rv = get_verify_after_sign(params, &vas);
    int rw = stateful_warn_parse(params, &w);
    if (names_digest(params))
        return FASTSIG_ERR_UNSUPPORTED;
    if (r < 0 || rv < 0 || rw < 0)
        return FASTSIG_ERR_BAD_PARAM;
    if (rw > 0) {
        o->warn_remaining = w;
        o->warn_set = 1;
    }
    if (r > 0)
        o->batch = v;
    if (rv > 0)
        o->verify_after_sign = vas;
    return FASTSIG_OK;
}

int stateful_ctx_get(const FSP_SIGOPTS *o, OSSL_PARAM params[])
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_BATCH);
    if (p != NULL && !OSSL_PARAM_set_uint64(p, o->batch))
        return FASTSIG_ERR_BAD_PARAM;
    p = OSSL_PARAM_locate(params, FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN);
    if (p != NULL && !OSSL_PARAM_set_int(p, o->verify_after_sign))
        return FASTSIG_ERR_BAD_PARAM;
    p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_WARN_REMAINING);
    if (p != NULL && o->warn_set && !OSSL_PARAM_set_uint64(p, o->warn_remaining))
        return FASTSIG_ERR_BAD_PARAM;
    return FASTSIG_OK;
}

int stateful_get_params(const void *key, OSSL_PARAM params[])
{
    const STATEFUL_KEY *x = key;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_BATCH)) != NULL
        && !OSSL_PARAM_set_uint64(p, __atomic_load_n(&x->batch, __ATOMIC_RELAXED)))
        return FASTSIG_ERR_BAD_PARAM;
    if ((p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_WARN_REMAINING)) != NULL
        && !OSSL_PARAM_set_uint64(p, stateful_warn_threshold(x, NULL)))
        return FASTSIG_ERR_BAD_PARAM;
    if ((p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_STATE)) != NULL && x->path != NULL
        && !OSSL_PARAM_set_utf8_string(p, x->path))
        return FASTSIG_ERR_BAD_PARAM;
    if ((p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_SHARD_RANGE)) != NULL) {
        char range[48];
        stateful_range_text(x, range, sizeof(range));
        if (!OSSL_PARAM_set_utf8_string(p, range))
            return FASTSIG_ERR_BAD_PARAM;
    }
    if ((p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_SHARD_ALIGN)) != NULL
        && !OSSL_PARAM_set_uint64(p, stateful_shard_align(x)))
        return FASTSIG_ERR_BAD_PARAM;
    return FASTSIG_OK;
}

/* SHARD_RANGE (and SHARD_STATE) set: carve (stateful_shard.c). */
static int set_shard(STATEFUL_KEY *x, const OSSL_PARAM params[], FSP_ERRDETAIL *detail)
{
    const OSSL_PARAM *r = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_SHARD_RANGE);
    const OSSL_PARAM *d = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_SHARD_STATE);
    const char *range = NULL, *state = NULL;

    if (r == NULL)
        return d == NULL ? FASTSIG_OK : FASTSIG_ERR_BAD_PARAM; /* a state for no shard */
    if (!OSSL_PARAM_get_utf8_string_ptr(r, &range)
        || (d != NULL && !OSSL_PARAM_get_utf8_string_ptr(d, &state)))
        return FASTSIG_ERR_BAD_PARAM;
    return stateful_shard(x, range, state, detail);
}

int stateful_set_params(void *key, const OSSL_PARAM params[], FSP_ERRDETAIL *detail)
{
    STATEFUL_KEY *x = key;
    uint64_t v = 0, w = 0;
    int r = get_batch(params, &v), rw = stateful_warn_parse(params, &w);
    if (r < 0 || rw < 0)
        return FASTSIG_ERR_BAD_PARAM;
    if (rw > 0) { /* read by stateful_sign, maybe in another thread */
        __atomic_store_n(&x->warn_remaining, w, __ATOMIC_RELAXED);
        __atomic_store_n(&x->warn_set, 1, __ATOMIC_RELEASE);
    }
    if (r > 0) /* read by stateful_sign at every signature, maybe in another thread */
        __atomic_store_n(&x->batch, v, __ATOMIC_RELAXED);
    return set_shard(x, params, detail);
}

int stateful_text(const void *key, int selection, BIO *out)
{
    const STATEFUL_KEY *x = key;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && x->path != NULL
        && BIO_printf(out, "state file: %s\n", x->path) <= 0)
        return FASTSIG_ERR_INTERNAL;
    /* a shard: its range (the state line above shows what is left of it) */
    uint64_t first, end, all = x->ops->max(x->core);
    char lines[1024];
    stateful_range(x, &first, &end);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && (first != 0 || end != all)
        && BIO_printf(out, "shard: indices %" PRIu64 " to %" PRIu64 " (%" PRIu64
                      " of the key's %" PRIu64 ")\n", first, end - 1, end - first, all) <= 0)
        return FASTSIG_ERR_INTERNAL;
    if (x->ops->text != NULL && (x->ops->text(x->core, lines, sizeof(lines)) != FASTSIG_OK
                                 || BIO_printf(out, "%s", lines) <= 0))
        return FASTSIG_ERR_INTERNAL;
    if (x->cache_err != FASTSIG_OK
        && BIO_printf(out, "node cache: not written (%s)\n", fastsig_strerror(x->cache_err)) <= 0)
        return FASTSIG_ERR_INTERNAL;
    return fsp_text_hex(out, "pub", x->pk, x->pklen) ? FASTSIG_OK : FASTSIG_ERR_INTERNAL;
}

