/* test_keygen_evp.c - key generation of stateful keys as a C program meets
 * it: an empty `state` or `param` (the data_size 0 of OSSL_PARAM_utf8_string)
 * is refused by name, not read as "the default directory" or as a set named
 * ""; the same program run again with a fixed seed makes the same key and
 * takes its existing state over (its used indices stay used), while a
 * random key never takes a file at its state path, and the refusal says
 * whose state the file holds and what to do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "testutil.h"
#include "evp_fixture.h"
#include "stateful_evp.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"

static char why[8192];

/* Generates alg with params; NULL with the last error's reason and text in
 * why when refused. */
static EVP_PKEY *gen(const char *alg, const OSSL_PARAM *params)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    EVP_PKEY *k = NULL;
    const char *data = NULL;
    int flags = 0;
    why[0] = '\0';
    ERR_clear_error();
    if (c == NULL || EVP_PKEY_keygen_init(c) <= 0 || !EVP_PKEY_CTX_set_params(c, params)
        || EVP_PKEY_generate(c, &k) <= 0) {
        unsigned long e = ERR_peek_last_error_data(&data, &flags);
        snprintf(why, sizeof(why), "%d %s", ERR_GET_REASON(e),
                 data != NULL && (flags & ERR_TXT_STRING) ? data : "");
        k = NULL;
    }
    ERR_clear_error();
    EVP_PKEY_CTX_free(c);
    return k;
}

/* Files in the default state directory (its registry folder counts one). */
static int default_dir_entries(void)
{
    DIR *d = opendir(getenv("FASTSIG_STATE_DIR"));
    struct dirent *e;
    int n = 0;
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void expect_refused(const char *alg, const OSSL_PARAM *params, const char *text)
{
    EVP_PKEY *k = gen(alg, params);
    CU_ASSERT_PTR_NULL(k);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, text));
    if (k != NULL || strstr(why, text) == NULL)
        printf("\n  %s: %s, want '%s'", alg, k != NULL ? "generated" : why, text);
    EVP_PKEY_free(k);
}

/* OSSL_PARAM_utf8_string(name, s, 0) is an empty string, not strlen(s). */
static void test_empty_state(void)
{
    char state[600];
    new_state_path(state, sizeof(state));
    int before = default_dir_entries();
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0),
                       OSSL_PARAM_END };
    expect_refused(FASTSIG_SIG_XMSS, p, "state is empty");
    expect_refused(FASTSIG_SIG_HSS, p, "state is empty");
    expect_refused(FASTSIG_SIG_WOTSP, p, "state is empty");
    CU_ASSERT_EQUAL(default_dir_entries(), before); /* no state in the default directory */
}

static void test_empty_param(void)
{
    char set[] = "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4", state[600];
    new_state_path(state, sizeof(state));
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_PARAM, set, 0),
                       OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0),
                       OSSL_PARAM_END };
    expect_refused(FASTSIG_SIG_HSS, p, "param is empty");
    expect_refused(FASTSIG_SIG_XMSS, p, "param is empty");
    expect_refused(FASTSIG_SIG_XMSSMT, p, "param is empty");
}

static const char lms_seed[] = /* SEED (32) || I (16) */
    "3c1f0e2d4b5a69788796a5b4c3d2e1f000112233445566778899aabbccddeeff"
    "a0b1c2d3e4f5061728394a5b6c7d8e9f";
static const char xmss_seed[] = /* SK_SEED || SK_PRF || PUB_SEED */
    "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
    "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

/* One run of "the program": the key of seedhex (state: path, NULL for the
 * default directory); signs twice when sign, so the state moves on. */
static EVP_PKEY *run(const char *alg, const char *param, const char *seedhex, const char *path)
{
    OSSL_PARAM p[4];
    size_t n = 0;
    p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)param, 0);
    p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SEED, (char *)seedhex, 0);
    if (path != NULL)
        p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, (char *)path, 0);
    p[n] = OSSL_PARAM_construct_end();
    return gen(alg, p);
}

static void check_run_again(const char *alg, const char *param, const char *seedhex,
                            int default_path)
{
    char state[600];
    unsigned char *sig = NULL;
    size_t siglen = 0;
    const char *msg = "firmware 1.0";
    new_state_path(state, sizeof(state));
    const char *path = default_path ? NULL : state;
    EVP_PKEY *a = run(alg, param, seedhex, path), *b;
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    uint64_t max = key_u64(a, FASTSIG_PKEY_PARAM_MAX);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(sign_msg(a, msg, strlen(msg), &sig, &siglen, 1), 0);
        OPENSSL_free(sig);
        sig = NULL;
    }
    EVP_PKEY_free(a); /* the program ends, its key maybe never saved */
    b = run(alg, param, seedhex, path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    if (b == NULL)
        printf("\n  %s run again: %s", alg, why);
    CU_ASSERT_EQUAL(key_u64(b, FASTSIG_PKEY_PARAM_INDEX), 2); /* the state taken over */
    CU_ASSERT_EQUAL(key_u64(b, FASTSIG_PKEY_PARAM_REMAINING), max - 2);
    CU_ASSERT_EQUAL(sign_msg(b, msg, strlen(msg), &sig, &siglen, 1), 0);
    CU_ASSERT_EQUAL(verify_msg(b, msg, strlen(msg), sig, siglen), 1);
    CU_ASSERT_EQUAL(key_u64(b, FASTSIG_PKEY_PARAM_REMAINING), max - 3);
    OPENSSL_free(sig);
    EVP_PKEY_free(b);
}

