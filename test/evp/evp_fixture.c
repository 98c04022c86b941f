/* evp_fixture.c - see evp_fixture.h. */
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"

OSSL_LIB_CTX *libctx;
OSSL_PROVIDER *prov_fastsig, *prov_default;
static char default_state_dir[512];

const char *evp_module_dir(void)
{
    const char *d = getenv("FASTSIG_MODULE_DIR");
    return d ? d : ".";
}

void evp_load(int with_default)
{
    evp_load_order(with_default, 0);
}

void evp_load_order(int with_default, int default_first)
{
    /* The default state directory holds the key-id registry: a scratch one,
     * so that a run leaves the user's alone and the next run can generate
     * the same known-answer keys again. */
    const char *tmp = getenv("TMPDIR");
    snprintf(default_state_dir, sizeof(default_state_dir), "%s/fastsig-evp-XXXXXX",
             tmp && tmp[0] ? tmp : "/tmp");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(default_state_dir));
    CU_ASSERT_EQUAL_FATAL(setenv("FASTSIG_STATE_DIR", default_state_dir, 1), 0);
    libctx = OSSL_LIB_CTX_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(libctx);
    CU_ASSERT(OSSL_PROVIDER_set_default_search_path(libctx, evp_module_dir()));
    if (with_default && default_first)
        CU_ASSERT_PTR_NOT_NULL_FATAL(prov_default = OSSL_PROVIDER_load(libctx, "default"));
    prov_fastsig = OSSL_PROVIDER_load(libctx, FASTSIG_PROVIDER_NAME);
    if (prov_fastsig == NULL)
        fprintf(stderr, "could not load fastsig from %s\n", evp_module_dir());
    CU_ASSERT_PTR_NOT_NULL_FATAL(prov_fastsig);
    if (with_default && !default_first)
        CU_ASSERT_PTR_NOT_NULL_FATAL(prov_default = OSSL_PROVIDER_load(libctx, "default"));
}

uint64_t evp_remaining(EVP_PKEY *k)
{
    uint64_t r = 0;
    OSSL_PARAM p[] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_REMAINING, &r),
                       OSSL_PARAM_construct_end() };
    return EVP_PKEY_get_params(k, p) ? r : 0;
}

void evp_unload(void)
{
    /* unload first: on OpenSSL 3.0 freeing the context with the providers
     * still loaded leaks the provider's child DRBG (LeakSanitizer) */
    CU_ASSERT(OSSL_PROVIDER_unload(prov_fastsig));
    if (prov_default != NULL)
        CU_ASSERT(OSSL_PROVIDER_unload(prov_default));
    prov_fastsig = prov_default = NULL;
    OSSL_LIB_CTX_free(libctx);
    libctx = NULL;
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", default_state_dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    unsetenv("FASTSIG_STATE_DIR");
}
