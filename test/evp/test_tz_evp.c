/* test_tz_evp.c - the TZ digest through EVP only, with the provider loaded
 * by path as an application would load it. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/provider.h>
#include <openssl/core_names.h>
#include "testutil.h"
#include "fastsig/provider.h"
#include "evp_fixture.h"

static void test_load(void)
{
    evp_load(0);
    CU_ASSERT(OSSL_PROVIDER_available(libctx, "fastsig"));

    char *version = NULL, *buildinfo = NULL;
    int status = 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, &version, 0),
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, &buildinfo, 0),
        OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status),
        OSSL_PARAM_construct_end(),
    };
    CU_ASSERT(OSSL_PROVIDER_get_params(prov_fastsig, params));
    CU_ASSERT_PTR_NOT_NULL(version);
    CU_ASSERT_PTR_NOT_NULL(buildinfo);
    CU_ASSERT_EQUAL(status, 1);
}

static void test_fetch_names(void)
{
    static const char *names[] = { "TZ", "TILLICH-ZEMOR", "tz",
                                   "2.25.77497230020247565797983039438780865004.3" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        EVP_MD *md = EVP_MD_fetch(libctx, names[i], NULL);
        CU_ASSERT_PTR_NOT_NULL(md);
        if (md == NULL)
            continue;
        CU_ASSERT_STRING_EQUAL(EVP_MD_get0_name(md), "TZ");
        CU_ASSERT_EQUAL(EVP_MD_get_size(md), 64);
        CU_ASSERT_STRING_EQUAL(OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(md)), "fastsig");
        EVP_MD_free(md);
    }
    /* OID registered with the core */
    int nid = OBJ_txt2nid("2.25.77497230020247565797983039438780865004.3");
    CU_ASSERT_NOT_EQUAL(nid, NID_undef);
    if (nid != NID_undef)
        CU_ASSERT_STRING_EQUAL(OBJ_nid2sn(nid), "TZ");
}

static void test_default_libctx(void)
{
    /* EVP_MD_fetch(NULL, "TZ", NULL) after loading into the default context */
    CU_ASSERT(OSSL_PROVIDER_set_default_search_path(NULL, evp_module_dir()));
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(NULL, "fastsig");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    EVP_MD *md = EVP_MD_fetch(NULL, "TZ", NULL);
    CU_ASSERT_PTR_NOT_NULL(md);
    unsigned char out[64];
    unsigned int outl = 0;
    CU_ASSERT(EVP_Digest("abc", 3, out, &outl, md, NULL));
    CU_ASSERT_EQUAL(outl, 64);
    EVP_MD_free(md);
    OSSL_PROVIDER_unload(p);
}

struct vec {
    const char *spec_id;
    const char *hex;
};

static void digest_hex(const EVP_MD *md, const void *msg, size_t len, char hex[129])
{
    unsigned char out[64];
    unsigned int outl = 0;
    CU_ASSERT(EVP_Digest(msg, len, out, &outl, md, NULL));
    CU_ASSERT_EQUAL(outl, 64);
    fs_hex(out, 64, hex);
}

/* Every digest line whose input spec is hex: or ascii: or seq: (the large
 * patterns are covered by the unit tests and the CLI test). */
static void test_vectors(void)
{
    EVP_MD *md = EVP_MD_fetch(libctx, "TZ", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(md);
    FILE *f = fs_open_vector("tz/tzhash.txt");
    if (f == NULL) {
        EVP_MD_free(md);
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    int checked = 0;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        char *id = strtok(line, "\t"), *len = strtok(NULL, "\t"), *spec = strtok(NULL, "\t"),
             *want = strtok(NULL, "\t");
        if (id == NULL || id[0] == '#' || len == NULL || spec == NULL || want == NULL
            || strlen(want) != 128)
            continue;
        unsigned char *msg = NULL;
        size_t n = 0;
        if (strncmp(spec, "hex:", 4) == 0) {
            msg = spec[4] ? fs_unhex_alloc(spec + 4, &n) : calloc(1, 1);
        } else if (strncmp(spec, "ascii:", 6) == 0) {
            n = strlen(spec + 6);
            msg = (unsigned char *)strdup(spec + 6);
        } else if (strncmp(spec, "seq:", 4) == 0) {
            n = strtoul(spec + 4, NULL, 10);
            msg = malloc(n + 1);
            for (size_t i = 0; i < n; i++)
                msg[i] = (unsigned char)i;
        } else {
            continue;
        }
        char got[129];
        digest_hex(md, msg, n, got);
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "EVP TZ mismatch on %s\n", id);
            CU_FAIL("EVP TZ digest mismatch");
        }
        free(msg);
        checked++;
    }
    free(line);
    fclose(f);
    CU_ASSERT(checked >= 270);
    EVP_MD_free(md);
}

