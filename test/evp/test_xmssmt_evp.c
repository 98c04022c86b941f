/* test_xmssmt_evp.c - XMSS^MT through EVP only: known answers for every
 * XMSSMT vector file (seed -> pk, sig_idx0, sig_idx1, and sig_idxlast with
 * the state moved to 2^h - 1, h = 60 included), 64-bit indices around 2^32
 * (signatures, key parameters), round trips for every set (the index after
 * the first two is moved across the top of the hypertree), tampering,
 * unusable states, dup/dupctx, reservation blocks, concurrent processes and
 * SIGKILLed signers on an XMSSMT-SHA2_20/4_256 key.
 *
 * Cost: a key builds the lowest tree of each layer; for layer trees of
 * height 20 (the 40/2 and 60/3 sets) that is 2^20 leaves per layer, minutes
 * each, so those 14 sets run under FASTSIG_SOAK=1 only (the core's unit
 * tests run their signing code on reduced-height rows). Default: the 21
 * sets with layer trees of height 5, and the height-10 ones of SHA2_256
 * and SHAKE256_192 (27 sets); the signature at the last index but one for
 * the height-5 ones. FASTSIG_SOAK=1: all 56, all with that signature. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/err.h>
#include "stateful_evp.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"

static const char *const files[] = {
    "XMSSMT-SHA2_20-2_256.txt", "XMSSMT-SHA2_20-4_256.txt", "XMSSMT-SHA2_20-4_192.txt",
    "XMSSMT-SHA2_40-8_256.txt", "XMSSMT-SHA2_60-12_256.txt", "XMSSMT-SHAKE_20-4_256.txt",
    "XMSSMT-SHAKE256_20-4_256.txt", "XMSSMT-SHAKE256_20-4_192.txt",
};
#define N_FILES (sizeof(files) / sizeof(files[0]))

static void test_kat(void)
{
    check_kat_files("XMSSMT", files, N_FILES, 3);
}

/* Indices around 2^32 on h = 40 and h = 60 keys: no 32-bit truncation in
 * the state file, the key parameters or the signature's index field. */
static void test_64bit(void)
{
    static const char *const sets[] = { "XMSSMT-SHA2_60/12_256", "XMSSMT-SHA2_40/8_256" };
    for (size_t s = 0; s < 2; s++) {
        const xmss_params *p = xmss_params_by_name(sets[s]);
        char state[600];
        unsigned char *sig;
        size_t siglen;
        uint64_t start = (1ull << 32) - 2, one = 1;
        OSSL_PARAM b1[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &one),
                             OSSL_PARAM_construct_end() };
        EVP_PKEY *k = gen_key("XMSSMT", sets[s], NULL, NULL, state, sizeof(state));

        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT(EVP_PKEY_set_params(k, b1));
        CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_MAX), xmss_last_index(p) + 1);
        CU_ASSERT_EQUAL_FATAL(state_jump(k, state, start), FASTSIG_OK);
        for (uint64_t i = start; i < start + 4; i++) {
            CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_INDEX), i);
            CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), xmss_last_index(p) + 1 - i);
            CU_ASSERT_EQUAL_FATAL(sign_msg(k, "2^32", 4, &sig, &siglen, 0), 0);
            CU_ASSERT_EQUAL(sig_index(sig, p->idx_bytes), i);
            CU_ASSERT(verify_msg(k, "2^32", 4, sig, siglen));
            CU_ASSERT_EQUAL(state_file_next(state), i + 1);
            OPENSSL_free(sig);
        }
        EVP_PKEY_free(k);
    }
}

/* Layer trees of height 10 cost d x 1024 leaves per key (seconds for the
 * SHAKE-512 rows): by default one family of each hash function shape,
 * n = 32 and n = 24 with its 4-byte padding. */
static int skip_row(const xmss_params *p)
{
    return !soak() && (p->tree_h > 10 || (p->tree_h == 10 && p->family != XMSS_SHA2_256
                                          && p->family != XMSS_SHAKE256_192));
}

/* The third signature: the last index but one (every layer's last tree: as
 * much work again as the key generation, so by default only for layer
 * trees of height 5). */
static uint64_t jump_row(const xmss_params *p)
{
    return p->tree_h <= 5 || soak() ? xmss_last_index(p) - 1 : 0;
}

static void test_round_trips(void)
{
    round_trips("XMSSMT", XMSS_KIND_XMSSMT, 56, skip_row, jump_row);
}

static void test_batches(void)
{
    check_batches("XMSSMT", NULL);
}

static int64_t mtime_ns(const struct stat *st)
{
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* The cache file after a process that only loads the key (left alone),
 * after one whose signature prepares the next subtree (written back), and
 * after one that finds it grown by garbage (refused, rebuilt, written back
 * at its own size). Steps 50 ms apart: past the timestamp granularity. */
static void test_cache_written_back(void)
{
    char state[600], cache[620];
    struct stat at[4];
    EVP_PKEY *k = gen_key("XMSSMT", NULL, NULL, NULL, state, sizeof(state));
    char *pem = k != NULL ? to_pem(k, 1) : NULL;

    EVP_PKEY_free(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem);
    snprintf(cache, sizeof(cache), "%s.cache", state);
    for (int run = 0; run < 4; run++) {
        CU_ASSERT_FATAL(stat(cache, &at[run]) == 0);
        if (run == 3)
            break;
        usleep(50000);
        if (run == 2) {
            FILE *f = fopen(cache, "ab");
            CU_ASSERT(f != NULL && fwrite("garbage", 1, 7, f) == 7 && fclose(f) == 0);
        }
        EVP_PKEY *d = from_pem(pem, 1);
        unsigned char *sig = NULL;
        size_t siglen;
        if (run > 0)
            CU_ASSERT(d != NULL && sign_msg(d, "b", 1, &sig, &siglen, 0) == 0);
        OPENSSL_free(sig);
        EVP_PKEY_free(d);
    }
    CU_ASSERT_EQUAL(mtime_ns(&at[1]), mtime_ns(&at[0]));
    CU_ASSERT(mtime_ns(&at[2]) > mtime_ns(&at[1]) && mtime_ns(&at[3]) > mtime_ns(&at[2]));
    CU_ASSERT(at[3].st_size == at[0].st_size && at[2].st_size == at[0].st_size);
    OPENSSL_free(pem);
}

static void test_key(void)
{
    proc_key_make("XMSSMT", NULL, 1u << 20, 3, soak() ? 100 : 40, soak() ? 300 : 20);
}

static const fs_test tests[] = {
    { "load provider", stateful_load },
    { "known answers (pk, idx0, idx1, last), dup/dupctx, bad states", test_kat },
    { "64-bit indices around 2^32", test_64bit },
    { "round trips, every set", test_round_trips },
    { "reservation blocks and give-back", test_batches },
    { "cache file: left alone, written back, rebuilt at its size", test_cache_written_back },
    { "XMSSMT-SHA2_20/4_256 key (the default)", test_key },
    { NULL, NULL }
};

int main(void)
{
    return stateful_cu_run("xmssmt_evp", tests);
}
