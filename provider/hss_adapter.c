/* hss_adapter.c - the HSS row's adapter (and the LMS row's, lms_adapter.c): crypto/lms HSS keys
 * behind the stateful contract (lms/hss_stateful.c) in the key object of
 * the stateful rows (stateful_key.h), so that the state file, its locking,
 * reservation blocks, exhaustion and node cache are XMSS's.
 *
 * Parameters: `param:` names the levels top first, each as its LMS set and
 * its LM-OTS set joined by '/', levels joined by ','
 * (LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4).
 * `seed:` is SEED (n bytes) then I (16 bytes) of the top tree.
 *
 * Public key: the RFC 8554 HSS encoding (hss.h), as it is (on import also
 * RFC 8708's wrapped form, and bare LMS signatures verify: hss_compat.c). Private key
 * core: hss_stateful.c (then stateful_key.h's framing: state path, and a
 * shard's range of global HSS indices). The signing core is made at the
 * first signature (from the node cache file when it checks, else built; a
 * shard's with the lower trees of its first index) and its public key
 * checked against it. */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "stateful_key.h"
#include "hss_compat.h"
#include "stateful_kinds.h"
#include "prov.h"
#include "fastsig_err.h"
#include "set_suggest.h"
#include "fastsig/provider.h"

#define HSS_DEFAULT_PARAM "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4"
#define HSS_SPEC_MAX (LMS_MAX_LEVELS * 48)

/* Fills d with why level i of a param: spec was refused, for the error the
 * generation raises: FASTSIG_ERR_UNSUPPORTED. */
static int spec_why(const char *spec, unsigned i, const char *level, const char *why,
                    FSP_ERRDETAIL *d)
{
    char msg[512];
    snprintf(msg, sizeof(msg), "level %u (%s): %s", i + 1, level, why);
    fsp_detail_file(d, FASTSIG_ERR_UNSUPPORTED, "parameter set", spec, 0, msg);
    return FASTSIG_ERR_UNSUPPORTED;
}

/* A level's LMS or LM-OTS set name that is none: refused, naming the nearest. */
static int unknown_set(const char *spec, unsigned i, const char *name, fs_set_table t,
                       FSP_ERRDETAIL *d)
{
    char near[160], why[300];
    fs_sets_nearest(t, name, near, sizeof(near));
    snprintf(why, sizeof(why), "not an %s set name (nearest: %s; fastsig-keytool list shows all)",
             t == FS_SETS_LMS ? "LMS" : "LM-OTS", near);
    return spec_why(spec, i, name, why, d);
}

/* The param: syntax above into an empty core of those levels. */
static int parse_levels(const char *spec, void **core, FSP_ERRDETAIL *d)
{
    char buf[HSS_SPEC_MAX], *save = NULL, *lv, level[64];
    lms_params lms[LMS_MAX_LEVELS];
    lmots_params ots[LMS_MAX_LEVELS];
    unsigned L = 0, bad = 0;
    size_t len = strlen(spec);
    /* strtok_r skips empty fields: a stray ',' is refused here instead */
    const char *why = len >= sizeof(buf) ? "too long for 8 levels"
                      : len == 0 || spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,")
                          ? "an empty level (levels are joined by one ',')"
                          : NULL;
    if (why != NULL) {
        fsp_detail_file(d, FASTSIG_ERR_UNSUPPORTED, "parameter set", spec, 0, why);
        return FASTSIG_ERR_UNSUPPORTED;
    }
    strcpy(buf, spec);
    for (lv = strtok_r(buf, ",", &save); lv != NULL; lv = strtok_r(NULL, ",", &save)) {
        char *slash = strchr(lv, '/');
        if (L == LMS_MAX_LEVELS)
            return spec_why(spec, L, lv, "HSS has at most 8 levels", d);
        if (slash == NULL || strchr(slash + 1, '/') != NULL)
            return spec_why(spec, L, lv, "not one 'LMS set/LM-OTS set'", d);
        *slash = '\0';
        if (lms_params_by_name(&lms[L], lv) != FASTSIG_OK)
            return unknown_set(spec, L, lv, FS_SETS_LMS, d);
        if (lmots_params_by_name(&ots[L], slash + 1) != FASTSIG_OK)
            return unknown_set(spec, L, slash + 1, FS_SETS_LMOTS, d);
        L++;
    }
    int err = fs_stateful_hss_new(L, lms, ots, &bad, &why, core);
    if (why != NULL) {
        snprintf(level, sizeof(level), "%s/%s", lms[bad].name, ots[bad].name);
        return spec_why(spec, bad, level, why, d);
    }
    return err;
}

static int hss_gen(const FSP_SIGALG *alg, const FSP_GENOPTS *o, void **key)
{
    uint8_t seed[LMS_MAX_N + LMS_I_BYTES];
    STATEFUL_KEY *x;
    void *core;
    size_t slen;
    int err;

    if (o->mode != NULL || o->bits != 0
        || parse_levels(o->param != NULL ? o->param : HSS_DEFAULT_PARAM, &core, o->detail) != FASTSIG_OK)
        return FASTSIG_ERR_UNSUPPORTED;
    if ((x = stateful_new(&fs_stateful_hss, core)) == NULL)
        return FASTSIG_ERR_NOMEM;
    slen = x->ops->n(core) + LMS_I_BYTES;
    if (o->seed != NULL) {
        err = o->seedlen == slen ? FASTSIG_OK : FASTSIG_ERR_BAD_LENGTH;
        if (err == FASTSIG_OK)
            memcpy(seed, o->seed, slen);
    } else {
        err = o->rng(o->rng_arg, seed, slen) ? FASTSIG_OK : FASTSIG_ERR_RNG;
    }
    if (err != FASTSIG_OK) {
        OPENSSL_cleanse(seed, sizeof(seed));
        stateful_free(x);
        return err;
    }
    return stateful_gen_resumable(x, o, seed, slen, fs_stateful_hss_resume_plan,
                                  fs_stateful_hss_keygen_resume, key);
}

static int hss_priv_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                           void **key, FSP_ERRDETAIL *d)
{
    return stateful_priv_decode(&fs_stateful_hss, in, len, key, d);
}

static int hss_pub_decode(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                          void **key)
{
    hss_compat_unwrap_pub(&in, &len); /* RFC 8708's form, on import only */
    return stateful_pub_decode(&fs_stateful_hss, in, len, key);
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_uint(FASTSIG_PKEY_PARAM_THREADS, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_RESUME, NULL, 0),
    OSSL_PARAM_END
};

const FSP_ADAPTER fsp_hss_adapter = {
    .gen = hss_gen, .pub_decode = hss_pub_decode, .priv_decode = hss_priv_decode,
    .gen_settable = gen_settable, .verify = hss_compat_verify, STATEFUL_HOOKS_BUT_VERIFY
};
