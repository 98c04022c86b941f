/* keytool_keyinfo.c - what `fastsig-keytool state` needs of a key: its key
 * id, parameter set, state path and range (through the provider's key
 * parameters, so encrypted PEM keys work), and the index a signature of
 * that parameter set was made with (keytool_state.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "keytool_keyio.h"
#include "keytool_statecmd.h"
#include "lms/lms_params.h"
#include "xmss/params.h"
#include "xmss/xmss_hash.h"

/* A public key PEM (BEGIN PUBLIC KEY), else NULL without a message. */
static EVP_PKEY *load_public(const char *path)
{
    BIO *bio = BIO_new_file(path, "r");
    char line[128];
    EVP_PKEY *k = NULL;
    if (bio == NULL)
        return NULL;
    while (BIO_gets(bio, line, sizeof(line)) > 0)
        if (strstr(line, "-----BEGIN PUBLIC KEY-----") != NULL) {
            (void)BIO_reset(bio);
            k = PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, NULL, NULL);
            break;
        }
    BIO_free(bio);
    return k;
}

/* The private key's state path and range ("A-B"). */
static int private_facts(EVP_PKEY *k, KT_KEYINFO *ki)
{
    char range[64] = "";
    OSSL_PARAM p[] = {
        OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, ki->state, sizeof(ki->state)),
        OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, range, sizeof(range)),
        OSSL_PARAM_END
    };
    return EVP_PKEY_get_params(k, p) == 1
           && sscanf(range, "%" SCNu64 "-%" SCNu64, &ki->first, &ki->end) == 2;
}

int kt_key_info(const KT_STATE_OPTS *o, KT_KEYINFO *ki)
{
    KT_PASSIN in = { .known = o->passin != NULL };
    uint8_t pk[512];
    size_t pklen = 0;
    EVP_PKEY *k = load_public(o->in);
    int ok = 0;

    memset(ki, 0, sizeof(*ki));
    if (k == NULL) {
        if (o->passin != NULL && !kt_read_pass(o->passin, in.pass, sizeof(in.pass)))
            return 0;
        k = kt_load_key(o->in, &in);
        OPENSSL_cleanse(&in, sizeof(in));
        if (k == NULL)
            return 0;
        ki->is_private = 1;
    }
    if (EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, pk, sizeof(pk), &pklen) != 1
        || EVP_PKEY_get_utf8_string_param(k, FASTSIG_PKEY_PARAM_PARAM, ki->param,
                                          sizeof(ki->param), NULL) != 1
        || xmss_key_id(pk, pklen, ki->key_id) != FASTSIG_OK
        || (ki->is_private && !private_facts(k, ki)))
        kt_die_ssl("not a key of XMSS, XMSS^MT or HSS (no state to go with it)");
    else
        ok = 1;
    EVP_PKEY_free(k);
    if (!ok)
        fprintf(stderr, "fastsig-keytool: %s: not usable here\n", o->in);
    return ok;
}

static uint64_t be(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* HSS, RFC 8554: u32(L - 1), then per level top first its LMS signature
 * (q first) and, below the top, the level's public key before it. The
 * length must be exactly that (a stray file is no signature). */
static int hss_index(const char *param, const uint8_t *s, size_t len, uint64_t *idx)
{
    char buf[512], *save = NULL, *lv;
    lms_params lp[8];
    lmots_params op[8];
    unsigned L = 0;
    size_t off = 4;
    uint64_t v = 0;

    if (strlen(param) >= sizeof(buf) || len < 4)
        return 0;
    strcpy(buf, param);
    for (lv = strtok_r(buf, ",", &save); lv != NULL; lv = strtok_r(NULL, ",", &save)) {
        char *slash = strchr(lv, '/');
        if (slash == NULL || L == 8)
            return 0;
        *slash = '\0';
        if (lms_params_by_name(&lp[L], lv) != FASTSIG_OK
            || lmots_params_by_name(&op[L], slash + 1) != FASTSIG_OK)
            return 0;
        L++;
    }
    if (L == 0 || be(s, 4) + 1 != L)
        return 0;
    for (unsigned i = 0; i < L; i++) {
        if (i > 0)
            off += lms_pub_bytes(&lp[i]);
        if (off > len || len - off < lms_sig_bytes(&lp[i], &op[i]))
            return 0;
        v = v << lp[i].h | be(s + off, 4);
        off += lms_sig_bytes(&lp[i], &op[i]);
    }
    *idx = v;
    return off == len;
}

int kt_sig_index(const char *param, const char *sig, uint64_t *idx)
{
    enum { SIG_MAX = 1 << 20 }; /* eight H25 W1 levels: 80 KB */
    uint8_t *s = malloc(SIG_MAX);
    FILE *f = fopen(sig, "rb");
    size_t len;
    const xmss_params *xp = xmss_params_by_name(param);
    int ok;

    if (f == NULL || s == NULL) {
        fprintf(stderr, "fastsig-keytool: cannot read %s: %s\n", sig, strerror(errno));
        if (f != NULL)
            fclose(f);
        free(s);
        return 0;
    }
    len = fread(s, 1, SIG_MAX, f);
    fclose(f);
    if (xp != NULL)
        ok = xp->idx_bytes > 0 && len == xmss_sig_bytes(xp) && (*idx = be(s, xp->idx_bytes), 1);
    else
        ok = hss_index(param, s, len, idx);
    free(s);
    if (!ok)
        fprintf(stderr, "fastsig-keytool: %s: not a signature of %s (too short or malformed)\n",
                sig, param);
    return ok;
}
