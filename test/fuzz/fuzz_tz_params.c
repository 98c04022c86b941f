/* fuzz_tz_params.c - the TZ digest's settable state: "tz-prefix" (a prior
 * digest to continue from) with attacker-chosen bytes, then hashing, and
 * "tz-state" read back and imported into a second context.
 * Input: 64-byte prefix || split byte || message. Whenever the prefix is
 * accepted, the state read after the message's first part must be accepted
 * as a prefix too, and continuing from it must give the digest of the whole
 * (aborts otherwise). */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include "fastsig/provider.h"
#include "fastsig/tz.h"
#include "fuzz_common.h"

static EVP_MD *tz_md(void)
{
    static EVP_MD *md;
    if (md == NULL && (md = EVP_MD_fetch(fuzz_libctx(), FASTSIG_MD_TZ, NULL)) == NULL)
        abort();
    return md;
}

/* A context continuing from prefix (64 bytes); NULL when refused. */
static EVP_MD_CTX *from_prefix(const uint8_t *prefix)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    OSSL_PARAM ps[2] = {
        OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_PREFIX, (void *)prefix,
                                          TZ_DIGEST_SIZE),
        OSSL_PARAM_construct_end()
    };
    if (c != NULL && EVP_DigestInit_ex2(c, tz_md(), ps) == 1)
        return c;
    EVP_MD_CTX_free(c);
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t state[TZ_DIGEST_SIZE], whole[TZ_DIGEST_SIZE], rest[TZ_DIGEST_SIZE];
    unsigned int len;
    size_t mlen, cut;
    const uint8_t *m;
    EVP_MD_CTX *a, *b;

    if (size < TZ_DIGEST_SIZE + 1)
        return 0;
    m = data + TZ_DIGEST_SIZE + 1;
    mlen = size - TZ_DIGEST_SIZE - 1;
    cut = mlen ? data[TZ_DIGEST_SIZE] % (mlen + 1) : 0;
    if ((a = from_prefix(data)) == NULL) {
        ERR_clear_error();
        return 0;
    }
    OSSL_PARAM get[2] = {
        OSSL_PARAM_construct_octet_string(FASTSIG_DIGEST_PARAM_TZ_STATE, state, sizeof(state)),
        OSSL_PARAM_construct_end()
    };
    if (EVP_DigestUpdate(a, m, cut) != 1 || EVP_MD_CTX_get_params(a, get) != 1)
        abort();
    /* an accepted prefix is in SL2, so is every state after it: accepted too */
    if ((b = from_prefix(state)) == NULL || EVP_DigestUpdate(a, m + cut, mlen - cut) != 1
        || EVP_DigestFinal_ex(a, whole, &len) != 1
        || EVP_DigestUpdate(b, m + cut, mlen - cut) != 1
        || EVP_DigestFinal_ex(b, rest, &len) != 1 || memcmp(whole, rest, sizeof(whole)) != 0)
        abort();
    EVP_MD_CTX_free(b);
    EVP_MD_CTX_free(a);
    ERR_clear_error();
    return 0;
}
