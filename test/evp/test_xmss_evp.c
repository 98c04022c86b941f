/* test_xmss_evp.c - XMSS through EVP only (the provider loaded by path):
 * known answers for every h=10 vector file (seed -> pk, sig_idx0, sig_idx1,
 * sig_idxlast with the state moved to 2^h - 1), the last index reached by
 * signing through all 1024, round trips for every set, tampering, state
 * missing / corrupt / another key's / read-only, dup and dupctx sharing one
 * counter, reservation blocks, the keygen threads option, 8 processes x 100
 * signatures, and signers SIGKILLed at random instants.
 *
 * Cost: key generation of a height-16 set builds 2^16 leaves (the SHAKE_512
 * rows about 6x the SHA2 ones), height 20 16x that: by default the round trips cover
 * every h=10 set and XMSS-SHA2_16_256 (whose key also serves the process
 * tests); FASTSIG_SOAK=1 adds every h=16 and h=20 set and 300 kills
 * instead of 60. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/err.h>
#include "stateful_evp.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "xmss_vec.h"
#include "state/statefile.h"

static const char *const h10_files[] = {
    "XMSS-SHA2_10_256.txt", "XMSS-SHA2_10_192.txt", "XMSS-SHA2_10_512.txt",
    "XMSS-SHAKE_10_256.txt", "XMSS-SHAKE_10_512.txt", "XMSS-SHAKE256_10_256.txt",
    "XMSS-SHAKE256_10_192.txt",
};
#define N_H10 (sizeof(h10_files) / sizeof(h10_files[0]))

static void test_kat(void)
{
    check_kat_files("XMSS", h10_files, N_H10, 4);
}

/* Reach 2^10 - 1 the way a user does: sign 1024 times (blocks of 64). */
static void test_sign_through(void)
{
    xmss_vec *v = xmss_vec_load("XMSS-SHA2_10_256.txt");
    char state[600];
    unsigned char *sig = NULL, *want;
    size_t siglen = 0, wlen;
    EVP_PKEY *k;
    int bad = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    k = gen_key("XMSS", NULL, xmss_vec_get(v, "seed"), NULL, state, sizeof(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    for (uint64_t i = 0; i < 1024; i++) {
        OPENSSL_free(sig);
        if (sign_msg(k, "abc", 3, &sig, &siglen, 0) != 0 || sig_index(sig, 4) != i) {
            bad++;
            break;
        }
        if (i % 97 == 0 && !verify_msg(k, "abc", 3, sig, siglen))
            bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    want = xmss_vec_bytes(v, "sig_idxlast", &wlen);
    CU_ASSERT(sig != NULL && siglen == wlen && memcmp(sig, want, wlen) == 0);
    free(want);
    OPENSSL_free(sig);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 0);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_INDEX), 1024);
    CU_ASSERT_EQUAL(sign_msg(k, "abc", 3, &sig, &siglen, 0), FASTSIG_ERR_KEY_EXHAUSTED);
    EVP_PKEY_free(k);
    xmss_vec_free(v);
}

static int skip_row(const xmss_params *p)
{
    return p->h > 10 && !soak();
}

static uint64_t jump_row(const xmss_params *p)
{
    return xmss_last_index(p) - 1;
}

static void test_round_trips(void)
{
    round_trips("XMSS", XMSS_KIND_XMSS, 21, skip_row, jump_row);
}

static void test_batches(void)
{
    check_batches("XMSS", NULL);
}

/* Generates XMSS-SHA2_10_256 from seedhex with the extra parameter t (the
 * "threads" option in some form); 0 and the public key in pub, or the
 * fastsig reason of the refusal. */
static int gen_with(const char *alg, const char *seedhex, const OSSL_PARAM *t,
                    unsigned char *pub, size_t *len)
{
    char state[600];
    OSSL_PARAM prm[4];
    size_t n = 0;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    EVP_PKEY *k = NULL;
    int r = -1;

    new_state_path(state, sizeof(state));
    if (seedhex != NULL)
        prm[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SEED, (char *)seedhex, 0);
    prm[n++] = *t;
    prm[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0);
    prm[n] = OSSL_PARAM_construct_end();
    ERR_clear_error();
    if (c != NULL && EVP_PKEY_keygen_init(c) > 0) {
        if (!EVP_PKEY_CTX_set_params(c, prm) || EVP_PKEY_generate(c, &k) <= 0)
            r = last_reason();
        else
            r = get_pub(k, pub, 200, len) ? 0 : -1;
    }
    EVP_PKEY_free(k);
    EVP_PKEY_CTX_free(c);
    return r;
}

/* Key generation on 1, 2, 3 threads (as a number and as -pkeyopt text)
 * gives the vector's key; 0, 65, negative and non-numbers are refused with
 * BAD_PARAM; a WOTSP key has no threads option. */
