/* fuzz_common.c - provider loading and key cache for the fuzz targets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/decoder.h>
#include <openssl/provider.h>
#include "fuzz_common.h"

#ifdef FUZZ_BUILTIN
/* libFuzzer build: the provider is linked in, registered as a built-in. */
#include <openssl/core.h>
#include "state/statefile_hook.h"
OSSL_provider_init_fn OSSL_provider_init;

/* A private key names its state file: a decoded one must not open it (an
 * input could name any file, and a real state would cost a lock and a sync
 * per input). The state file parser has its own target. */
static int no_state_files(enum fs_state_io_op op)
{
    return op == FS_STATE_IO_OPEN ? EACCES : 0;
}
#endif

static OSSL_LIB_CTX *libctx;
static const char *algs[8];

OSSL_LIB_CTX *fuzz_libctx(void)
{
    static const char *const all[] = { "RW", "RW-P1363", "WOTSP", "XMSS", "XMSSMT" };
    const char *dir = getenv("FASTSIG_MODULE_DIR");
    size_t n = 0;

    if (libctx != NULL)
        return libctx;
    libctx = OSSL_LIB_CTX_new();
#ifdef FUZZ_BUILTIN
    fs_state_io_hook = no_state_files;
    if (libctx != NULL)
        OSSL_PROVIDER_add_builtin(libctx, "fastsig", OSSL_provider_init);
#endif
    if (libctx == NULL || !OSSL_PROVIDER_set_default_search_path(libctx, dir ? dir : ".")
        || OSSL_PROVIDER_load(libctx, "fastsig") == NULL
        || OSSL_PROVIDER_load(libctx, "default") == NULL) {
        fprintf(stderr, "fuzz: cannot load fastsig from %s (set FASTSIG_MODULE_DIR)\n",
                dir ? dir : ".");
        abort();
    }
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(libctx, all[i], NULL);
        if (km != NULL)
            algs[n++] = all[i];
        EVP_KEYMGMT_free(km);
    }
    ERR_clear_error();
    return libctx;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_libctx();
    return 0;
}

const char *const *fuzz_algorithms(void)
{
    fuzz_libctx();
    return algs;
}

EVP_PKEY *fuzz_spki(const uint8_t *der, size_t len)
{
    /* one decoder chain for every input (building one costs more than most
     * decodes), of our decoders only: the keys under test are ours */
    static OSSL_DECODER_CTX *dec;
    static EVP_PKEY *key;
    const unsigned char *p = der;
    size_t left = len;
    EVP_PKEY *k;

    if (dec == NULL
        && (dec = OSSL_DECODER_CTX_new_for_pkey(&key, "DER", "SubjectPublicKeyInfo", NULL,
                                                EVP_PKEY_PUBLIC_KEY, fuzz_libctx(),
                                                "provider=fastsig"))
               == NULL)
        abort();
    key = NULL;
    OSSL_DECODER_from_data(dec, &p, &left);
    k = key;
    key = NULL;
    return k;
}

void fuzz_verify_msg(EVP_MD_CTX *m, int streamed, const uint8_t *sig, size_t siglen)
{
    if (streamed) {
        EVP_DigestVerifyUpdate(m, FUZZ_MSG, 2);
        EVP_DigestVerifyUpdate(m, (const unsigned char *)FUZZ_MSG + 2, FUZZ_MSG_LEN - 2);
        EVP_DigestVerifyFinal(m, sig, siglen);
    } else {
        EVP_DigestVerify(m, sig, siglen, (const unsigned char *)FUZZ_MSG, FUZZ_MSG_LEN);
    }
}
