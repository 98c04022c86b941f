/* fuzz_decode_der.c - DER PrivateKeyInfo / SubjectPublicKeyInfo -> key
 * through OpenSSL's decoder chain (our der2key decoders for every row), and
 * whatever a decoded key then allows: text, params, re-encoding. */
#include <stdlib.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include "fuzz_common.h"

/* Our encoders only ("provider=fastsig"): the default provider's would each
 * be tried per key and cost more than the rest. */
static void encode(EVP_PKEY *k, int sel, const char *type, const char *structure,
                   unsigned char **out, size_t *len)
{
    OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(k, sel, type, structure,
                                                        "provider=fastsig");
    *out = NULL;
    *len = 0;
    if (e != NULL && !OSSL_ENCODER_to_data(e, out, len)) {
        *out = NULL;
        *len = 0;
    }
    OSSL_ENCODER_CTX_free(e);
}

static void exercise(EVP_PKEY *k, int priv)
{
    unsigned char *der;
    size_t len;

    encode(k, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, "TEXT", NULL, &der, &len);
    OPENSSL_free(der);
    EVP_PKEY_get_size(k);
    EVP_PKEY_get_bits(k);
    encode(k, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", &der, &len);
    if (len > 0) { /* what we write, we read back as the same key */
        EVP_PKEY *again = fuzz_spki(der, len);
        if (again == NULL || EVP_PKEY_eq(again, k) != 1)
            abort();
        EVP_PKEY_free(again);
    }
    OPENSSL_free(der);
}

/* Which structures to try: a PrivateKeyInfo's first element is an INTEGER
 * (the version), a SubjectPublicKeyInfo's a SEQUENCE. Where that cannot be
 * read (a broken outer header), both: each chain costs as much as the rest
 * of an input's work. Bit 0: PrivateKeyInfo, bit 1: SubjectPublicKeyInfo. */
static int structures(const uint8_t *d, size_t n)
{
    size_t at = 2;
    if (n < 3 || d[0] != 0x30)
        return 3;
    if (d[1] & 0x80)
        at += d[1] & 0x7f;
    if (at >= n)
        return 3;
    return d[at] == 0x02 ? 1 : d[at] == 0x30 ? 2 : 3;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *structs[] = { "PrivateKeyInfo", "SubjectPublicKeyInfo" };
    /* one decoder chain per structure for every input (building one costs
     * far more than a decode), of our decoders only (the default provider's
     * would try every input first) */
    static OSSL_DECODER_CTX *dec[2];
    static EVP_PKEY *out[2];
    int which = structures(data, size);

    for (int s = 0; s < 2; s++) {
        const unsigned char *p = data;
        size_t len = size;
        int sel = s == 0 ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
        if (!(which & (1 << s)))
            continue;
        if (dec[s] == NULL
            && (dec[s] = OSSL_DECODER_CTX_new_for_pkey(&out[s], "DER", structs[s], NULL, sel,
                                                       fuzz_libctx(), "provider=fastsig"))
                   == NULL)
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
