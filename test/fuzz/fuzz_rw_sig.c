/* fuzz_rw_sig.c - Rabin-Williams verification in every form the provider
 * verifies: RW compact and expanded signatures, exact and probabilistic
 * checks, RW-P1363 over SHA-1 and SHA-256, of the message or of its digest
 * (EVP_PKEY_verify), one-shot or streamed.
 * Input: mode byte || BE16 key length || SubjectPublicKeyInfo DER ||
 * signature, on the fixed message "fuzz". Mode bits: 1 streamed, 2
 * rw-verify probabilistic, 4 rw-format expanded (RW) / SHA-1 (RW-P1363),
 * 8 digest given instead of the message (EVP_PKEY_verify). Seeds: valid
 * signatures in each form (make_corpus.sh). */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include "fastsig/provider.h"
#include "fuzz_common.h"

enum { STREAM = 1, PROBABILISTIC = 2, ALT_FORMAT = 4, PREHASHED = 8 };

static void set_params(EVP_PKEY_CTX *pc, int mode, int p1363)
{
    OSSL_PARAM ps[4], *p = ps;
    if (p1363)
        *p++ = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
                                                (char *)(mode & ALT_FORMAT ? "SHA1" : "SHA256"),
                                                0);
    else
        *p++ = OSSL_PARAM_construct_utf8_string(FASTSIG_SIG_PARAM_RW_FORMAT,
                                                (char *)(mode & ALT_FORMAT ? "expanded"
                                                                           : "compact"), 0);
    *p++ = OSSL_PARAM_construct_utf8_string(FASTSIG_SIG_PARAM_RW_VERIFY,
                                            (char *)(mode & PROBABILISTIC ? "probabilistic"
                                                                          : "exact"), 0);
    *p = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX_set_params(pc, ps);
}

/* EVP_PKEY_verify of the message's digest (RW-P1363 only takes one). */
static void verify_digest(EVP_PKEY *k, int mode, const uint8_t *sig, size_t siglen)
{
    const char *md = mode & ALT_FORMAT ? "SHA1" : "SHA256";
    unsigned char dg[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(fuzz_libctx(), k, NULL);
    EVP_MD *m = EVP_MD_fetch(fuzz_libctx(), md, NULL);

    if (pc != NULL && m != NULL && EVP_Digest(FUZZ_MSG, FUZZ_MSG_LEN, dg, &dlen, m, NULL)
        && EVP_PKEY_verify_init(pc) == 1) {
        set_params(pc, mode, EVP_PKEY_is_a(k, "RW-P1363"));
        EVP_PKEY_verify(pc, sig, siglen, dg, dlen);
    }
    EVP_MD_free(m);
    EVP_PKEY_CTX_free(pc);
}

static void verify_message(EVP_PKEY *k, int mode, const uint8_t *sig, size_t siglen)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;

    if (m != NULL && EVP_DigestVerifyInit_ex(m, &pc, NULL, fuzz_libctx(), NULL, k, NULL) == 1) {
        set_params(pc, mode, EVP_PKEY_is_a(k, "RW-P1363"));
        fuzz_verify_msg(m, mode & STREAM, sig, siglen);
    }
    EVP_MD_CTX_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t klen;
    EVP_PKEY *k;
    int mode;

    if (size < 3)
        return 0;
    mode = data[0];
    klen = (size_t)data[1] << 8 | data[2];
    if (klen > size - 3)
        return 0;
    k = fuzz_spki(data + 3, klen);
    if (k != NULL && (EVP_PKEY_is_a(k, "RW") || EVP_PKEY_is_a(k, "RW-P1363"))) {
        if (mode & PREHASHED)
            verify_digest(k, mode, data + 3 + klen, size - 3 - klen);
        else
            verify_message(k, mode, data + 3 + klen, size - 3 - klen);
    }
    EVP_PKEY_free(k);
    ERR_clear_error();
    return 0;
}