static void test_threads(void)
{
    xmss_vec *v = xmss_vec_load("XMSS-SHA2_10_256.txt");
    unsigned char pub[200], *want;
    size_t len = 0, wlen;
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const char *seed = xmss_vec_get(v, "seed");
    want = xmss_vec_bytes(v, "pk", &wlen);
    for (unsigned t = 1; t <= 3; t++) {
        char text[4];
        snprintf(text, sizeof(text), "%u", t);
        OSSL_PARAM u = OSSL_PARAM_construct_uint(FASTSIG_PKEY_PARAM_THREADS, &t);
        OSSL_PARAM s = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_THREADS, text, 0);
        memset(pub, 0, sizeof(pub));
        CU_ASSERT(gen_with("XMSS", seed, &u, pub, &len) == 0 && len == wlen
                  && memcmp(pub, want, wlen) == 0);
        memset(pub, 0, sizeof(pub));
        CU_ASSERT(gen_with("XMSS", seed, &s, pub, &len) == 0 && len == wlen
                  && memcmp(pub, want, wlen) == 0);
    }
    free(want);
    unsigned bad_u[] = { 0, 65, 100000 };
    for (size_t i = 0; i < sizeof(bad_u) / sizeof(bad_u[0]); i++) {
        OSSL_PARAM u = OSSL_PARAM_construct_uint(FASTSIG_PKEY_PARAM_THREADS, &bad_u[i]);
        CU_ASSERT_EQUAL(gen_with("XMSS", seed, &u, pub, &len), FASTSIG_ERR_BAD_PARAM);
    }
    int minus = -1;
    OSSL_PARAM neg = OSSL_PARAM_construct_int(FASTSIG_PKEY_PARAM_THREADS, &minus);
    CU_ASSERT_EQUAL(gen_with("XMSS", seed, &neg, pub, &len), FASTSIG_ERR_BAD_PARAM);
    const char *bad_s[] = { "0", "65", "-1", "", "two", "2x", " 2", "+2" };
    for (size_t i = 0; i < sizeof(bad_s) / sizeof(bad_s[0]); i++) {
        OSSL_PARAM s = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_THREADS,
                                                        (char *)bad_s[i], 0);
        CU_ASSERT_EQUAL(gen_with("XMSS", seed, &s, pub, &len), FASTSIG_ERR_BAD_PARAM);
    }
    unsigned two = 2;
    OSSL_PARAM u2 = OSSL_PARAM_construct_uint(FASTSIG_PKEY_PARAM_THREADS, &two);
    CU_ASSERT_EQUAL(gen_with("WOTSP", NULL, &u2, pub, &len), FASTSIG_ERR_UNSUPPORTED);
    /* listed where it is offered, so that -pkeyopt threads:N finds it */
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, "XMSSMT", NULL), *w;
    w = EVP_PKEY_CTX_new_from_name(libctx, "WOTSP", NULL);
    CU_ASSERT_FATAL(c != NULL && w != NULL && EVP_PKEY_keygen_init(c) > 0
                    && EVP_PKEY_keygen_init(w) > 0);
    CU_ASSERT_PTR_NOT_NULL(OSSL_PARAM_locate_const(EVP_PKEY_CTX_settable_params(c),
                                                   FASTSIG_PKEY_PARAM_THREADS));
    CU_ASSERT_PTR_NULL(OSSL_PARAM_locate_const(EVP_PKEY_CTX_settable_params(w),
                                               FASTSIG_PKEY_PARAM_THREADS));
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_CTX_free(w);
    xmss_vec_free(v);
}

/* A process's first signature reserves one index, its second a whole block
 * (not a doubling ramp; the worker may have reserved the next one too by the
 * time the file is read, and closing gives both back); signing inside an XMSS tree the cache keeps whole
 * leaves the cache file alone (its mtime, 50 ms later, has not moved). */
static void test_first_blocks_and_cache_file(void)
{
    char state[600], cache[620], *pem;
    unsigned char *sig;
    size_t siglen;
    struct stat before, after;
    EVP_PKEY *k = gen_key("XMSS", NULL, NULL, NULL, state, sizeof(state)), *d;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    pem = to_pem(k, 1);
    EVP_PKEY_free(k);
    snprintf(cache, sizeof(cache), "%s.cache", state);
    CU_ASSERT_FATAL(stat(cache, &before) == 0);
    usleep(50000); /* past the filesystem's timestamp granularity */
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    CU_ASSERT_EQUAL(sign_msg(d, "b", 1, &sig, &siglen, 0), 0);
    OPENSSL_free(sig);
    CU_ASSERT_EQUAL(state_file_next(state), 1);
    CU_ASSERT_EQUAL(sign_msg(d, "b", 1, &sig, &siglen, 0), 0);
    OPENSSL_free(sig);
    /* a whole block, and perhaps already the block reserved ahead: the
     * second block's first signature asks the worker for the third */
    uint64_t next = state_file_next(state);
    CU_ASSERT(next == 1 + FASTSIG_STATE_DEFAULT_BATCH || next == 1 + 2 * FASTSIG_STATE_DEFAULT_BATCH);
    EVP_PKEY_free(d);
    CU_ASSERT_EQUAL(state_file_next(state), 2);
    CU_ASSERT(stat(cache, &after) == 0 && after.st_mtim.tv_sec == before.st_mtim.tv_sec
              && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    OPENSSL_free(pem);
}

/* A state rewritten with valid checksums but a max other than 2^10 must not
 * be trusted (too large would hand out indices the tree does not have, and
 * any mismatch means the file is not this key's). */
static void test_forged_max(void)
{
    static const uint64_t maxes[] = { 1025, 1023, 5 };
    check_forged_max("XMSS", "XMSS-SHA2_10_256", maxes, sizeof(maxes) / sizeof(maxes[0]));
}

static void test_h16(void)
{
    proc_key_make("XMSS", "XMSS-SHA2_16_256", 65536, 4, 100, soak() ? 300 : 60);
}

static const fs_test tests[] = {
    { "load provider", stateful_load },
    { "known answers h=10 (pk, idx0, idx1, last), dup/dupctx, bad states", test_kat },
    { "sign through all 1024 indices", test_sign_through },
    { "round trips, every set", test_round_trips },
    { "reservation blocks and give-back", test_batches },
    { "keygen threads option: same key on 1..3, bad values refused", test_threads },
    { "first block 1, then a batch; unchanged cache not rewritten",
      test_first_blocks_and_cache_file },
    { "state with a forged max refused", test_forged_max },
    { "XMSS-SHA2_16_256 key", test_h16 },
    { NULL, NULL }
};

int main(void)
{
    return stateful_cu_run("xmss_evp", tests);
}
