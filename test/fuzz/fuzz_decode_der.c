/* fuzz_decode_der.c - DER PrivateKeyInfo / SubjectPublicKeyInfo -> key
 * through OpenSSL's decoder chain (our der2key decoders for every row), and
 * whatever a decoded key then allows: text, params, re-encoding. */
#include <stdlib.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/decoder.h>
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
        EVP_PKEY *again = fuzz_spki(der, (size_t)len);
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
    /* one decoder chain per structure for every input: building one costs
     * far more than a decode */
    static OSSL_DECODER_CTX *dec[2];
    static EVP_PKEY *out[2];

    for (int s = 0; s < 2; s++) {
        const unsigned char *p = data;
        size_t len = size;
        int sel = s == 0 ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
        if (dec[s] == NULL
            && (dec[s] = OSSL_DECODER_CTX_new_for_pkey(&out[s], "DER", structs[s], NULL, sel,
                                                       fuzz_libctx(), NULL)) == NULL)
            abort();
        out[s] = NULL;
        if (OSSL_DECODER_from_data(dec[s], &p, &len) && out[s] != NULL)
            exercise(out[s], s == 0);
        EVP_PKEY_free(out[s]);
        out[s] = NULL;
    }
    ERR_clear_error();
    return 0;
}
