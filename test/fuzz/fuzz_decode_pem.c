/* fuzz_decode_pem.c - PEM (plain and encrypted PKCS#8, SPKI) -> key through
 * OpenSSL's decoder chain: PEM -> DER and decryption are the default
 * provider's, the key decoders ours. Passphrase "fuzz" (the seeds use one
 * PBKDF2 iteration, so that the key derivation does not eat the time). */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/decoder.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* private key (any structure), public key: one chain each, built once */
    static OSSL_DECODER_CTX *dec[2];
    static EVP_PKEY *out[2];

    if (size > 1 << 16)
        return 0;
    for (int s = 0; s < 2; s++) {
        const unsigned char *p = data;
        size_t len = size;
        if (dec[s] == NULL) {
            dec[s] = OSSL_DECODER_CTX_new_for_pkey(&out[s], "PEM", NULL, NULL,
                                                   s == 0 ? EVP_PKEY_KEYPAIR
                                                          : EVP_PKEY_PUBLIC_KEY,
                                                   fuzz_libctx(), NULL);
            if (dec[s] == NULL
                || !OSSL_DECODER_CTX_set_passphrase(dec[s], (const unsigned char *)"fuzz", 4))
                abort();
        }
        out[s] = NULL;
        OSSL_DECODER_from_data(dec[s], &p, &len);
        EVP_PKEY_free(out[s]);
        out[s] = NULL;
    }
    ERR_clear_error();
    return 0;
}
