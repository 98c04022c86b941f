/* fuzz_verify.c - signature verification on attacker-chosen keys and
 * signatures. Input: BE16 key length || SubjectPublicKeyInfo DER || signature;
 * the message is fixed ("fuzz"), except that a first signature byte 0xFF
 * also tries the streaming path. Seeds hold valid keys and signatures. */
#include <openssl/evp.h>
#include <openssl/err.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    OSSL_LIB_CTX *libctx = fuzz_libctx();
    size_t klen;
    EVP_PKEY *k;
    EVP_MD_CTX *m;

    if (size < 2)
        return 0;
    klen = (size_t)data[0] << 8 | data[1];
    if (klen > size - 2)
        return 0;
    k = fuzz_spki(data + 2, klen);
    if (k != NULL) {
        const unsigned char *sig = data + 2 + klen;
        size_t siglen = size - 2 - klen;
        m = EVP_MD_CTX_new();
        if (EVP_DigestVerifyInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) == 1)
            fuzz_verify_msg(m, siglen > 0 && sig[0] == 0xFF, sig, siglen);
        EVP_MD_CTX_free(m);
        EVP_PKEY_free(k);
    }
    ERR_clear_error();
    return 0;
}
