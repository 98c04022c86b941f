/* test_statelife_evp.c - a decoded stateful key opens its state at its
 * first signature: threads that sign with one freshly decoded key object at
 * once, and its copies (EVP_PKEY_dup), share that one state handle (one
 * block, nothing burnt: the file's next equals the signatures made once the
 * key is freed), and decoding alone spends nothing. */
#include <pthread.h>
#include <string.h>
#include <openssl/evp.h>
#include "testutil.h"
#include "evp_fixture.h"
#include "hbs_evp.h"
#include "fastsig/provider.h"

#define THREADS 4
#define PER_THREAD 25
#define IDX_BYTES 4 /* XMSS */

static EVP_PKEY *shared_key;
static uint64_t seen[THREADS][PER_THREAD];
static int failures;

static void *signer(void *arg)
{
    uint64_t *out = arg;
    for (int i = 0; i < PER_THREAD; i++) {
        unsigned char *sig = NULL;
        size_t siglen = 0;
        if (sign_msg(shared_key, "m", 1, &sig, &siglen, 0) != 0)
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
        else
            out[i] = sig_index(sig, IDX_BYTES);
        OPENSSL_free(sig);
    }
    return NULL;
}

static void test_threads_share_one_handle(void)
{
    char state[600];
    EVP_PKEY *k = gen_key("XMSS", "XMSS-SHA2_10_256", NULL, NULL, state, sizeof(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    char *pem = to_pem(k, 1);
    EVP_PKEY_free(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem);

    shared_key = from_pem(pem, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(shared_key);
    CU_ASSERT_EQUAL(state_file_next(state), 0); /* decoding spent nothing */
    pthread_t t[THREADS];
    memset(seen, 0xff, sizeof(seen));
    for (int i = 0; i < THREADS; i++)
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, signer, seen[i]), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CU_ASSERT_EQUAL(failures, 0);
    /* every index once */
    static unsigned char hit[THREADS * PER_THREAD];
    memset(hit, 0, sizeof(hit));
    for (int i = 0; i < THREADS; i++)
        for (int j = 0; j < PER_THREAD; j++) {
            CU_ASSERT_FATAL(seen[i][j] < THREADS * PER_THREAD);
            CU_ASSERT_EQUAL(hit[seen[i][j]]++, 0);
        }
    /* a copy shares the handle too */
    EVP_PKEY *copy = EVP_PKEY_dup(shared_key);
    unsigned char *sig = NULL;
    size_t siglen = 0;
    CU_ASSERT_EQUAL(sign_msg(copy, "m", 1, &sig, &siglen, 0), 0);
    CU_ASSERT_EQUAL(sig_index(sig, IDX_BYTES), THREADS * PER_THREAD);
    OPENSSL_free(sig);
    EVP_PKEY_free(copy);
    EVP_PKEY_free(shared_key);
    /* one handle, closed once: its unused block given back */
    CU_ASSERT_EQUAL(state_file_next(state), THREADS * PER_THREAD + 1);
    OPENSSL_free(pem);
}

int main(void)
{
    static const fs_test tests[] = {
        { "load provider", hbs_load },
        { "threads and copies of a decoded key share the state it opens at the first signature",
          test_threads_share_one_handle },
        { "unload", hbs_unload },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "state opened at the first signature", tests },
                                       { NULL, NULL } };
    return fs_cu_main(suites);
}
