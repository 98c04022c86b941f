/* test_xmss_evp.c - XMSS through EVP only (the provider loaded by path):
 * known answers for every h=10 vector file (seed -> pk, sig_idx0, sig_idx1,
 * sig_idxlast with the state moved to 2^h - 1), the last index reached by
 * signing through all 1024, round trips for every set, tampering, state
 * missing / corrupt / another key's / read-only, dup and dupctx sharing one
 * counter, reservation blocks, 8 processes x 100 signatures, and signers
 * SIGKILLed at random instants.
 *
 * Cost: key generation of a height-16 set takes ~10 s (SHA2) to ~60 s
 * (SHAKE_512) here, height 20 16x that: by default the round trips cover
 * every h=10 set and XMSS-SHA2_16_256 (whose key also serves the process
 * tests); FASTSIG_SOAK=1 adds every h=16 and h=20 set and 300 kills
 * instead of 60. */
#include "hbs_evp_common.c"

static const char *const h10_files[] = {
    "XMSS-SHA2_10_256.txt", "XMSS-SHA2_10_192.txt", "XMSS-SHA2_10_512.txt",
    "XMSS-SHAKE_10_256.txt", "XMSS-SHAKE_10_512.txt", "XMSS-SHAKE256_10_256.txt",
    "XMSS-SHAKE256_10_192.txt",
};
#define N_H10 (sizeof(h10_files) / sizeof(h10_files[0]))

static void test_load(void)
{
    hbs_load();
}

static void test_kat(void)
{
    check_kat_files("XMSS", h10_files, N_H10, 4);
}

/* Reach 2^10 - 1 the way a user does: sign 1024 times (blocks of 64). */
static void test_sign_through(void)
{
    hbs_vec *v = hbs_vec_load("XMSS-SHA2_10_256.txt");
    char state[600];
    unsigned char *sig = NULL, *want;
    size_t siglen = 0, wlen;
    EVP_PKEY *k;
    int bad = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    k = gen_key("XMSS", NULL, hbs_vec_get(v, "seed"), NULL, state, sizeof(state));
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
    want = hbs_vec_bytes(v, "sig_idxlast", &wlen);
    CU_ASSERT(sig != NULL && siglen == wlen && memcmp(sig, want, wlen) == 0);
    free(want);
    OPENSSL_free(sig);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 0);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_INDEX), 1024);
    CU_ASSERT_EQUAL(sign_msg(k, "abc", 3, &sig, &siglen, 0), FASTSIG_ERR_KEY_EXHAUSTED);
    EVP_PKEY_free(k);
    hbs_vec_free(v);
}

static void test_round_trips(void)
{
    const hbs_params *rows[32];
    size_t n = rows_of(HBS_KIND_XMSS, rows, 32), done = 0;
    CU_ASSERT_EQUAL(n, 21);
    for (size_t i = 0; i < n; i++) {
        if (rows[i]->h > 10 && !soak())
            continue;
        round_trip("XMSS", rows[i]->name, 4, hbs_last_index(rows[i]) - 1);
        done++;
    }
    printf("\n  %zu of %zu sets (FASTSIG_SOAK=1: all) ", done, n);
}

static void test_batches(void)
{
    check_batches("XMSS", NULL);
}

static void test_h16(void)
{
    proc_key_make("XMSS", "XMSS-SHA2_16_256", 65536, 4, 100, soak() ? 300 : 60);
}

static const fs_test tests[] = {
    { "load provider", test_load },
    { "known answers h=10 (pk, idx0, idx1, last), dup/dupctx, bad states", test_kat },
    { "sign through all 1024 indices", test_sign_through },
    { "round trips, every set", test_round_trips },
    { "reservation blocks and give-back", test_batches },
    { "XMSS-SHA2_16_256 key", test_h16 },
    { "8 processes x 100 signatures", test_proc_concurrent },
    { "8 threads x 50 signatures on one key object", test_proc_threads },
    { "a forked child signing with the inherited key", test_proc_fork },
    { "SIGKILL at random instants", test_proc_kill },
    { "unload", test_proc_unload },
    { NULL, NULL }
};

int main(void)
{
    static const fs_suite suites[] = { { "xmss_evp", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