static void test_copy_reset_stream(void)
{
    EVP_MD *md = EVP_MD_fetch(libctx, "TZ", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(md);
    unsigned char msg[1000], whole[64], a[64], b[64];
    unsigned int l;
    fs_test_random(msg, sizeof(msg));
    CU_ASSERT(EVP_Digest(msg, sizeof(msg), whole, &l, md, NULL));

    EVP_MD_CTX *ctx = EVP_MD_CTX_new(), *copy = EVP_MD_CTX_new();
    CU_ASSERT(EVP_DigestInit_ex2(ctx, md, NULL));
    CU_ASSERT(EVP_DigestUpdate(ctx, msg, 333));
    CU_ASSERT(EVP_MD_CTX_copy_ex(copy, ctx)); /* dupctx */
    CU_ASSERT(EVP_DigestUpdate(ctx, msg + 333, sizeof(msg) - 333));
    CU_ASSERT(EVP_DigestUpdate(copy, msg + 333, sizeof(msg) - 333));
    CU_ASSERT(EVP_DigestFinal_ex(ctx, a, &l));
    CU_ASSERT(EVP_DigestFinal_ex(copy, b, &l));
    CU_ASSERT_EQUAL(memcmp(a, whole, 64), 0);
    CU_ASSERT_EQUAL(memcmp(b, whole, 64), 0);

    /* reset: init again after a partial update starts from scratch */
    CU_ASSERT(EVP_DigestInit_ex2(ctx, md, NULL));
    CU_ASSERT(EVP_DigestUpdate(ctx, "junk", 4));
    CU_ASSERT(EVP_DigestInit_ex2(ctx, NULL, NULL));
    for (size_t off = 0; off < sizeof(msg); off += 7)
        CU_ASSERT(EVP_DigestUpdate(ctx, msg + off, sizeof(msg) - off < 7 ? sizeof(msg) - off : 7));
    CU_ASSERT(EVP_DigestFinal_ex(ctx, a, &l));
    CU_ASSERT_EQUAL(memcmp(a, whole, 64), 0);

    /* EVP_MD_CTX_dup (3.1+) is not in 3.0; EVP_MD_CTX_copy covers dupctx */
    CU_ASSERT(EVP_DigestInit_ex2(ctx, md, NULL));
    CU_ASSERT(EVP_DigestUpdate(ctx, msg, 10));
    CU_ASSERT(EVP_MD_CTX_copy(copy, ctx));
    CU_ASSERT(EVP_DigestUpdate(copy, msg + 10, sizeof(msg) - 10));
    CU_ASSERT(EVP_DigestFinal(copy, b, &l));
    CU_ASSERT_EQUAL(memcmp(b, whole, 64), 0);

    EVP_MD_CTX_free(ctx);
    EVP_MD_CTX_free(copy);

    size_t blocksize = 0, size = 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, &blocksize),
        OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
        OSSL_PARAM_construct_end(),
    };
    CU_ASSERT(EVP_MD_get_params(md, params));
    CU_ASSERT_EQUAL(size, 64);
    CU_ASSERT_EQUAL(blocksize, 1);
    EVP_MD_free(md);
}

static void test_unload(void)
{
    evp_unload();
}

static const fs_test tests[] = {
    { "load by path, provider params", test_load },
    { "fetch by name, alias and OID", test_fetch_names },
    { "EVP_MD_fetch(NULL, \"TZ\", NULL)", test_default_libctx },
    { "tzhash vectors through EVP_Digest", test_vectors },
    { "copy, reset, streaming", test_copy_reset_stream },
    { "unload", test_unload },
    { NULL, NULL }
};

int main(void)
{
    const fs_suite suites[] = { { "tz-evp", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
