/* test_statelife_evp.c - a decoded stateful key opens its state at its
 * first signature: threads that sign with one freshly decoded key object at
 * once, and its copies (EVP_PKEY_dup), share that one state handle (one
 * block, nothing burnt: the file's next equals the signatures made once the
 * key is freed), and decoding alone spends nothing. A key whose recorded
 * state path is relative is refused at decode. A state error names its own
 * key's file in the thread that signed, and no later error carries it. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "testutil.h"
#include "evp_fixture.h"
#include "stateful_evp.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"

#define THREADS 4
#define PER_THREAD 25
/* The rows: the index is 4 bytes at idx_at (XMSS: first; HSS, L = 1: the
 * LMS signature's q after u32str(L-1)). */
static const struct {
    const char *alg, *param;
    size_t idx_at;
} rows[] = {
    { "XMSS", "XMSS-SHA2_10_256", 0 },
    { "HSS", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", 4 },
};
static size_t row;

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
            out[i] = sig_index(sig + rows[row].idx_at, 4);
        OPENSSL_free(sig);
    }
    return NULL;
}

/* A new key of alg decoded anew from its PEM (*state: its state path):
 * its state not yet opened. */
static EVP_PKEY *decoded_key(const char *alg, const char *param, char *state, size_t len)
{
    EVP_PKEY *k = gen_key(alg, param, NULL, NULL, state, len), *d;
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    char *pem = to_pem(k, 1);
    EVP_PKEY_free(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem);
    d = from_pem(pem, 1);
    OPENSSL_free(pem);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    return d;
}

static void threads_share_one_handle(void)
{
    char state[600];
    shared_key = decoded_key(rows[row].alg, rows[row].param, state, sizeof(state));
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
    CU_ASSERT_EQUAL(sig_index(sig + rows[row].idx_at, 4), THREADS * PER_THREAD);
    OPENSSL_free(sig);
    EVP_PKEY_free(copy);
    EVP_PKEY_free(shared_key);
    /* one handle, closed once: its unused block given back */
    CU_ASSERT_EQUAL(state_file_next(state), THREADS * PER_THREAD + 1);
}

static void test_threads_share_one_handle(void)
{
    for (row = 0; row < sizeof(rows) / sizeof(rows[0]); row++)
        threads_share_one_handle();
}

/* pem (an unencrypted PKCS#8 key of a whole key: core || BE16(len) || old,
 * its state path) re-encoded with the state path path. */
static char *with_state_path(const char *pem, const char *old, const char *path)
{
    BIO *in = BIO_new_mem_buf(pem, -1), *out = BIO_new(BIO_s_mem());
    PKCS8_PRIV_KEY_INFO *p8 = PEM_read_bio_PKCS8_PRIV_KEY_INFO(in, NULL, NULL, NULL), *n8;
    const ASN1_OBJECT *obj = NULL;
    const unsigned char *o = NULL;
    unsigned char *buf;
    char *data, *res = NULL;
    int len = 0;
    size_t corelen, newlen = strlen(path);
    long outlen;

    CU_ASSERT_FATAL(p8 != NULL && PKCS8_pkey_get0(&obj, &o, &len, NULL, p8) == 1
                    && (size_t)len > strlen(old) + 2);
    corelen = (size_t)len - 2 - strlen(old);
    CU_ASSERT_FATAL(memcmp(o + corelen + 2, old, strlen(old)) == 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf = OPENSSL_malloc(corelen + 2 + newlen));
    memcpy(buf, o, corelen);
    buf[corelen] = (unsigned char)(newlen >> 8);
    buf[corelen + 1] = (unsigned char)newlen;
    memcpy(buf + corelen + 2, path, newlen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n8 = PKCS8_PRIV_KEY_INFO_new());
    CU_ASSERT_FATAL(PKCS8_pkey_set0(n8, OBJ_dup(obj), 0, V_ASN1_UNDEF, NULL, buf,
                                    (int)(corelen + 2 + newlen)));
    if (PEM_write_bio_PKCS8_PRIV_KEY_INFO(out, n8) && (outlen = BIO_get_mem_data(out, &data)) > 0)
        res = OPENSSL_strndup(data, (size_t)outlen);
    PKCS8_PRIV_KEY_INFO_free(n8);
    PKCS8_PRIV_KEY_INFO_free(p8);
    BIO_free(in);
    BIO_free(out);
    return res;
}

/* Whether an error in the queue has data containing text; the queue cleared. */
static int error_says(const char *text)
{
    const char *data = NULL;
    int flags = 0, found = 0;
    while (ERR_get_error_all(NULL, NULL, NULL, &data, &flags) != 0)
        found |= (flags & ERR_TXT_STRING) != 0 && data != NULL && strstr(data, text) != NULL;
    return found;
}

/* The format says absolute: a relative one would resolve against each
 * process's working directory, and one key could sign an index twice from
 * two directories. Run from the state's own directory, where its base name
 * would find the real file. */