static void test_run_again_hss(void)
{
    check_run_again(FASTSIG_SIG_HSS,
                    "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
                    lms_seed, 0);
}

static void test_run_again_xmss(void)
{
    check_run_again(FASTSIG_SIG_XMSS, "XMSS-SHA2_10_256", xmss_seed, 0);
}

static void test_run_again_default_path(void)
{
    check_run_again(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4", lms_seed, 1);
}

static int progress_calls;
static int count_progress(EVP_PKEY_CTX *ctx)
{
    (void)ctx;
    progress_calls++;
    return 1;
}

/* The seed of a key whose state is at path, under set: refused, naming that
 * state; trees_built: whether the generation got as far as building them. */
static void expect_seed_refused(const char *alg, const char *set, const char *seedhex,
                                const char *path, int *trees_built)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    EVP_PKEY *k = NULL;
    char want[800];
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)set, 0),
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SEED, (char *)seedhex, 0),
        OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, (char *)path, 0),
        OSSL_PARAM_END,
    };
    progress_calls = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    EVP_PKEY_CTX_set_cb(c, count_progress);
    CU_ASSERT(EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_CTX_set_params(c, p));
    CU_ASSERT(EVP_PKEY_generate(c, &k) <= 0);
    snprintf(want, sizeof(want), "state file %s: holds this seed's one-time keys", path);
    const char *data = NULL;
    int flags = 0;
    ERR_peek_last_error_data(&data, &flags);
    CU_ASSERT(data != NULL && strstr(data, want) != NULL);
    ERR_clear_error();
    *trees_built = progress_calls > 0;
    EVP_PKEY_free(k);
    EVP_PKEY_CTX_free(c);
}

/* The same seed at the first key's state path under another set is another
 * key: refused, the state untouched; a set of another size before its trees
 * are built (the state's size tells), one of the same size once its key id
 * is known. */
static void test_same_path_other_set(void)
{
    char state[600];
    int built = -1;
    new_state_path(state, sizeof(state));
    EVP_PKEY *a = run(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8", lms_seed, state);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    EVP_PKEY_free(a);
    uint64_t before = state_file_next(state);
    expect_seed_refused(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8", lms_seed, state,
                        &built);
    CU_ASSERT_EQUAL(built, 0); /* 1024 indices, the state holds 32 */
    expect_seed_refused(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4", lms_seed, state,
                        &built);
    CU_ASSERT_EQUAL(built, 1); /* 32 too: told apart by the key id */
    CU_ASSERT_EQUAL(state_file_next(state), before);
}

/* A random key never takes a file at its path, used or not. */
static void test_random_key_existing_state(void)
{
    char state[600], want[800];
    new_state_path(state, sizeof(state));
    OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0),
                       OSSL_PARAM_END };
    EVP_PKEY *a = gen(FASTSIG_SIG_XMSS, p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    snprintf(want, sizeof(want), "%d state file %s: another key's state, index 0 of 1024: that "
             "key signed nothing; if it was never saved (a generation that stopped), remove the "
             "file, else choose another state path", FASTSIG_ERR_STATE_EXISTS, state);
    expect_refused(FASTSIG_SIG_XMSS, p, want);
    unsigned char *sig = NULL;
    size_t siglen = 0;
    CU_ASSERT_EQUAL(sign_msg(a, "m", 1, &sig, &siglen, 1), 0);
    OPENSSL_free(sig);
    EVP_PKEY_free(a);
    snprintf(want, sizeof(want), "state file %s: another key's state, index 1 of 1024: keep it, "
             "choose another state path", state);
    expect_refused(FASTSIG_SIG_XMSS, p, want);
    /* the same seed at another path is still a second state: refused (test_registry_evp) */
}

int main(void)
{
    static const fs_test tests[] = {
        { "load provider", stateful_load },
        { "an empty state (data_size 0) is refused, nothing made", test_empty_state },
        { "an empty param (data_size 0) is refused by name", test_empty_param },
        { "HSS L=2: the same seed and state path again takes the state over", test_run_again_hss },
        { "XMSS: the same seed and state path again takes the state over", test_run_again_xmss },
        { "the same seed in the default directory again takes its state over",
          test_run_again_default_path },
        { "the same seed at the same path under another set: refused", test_same_path_other_set },
        { "a random key at an existing state path: refused, saying whose state",
          test_random_key_existing_state },
        { "unload", stateful_unload },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "key generation from C", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
