/* test_registry_evp.c - the key-id registry through EVP key generation:
 * one seed gets one state, under every parameter set of its family. The
 * one-time keys of XMSS, XMSS^MT and WOTSP depend only on SK_SEED, PUB_SEED
 * and the address (LMS and HSS: SEED, I and the address), not on the set,
 * whose change gives another key id: the seed's fingerprint is registered
 * too, and a second key of the seed is refused at once, naming the first
 * key's state. Shards of the first key are no second key. All generations
 * share one default state directory (one machine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "testutil.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"

static char state_dir[600];

/* The fixture's default state directory, emptied: the machine of a test. */
static void fresh_machine(void)
{
    const char *d = getenv("FASTSIG_STATE_DIR");
    char cmd[700];
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    snprintf(state_dir, sizeof(state_dir), "%s", d);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", state_dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Generates alg / param from seedhex with state <state dir>/<name>.state
 * (path: out); NULL with the error message in why when refused. */
static EVP_PKEY *gen(const char *alg, const char *param, const char *seedhex, const char *name,
                     char *path, size_t pathlen, char *why, size_t whylen)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    EVP_PKEY *k = NULL;
    const char *data = NULL;
    int flags = 0;
    snprintf(path, pathlen, "%s/%s.state", state_dir, name);
    OSSL_PARAM prm[] = {
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)param, 0),
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SEED, (char *)seedhex, 0),
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, path, 0),
        OSSL_PARAM_construct_end(),
    };
    why[0] = '\0';
    ERR_clear_error();
    if (c == NULL || EVP_PKEY_keygen_init(c) <= 0 || !EVP_PKEY_CTX_set_params(c, prm)
        || EVP_PKEY_generate(c, &k) <= 0) {
        unsigned long e = ERR_peek_last_error_data(&data, &flags);
        snprintf(why, whylen, "%d %s", ERR_GET_REASON(e),
                 data != NULL && (flags & ERR_TXT_STRING) ? data : "");
        k = NULL;
    }
    ERR_clear_error();
    EVP_PKEY_CTX_free(c);
    return k;
}

/* rows[0] is generated from seedhex; every later row with the same seed is
 * refused with STATE_REGISTERED, naming rows[0]'s state and the seed's
 * registry entry, and makes no state; a fresh seed under the last row is
 * still generated. */
typedef struct {
    const char *alg, *param;
} gen_row;

static void check_one_seed(const gen_row *rows, size_t n, const char *seedhex,
                           const char *other_seedhex)
{
    char first[700], path[700], why[8192], want[2048];
    struct stat sb;
    EVP_PKEY *k = gen(rows[0].alg, rows[0].param, seedhex, "first", first, sizeof(first), why,
                      sizeof(why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    EVP_PKEY_free(k);
    snprintf(want, sizeof(want), "%d state file %s: holds this seed's one-time keys (registry "
             "entry %s/registry/", FASTSIG_ERR_STATE_REGISTERED, first, state_dir);
    for (size_t i = 1; i < n; i++) {
        char name[16];
        snprintf(name, sizeof(name), "again%zu", i);
        k = gen(rows[i].alg, rows[i].param, seedhex, name, path, sizeof(path), why, sizeof(why));
        CU_ASSERT_PTR_NULL(k);
        CU_ASSERT(strncmp(why, want, strlen(want)) == 0 && strstr(why, ".seed): ") != NULL);
        if (k != NULL || strncmp(why, want, strlen(want)) != 0)
            printf("\n  %s %s with the seed of %s: %s", rows[i].alg, rows[i].param,
                   rows[0].param, k != NULL ? "accepted" : why);
        CU_ASSERT_NOT_EQUAL(stat(path, &sb), 0); /* no second state */
        EVP_PKEY_free(k);
    }
    k = gen(rows[n - 1].alg, rows[n - 1].param, other_seedhex, "other", path, sizeof(path), why,
            sizeof(why));
    CU_ASSERT_PTR_NOT_NULL(k);
    EVP_PKEY_free(k);
}

static const char xmss_seed[] = /* 3 x 32 bytes: SK_SEED || SK_PRF || PUB_SEED */
    "5f1c2a4e8b7d6c3f0a9e8d7c6b5a4f3e2d1c0b0a99887766554433221100ffee"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
static const char xmss_other[] =
    "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "1111111111111111222222222222222233333333333333334444444444444444";
static const char lms_seed[] = /* SEED (32) || I (16) */
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
    "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
static const char lms_other[] =
    "8899aabbccddeeff0011223344556677a5a5a5a5a5a5a5a55a5a5a5a5a5a5a5a"
    "f0e1d2c3b4a5968778695a4b3c2d1e0f";

static void test_one_seed_another_set_xmss(void)
{
    static const gen_row rows[] = {
        { "XMSS", "XMSS-SHA2_10_256" }, { "XMSS", "XMSS-SHA2_16_256" },
        { "XMSSMT", "XMSSMT-SHA2_20/2_256" }, { "WOTSP", "WOTSP-SHA2_256" },
        { "XMSS", "XMSS-SHA2_10_256" }, /* the same key again: refused by its seed first */
    };
    fresh_machine();
    check_one_seed(rows, sizeof(rows) / sizeof(rows[0]), xmss_seed, xmss_other);
}

static void test_one_seed_another_set_lms(void)
{
    static const gen_row rows[] = {
        { FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8" },
        { FASTSIG_SIG_HSS, "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8" },
        { FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4" },
        { FASTSIG_SIG_HSS,
          "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8" },
    };
    fresh_machine();
    check_one_seed(rows, sizeof(rows) / sizeof(rows[0]), lms_seed, lms_other);
}

/* A shard is a further state of the first key, not a second key of its
 * seed: carved after the seed is registered, it is not refused. */
static void test_shard_not_refused(void)
{
    char path[700], why[8192];
    fresh_machine();
    EVP_PKEY *k = gen("XMSS", "XMSS-SHA2_10_256", xmss_seed, "whole", path, sizeof(path), why,
                      sizeof(why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    snprintf(path, sizeof(path), "%s/shard.state", state_dir);
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, "+64", 0),
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_STATE, path, 0),
        OSSL_PARAM_construct_end(),
    };
    CU_ASSERT_EQUAL(EVP_PKEY_set_params(k, p), 1);
    EVP_PKEY_free(k);
    ERR_clear_error();
}

static void load(void)
{
    evp_load(1);
}

int main(void)
{
    static const fs_test tests[] = {
        { "load provider", load },
        { "one seed under another parameter set is refused (XMSS, XMSS^MT, WOTSP)",
          test_one_seed_another_set_xmss },
        { "one SEED and I under another parameter set is refused (LMS, HSS)",
          test_one_seed_another_set_lms },
        { "a shard of a registered seed's key is not refused", test_shard_not_refused },
        { "unload", evp_unload },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "one seed, one state", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
