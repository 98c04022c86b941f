/* fuzz_decode_pem.c - PEM (plain and encrypted PKCS#8, SPKI) -> key through
 * the application APIs: PEM -> DER and decryption are the default
 * provider's, the key decoders ours. Passphrase "fuzz". */
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    OSSL_LIB_CTX *libctx = fuzz_libctx();
    BIO *b;
    EVP_PKEY *k;

    if (size > 1 << 16)
        return 0;
    b = BIO_new_mem_buf(data, (int)size);
    k = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, (void *)"fuzz", libctx, NULL);
    EVP_PKEY_free(k);
    BIO_free(b);
    b = BIO_new_mem_buf(data, (int)size);
    k = PEM_read_bio_PUBKEY_ex(b, NULL, NULL, NULL, libctx, NULL);
    EVP_PKEY_free(k);
    BIO_free(b);
    ERR_clear_error();
    return 0;
}
