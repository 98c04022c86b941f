/* fuzz_decode_der.c - DER PrivateKeyInfo / SubjectPublicKeyInfo -> key
 * through OpenSSL's decoder chain (our der2key decoders for every row), and
 * whatever a decoded key then allows: text, params, re-encoding. */
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/x509.h>
#include "fuzz_common.h"

static void exercise(EVP_PKEY *k, int priv)
{
    BIO *null = BIO_new(BIO_s_null());
    unsigned char *der = NULL;
    int len;

    if (priv)
        EVP_PKEY_print_private(null, k, 0, NULL);
    EVP_PKEY_print_public(null, k, 0, NULL);
    EVP_PKEY_get_size(k);
    EVP_PKEY_get_bits(k);
    len = i2d_PUBKEY(k, &der);
    if (len > 0) { /* what we write, we read back as the same key */
        const unsigned char *p = der;
        EVP_PKEY *again = d2i_PUBKEY_ex(NULL, &p, len, fuzz_libctx(), NULL);
        if (again == NULL || EVP_PKEY_eq(again, k) != 1)
            abort();
        EVP_PKEY_free(again);
    }
    OPENSSL_free(der);
    BIO_free(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *structs[] = { "PrivateKeyInfo", "SubjectPublicKeyInfo" };
    OSSL_LIB_CTX *libctx = fuzz_libctx();

    for (int s = 0; s < 2; s++) {
        EVP_PKEY *k = NULL;
        const unsigned char *p = data;
        size_t len = size;
        int sel = s == 0 ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
        OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&k, "DER", structs[s], NULL, sel,
                                                            libctx, NULL);
        if (d != NULL && OSSL_DECODER_from_data(d, &p, &len) && k != NULL)
            exercise(k, s == 0);
        EVP_PKEY_free(k);
        OSSL_DECODER_CTX_free(d);
    }
    ERR_clear_error();
    return 0;
}
