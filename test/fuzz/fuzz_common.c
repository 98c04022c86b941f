/* fuzz_common.c - provider loading for the fuzz targets. */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include "fuzz_common.h"

#ifdef FUZZ_BUILTIN
/* libFuzzer build: the provider is linked in, registered as a built-in. */
#include <openssl/core.h>
OSSL_provider_init_fn OSSL_provider_init;
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

const char *const *fuzz_algorithms(void)
{
    fuzz_libctx();
    return algs;
}