static void test_relative_state_path_refused(void)
{
    static const char *const kinds[][2] = {
        { "HSS", "LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8" }, { "WOTSP", NULL } };
    char state[600], cwd[4096], want[700];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof(cwd)));
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        EVP_PKEY *k = gen_key(kinds[i][0], kinds[i][1], NULL, NULL, state, sizeof(state)), *d;
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        char *pem = to_pem(k, 1), *slash = strrchr(state, '/'), *rel;
        EVP_PKEY_free(k);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pem);
        CU_ASSERT_PTR_NOT_NULL_FATAL(rel = with_state_path(pem, state, slash + 1));
        *slash = '\0';
        CU_ASSERT_EQUAL_FATAL(chdir(state), 0);
        BIO *b = BIO_new_mem_buf(rel, -1);
        ERR_clear_error();
        d = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, libctx, NULL);
        CU_ASSERT_PTR_NULL(d);
        snprintf(want, sizeof(want), "state file %s: the key's state path is not absolute",
                 slash + 1);
        CU_ASSERT(error_says(want));
        CU_ASSERT_EQUAL(state_file_next(slash + 1), 0); /* nothing spent */
        CU_ASSERT_EQUAL_FATAL(chdir(cwd), 0);
        EVP_PKEY_free(d);
        BIO_free(b);
        OPENSSL_free(rel);
        OPENSSL_free(pem);
    }
}

/* Signs with k once; returns the last error's reason and copies its data
 * ("" if none) to data; the queue cleared. siglen: the buffer offered (0:
 * the size the key asks). */
static int sign_error(EVP_PKEY *k, size_t siglen, char *data, size_t datalen)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    unsigned char sig[8192];
    size_t cap = 0;
    const char *d = NULL;
    int flags = 0;
    unsigned long e = 0;

    data[0] = '\0';
    if (m != NULL && EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0
        && EVP_DigestSign(m, NULL, &cap, (const unsigned char *)"m", 1) > 0) {
        cap = siglen != 0 ? siglen : cap < sizeof(sig) ? cap : sizeof(sig);
        if (EVP_DigestSign(m, sig, &cap, (const unsigned char *)"m", 1) > 0)
            cap = 0; /* signed: no error */
    }
    EVP_MD_CTX_free(m);
    for (unsigned long x; (x = ERR_get_error_all(NULL, NULL, NULL, &d, &flags)) != 0; e = x)
        snprintf(data, datalen, "%s", (flags & ERR_TXT_STRING) && d != NULL ? d : "");
    return e == 0 ? 0 : ERR_GET_REASON(e);
}

/* A WOTSP key decoded anew whose state file is then removed (*state: its
 * path): signing fails until the file is back. */
static EVP_PKEY *key_without_state(char *state, size_t len)
{
    EVP_PKEY *d = decoded_key("WOTSP", NULL, state, len);
    CU_ASSERT_EQUAL_FATAL(unlink(state), 0);
    return d;
}

#define DETAIL_ROUNDS 200
typedef struct {
    EVP_PKEY *key;
    int reason;       /* the error each signature must fail with */
    char want[700];   /* its exact text */
    int wrong;        /* rounds whose error was not exactly that */
} DETAIL_SIGNER;

static void *detail_signer(void *arg)
{
    DETAIL_SIGNER *s = arg;
    char data[1024];
    for (int i = 0; i < DETAIL_ROUNDS; i++)
        if (sign_error(s->key, 0, data, sizeof(data)) != s->reason || strcmp(data, s->want) != 0)
            s->wrong++;
    return NULL;
}

/* Two threads, each signing with its own key whose state fails its own
 * way (missing; a directory where the file was): every error names the
 * thread's own file and reason, never the other's. */
static void test_state_errors_stay_in_their_thread(void)
{
    DETAIL_SIGNER s[2];
    char state[2][600];
    pthread_t t[2];
    memset(s, 0, sizeof(s));
    for (int i = 0; i < 2; i++)
        s[i].key = key_without_state(state[i], sizeof(state[i]));
    CU_ASSERT_EQUAL_FATAL(mkdir(state[1], 0700), 0);
    s[0].reason = FASTSIG_ERR_STATE_MISSING;
    snprintf(s[0].want, sizeof(s[0].want), "state file %s: %s", state[0], strerror(ENOENT));
    s[1].reason = FASTSIG_ERR_STATE_IO;
    snprintf(s[1].want, sizeof(s[1].want), "state file %s: %s", state[1], strerror(EISDIR));
    for (int i = 0; i < 2; i++)
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, detail_signer, &s[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(s[i].wrong, 0);
        EVP_PKEY_free(s[i].key);
    }
    rmdir(state[1]);
}

/* An error after a detailed one, in the same thread and with the same key:
 * a too-short signature buffer says nothing of the state file. */
static void test_no_stale_detail(void)
{
    char state[600], data[1024], want[700];
    EVP_PKEY *k = key_without_state(state, sizeof(state));
    snprintf(want, sizeof(want), "state file %s: %s", state, strerror(ENOENT));
    CU_ASSERT_EQUAL(sign_error(k, 0, data, sizeof(data)), FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT_STRING_EQUAL(data, want);
    CU_ASSERT_EQUAL(sign_error(k, 1, data, sizeof(data)), FASTSIG_ERR_BAD_LENGTH);
    CU_ASSERT_PTR_NULL(strstr(data, "state file"));
    CU_ASSERT_PTR_NULL(strstr(data, state));
    EVP_PKEY_free(k);
}

int main(void)
{
    static const fs_test tests[] = {
        { "load provider", stateful_load },
        { "threads and copies of a decoded key share the state it opens at the first signature",
          test_threads_share_one_handle },
        { "a key with a relative state path is refused", test_relative_state_path_refused },
        { "each thread's state errors name its own key's file",
          test_state_errors_stay_in_their_thread },
        { "an error after a state error carries no stale detail", test_no_stale_detail },
        { "unload", stateful_unload },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "state opened at the first signature", tests },
                                       { NULL, NULL } };
    return fs_cu_main(suites);
}
