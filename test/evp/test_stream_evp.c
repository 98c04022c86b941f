/* test_stream_evp.c - signing and verifying a message that streams, through
 * EVP: a streamed signature (random split points) is the one-shot path's
 * (two keys from one seed sign the same index), verifies one-shot and, on
 * OpenSSL 3.5 with the signature set first, as it streams; an abandoned
 * context burns exactly one index, a context and its copies sign once; and
 * 256 MiB stream through signing (and 3.5's verification) with the peak RSS
 * growing by less than 32 MiB (the provider held the whole message before). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include "evp_fixture.h"
#include "stateful_evp.h"
#include "fastsig_err.h"

typedef struct {
    const char *alg, *param;
    size_t seedlen;       /* 3n (XMSS, WOTSP) or n + 16 (HSS) */
    size_t idx_bytes;     /* where the index sits (HSS: u32str(L-1) first) */
} row;

static const row rows[] = {
    { "XMSS", "XMSS-SHA2_10_256", 96, 4 },
    { "XMSS", "XMSS-SHAKE_10_512", 192, 4 },
    { "XMSSMT", "XMSSMT-SHA2_20/4_256", 96, 3 },
    { "HSS", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8", 48, 0 },
    { "HSS", "LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4", 40, 0 },
    { "WOTSP", NULL, 96, 0 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static char *hexseed(size_t len)
{
    static char hex[2 * 192 + 1];
    for (size_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned)(i * 7 + 3) & 0xff);
    return hex;
}

static EVP_PKEY *key_of(const row *r)
{
    char state[600];
    EVP_PKEY *k = gen_key(r->alg, r->param, hexseed(r->seedlen), NULL, state, sizeof(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    return k;
}

/* Feeds msg to m in pieces cut at random points (update: sign or verify). */
static int feed(EVP_MD_CTX *m, int sign, const unsigned char *msg, size_t len)
{
    for (size_t at = 0, piece; at < len; at += piece) {
        piece = (size_t)(fs_test_rand64() % (len - at + 1));
        if ((sign ? EVP_DigestSignUpdate(m, msg + at, piece)
                  : EVP_DigestVerifyUpdate(m, msg + at, piece)) <= 0)
            return 0;
    }
    return 1;
}

/* The signature of msg streamed in random pieces (NULL on failure). */
static unsigned char *stream_sign(EVP_PKEY *k, const unsigned char *msg, size_t len, size_t *sl)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    unsigned char *sig = NULL;
    if (EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0 && feed(m, 1, msg, len)
        && EVP_DigestSignFinal(m, NULL, sl) > 0 && (sig = OPENSSL_malloc(*sl)) != NULL
        && EVP_DigestSignFinal(m, sig, sl) <= 0) {
        OPENSSL_free(sig);
        sig = NULL;
    }
    EVP_MD_CTX_free(m);
    return sig;
}

#if OPENSSL_VERSION_NUMBER >= 0x30500000L
/* OpenSSL 3.5: sign_message_update in random pieces (NULL on failure). */
static unsigned char *message_sign(EVP_PKEY *k, const unsigned char *msg, size_t len, size_t *sl)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
    EVP_SIGNATURE *alg = EVP_SIGNATURE_fetch(libctx, EVP_PKEY_get0_type_name(k), NULL);
    unsigned char *sig = NULL;
    int ok = c != NULL && alg != NULL && EVP_PKEY_sign_message_init(c, alg, NULL) > 0;
    for (size_t at = 0, piece; ok && at < len; at += piece) {
        piece = (size_t)(fs_test_rand64() % (len - at + 1));
        ok = EVP_PKEY_sign_message_update(c, msg + at, piece) > 0;
    }
    if (ok && EVP_PKEY_sign_message_final(c, NULL, sl) > 0 && (sig = OPENSSL_malloc(*sl)) != NULL
        && EVP_PKEY_sign_message_final(c, sig, sl) <= 0) {
        OPENSSL_free(sig);
        sig = NULL;
    }
    EVP_SIGNATURE_free(alg);
    EVP_PKEY_CTX_free(c);
    return sig;
}

/* OpenSSL 3.5: verify_message with the signature set before the data. */
static int stream_verify_sig_first(EVP_PKEY *k, const unsigned char *msg, size_t len,
                                   const unsigned char *sig, size_t sl, size_t chunk)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
    EVP_SIGNATURE *alg = EVP_SIGNATURE_fetch(libctx, EVP_PKEY_get0_type_name(k), NULL);
    OSSL_PARAM prm[2] = { OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE,
                                                            (void *)sig, sl),
                          OSSL_PARAM_construct_end() };
    int ok = c != NULL && alg != NULL && EVP_PKEY_verify_message_init(c, alg, prm) > 0;
    for (size_t at = 0, piece; ok && at < len; at += piece) {
        piece = chunk ? (len - at < chunk ? len - at : chunk)
                      : (size_t)(fs_test_rand64() % (len - at + 1));
        ok = EVP_PKEY_verify_message_update(c, msg + at, piece) > 0;
    }
    ok = ok && EVP_PKEY_verify_message_final(c) > 0;
    EVP_SIGNATURE_free(alg);
    EVP_PKEY_CTX_free(c);
    return ok;
}
#endif

static void test_equal_to_oneshot(void)
{
    static const size_t lens[] = { 0, 1, 64, 5000, 300001 };
    for (size_t r = 0; r < NROWS; r++) {
        EVP_PKEY *a = key_of(&rows[r]), *b = key_of(&rows[r]);
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
        EVP_PKEY *c = key_of(&rows[r]); /* 3.5's sign_message streams too */
#endif
        size_t tries = strcmp(rows[r].alg, "WOTSP") == 0 ? 1 : sizeof(lens) / sizeof(lens[0]);
        for (size_t i = 0; i < tries; i++) {
            size_t len = lens[tries == 1 ? 3 : i], sl = 0, ol = 0;
            unsigned char *msg = fs_test_buffer(len + 1), *one = NULL, *str;
            fs_test_random(msg, len);
            CU_ASSERT_EQUAL_FATAL(sign_msg(a, msg, len, &one, &ol, 0), 0);
            str = stream_sign(b, msg, len, &sl);
            CU_ASSERT_PTR_NOT_NULL_FATAL(str);
            CU_ASSERT(sl == ol && memcmp(one, str, sl) == 0);
            CU_ASSERT(verify_msg(a, msg, len, str, sl));
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
            unsigned char *msig = message_sign(c, msg, len, &sl);
            CU_ASSERT(msig != NULL && sl == ol && memcmp(one, msig, sl) == 0);
            OPENSSL_free(msig);
            CU_ASSERT(stream_verify_sig_first(b, msg, len, one, ol, 0));
            msg[len / 2] ^= (unsigned char)(len > 0);
            CU_ASSERT(len == 0 || !stream_verify_sig_first(b, msg, len, one, ol, 0));
            ERR_clear_error();
#endif
            OPENSSL_free(one);
            OPENSSL_free(str);
            free(msg);
        }
        EVP_PKEY_free(a);
        EVP_PKEY_free(b);
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
        EVP_PKEY_free(c);
#endif
    }
}

/* The index of a signature by k's row (HSS: the bottom level's q plus the
 * levels above, read as sig_index does for XMSS). */
static uint64_t index_of(const row *r, const unsigned char *sig)
{
    if (r->idx_bytes)
        return sig_index(sig, r->idx_bytes);
    /* HSS L=2 H5/H5: level 0's q (at 4), the bottom's q after level 0's
     * signature and the bottom public key */
    uint64_t top = sig_index(sig + 4, 4);
    size_t sl0 = 4 + 4 + 32 * (1 + 67) + 4 + 32 * 5, pub = 4 + 4 + 16 + 32;
    return top * 32 + sig_index(sig + 4 + sl0 + pub, 4);
}

static void test_abandoned_burns_one(void)
{
    const row *r = &rows[3]; /* HSS L = 2: spans its trees too */
    for (int kind = 0; kind < 2; kind++, r = &rows[0]) {
        EVP_PKEY *k = key_of(r);
        unsigned char *sig = NULL;
        size_t sl = 0;
        for (int round = 0; round < 3; round++) {
            EVP_MD_CTX *m = EVP_MD_CTX_new();
            CU_ASSERT_EQUAL_FATAL(sign_msg(k, "m", 1, &sig, &sl, 0), 0);
            uint64_t before = index_of(r, sig);
            OPENSSL_free(sig);
            /* an init without data spends nothing; the first update does */
            CU_ASSERT(EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0);
            CU_ASSERT(EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0);
            CU_ASSERT(EVP_DigestSignUpdate(m, "abandoned", 9) > 0);
            EVP_MD_CTX_free(m);
            CU_ASSERT_EQUAL_FATAL(sign_msg(k, "m", 1, &sig, &sl, 0), 0);
            CU_ASSERT_EQUAL(index_of(r, sig), before + 2);
            OPENSSL_free(sig);
        }
        EVP_PKEY_free(k);
    }
}

/* A context finished twice (OpenSSL 3.0 signs each final on a copy) and a
 * copied context sign once: the others are refused, no bytes out. */
static void test_copies_sign_once(void)
{
    EVP_PKEY *k = key_of(&rows[0]);
    EVP_MD_CTX *m = EVP_MD_CTX_new(), *c = EVP_MD_CTX_new();
    unsigned char sig[2500], sig2[2500];
    size_t sl = sizeof(sig);
    CU_ASSERT(EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0);
    CU_ASSERT(EVP_DigestSignUpdate(m, "once", 4) > 0);
    CU_ASSERT_FATAL(EVP_MD_CTX_copy_ex(c, m) > 0);
    CU_ASSERT(EVP_DigestSignUpdate(c, "and more", 8) > 0);
    CU_ASSERT_FATAL(EVP_DigestSignFinal(m, sig, &sl) > 0);
    CU_ASSERT(verify_msg(k, "once", 4, sig, sl));
    sl = sizeof(sig2);
    memset(sig2, 0, sizeof(sig2));
    CU_ASSERT(EVP_DigestSignFinal(m, sig2, &sl) <= 0);
    CU_ASSERT_EQUAL(last_reason(), FASTSIG_ERR_OTS_USED);
    sl = sizeof(sig2);
    CU_ASSERT(EVP_DigestSignFinal(c, sig2, &sl) <= 0);
    CU_ASSERT_EQUAL(last_reason(), FASTSIG_ERR_OTS_USED);
    for (size_t i = 0; i < sizeof(sig2); i++)
        CU_ASSERT_EQUAL_FATAL(sig2[i], 0);
    EVP_MD_CTX_free(m);
    EVP_MD_CTX_free(c);
    EVP_PKEY_free(k);
}

/* Peak resident memory (VmHWM) in KiB; reset resets it to the current RSS. */
static long peak_kib(int reset)
{
    char line[256];
    long v = -1;
    FILE *f;
    if (reset && (f = fopen("/proc/self/clear_refs", "w")) != NULL) {
        fputs("5", f);
        fclose(f);
    }
    if ((f = fopen("/proc/self/status", "r")) == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL)
        if (sscanf(line, "VmHWM: %ld kB", &v) == 1)
            break;
    fclose(f);
    return v;
}

#define BIG (256u << 20)
#define CHUNK (64u << 10)

static void test_big_message_constant_memory(void)
{
    const row *pick[] = { &rows[0], &rows[2], &rows[3] };
    unsigned char *chunk = fs_test_buffer(CHUNK);
    fs_test_random(chunk, CHUNK);
    for (size_t i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
        EVP_PKEY *k = key_of(pick[i]);
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        unsigned char sig[16384];
        size_t sl = sizeof(sig);
        long base = peak_kib(1);
        CU_ASSERT_FATAL(base > 0);
        CU_ASSERT(EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0);
        for (size_t at = 0; at < BIG; at += CHUNK)
            CU_ASSERT_FATAL(EVP_DigestSignUpdate(m, chunk, CHUNK) > 0);
        CU_ASSERT_FATAL(EVP_DigestSignFinal(m, sig, &sl) > 0);
        long grew = peak_kib(0) - base;
        if (grew >= 32 * 1024)
            fprintf(stderr, "\n%s: signing 256 MiB raised the peak RSS by %ld KiB\n",
                    pick[i]->param, grew);
        CU_ASSERT(grew < 32 * 1024);
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
        base = peak_kib(1);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
        EVP_SIGNATURE *alg = EVP_SIGNATURE_fetch(libctx, EVP_PKEY_get0_type_name(k), NULL);
        OSSL_PARAM prm[2] = { OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE,
                                                                sig, sl),
                              OSSL_PARAM_construct_end() };
        int ok = EVP_PKEY_verify_message_init(c, alg, prm) > 0;
        for (size_t at = 0; ok && at < BIG; at += CHUNK)
            ok = EVP_PKEY_verify_message_update(c, chunk, CHUNK) > 0;
        CU_ASSERT(ok && EVP_PKEY_verify_message_final(c) > 0);
        grew = peak_kib(0) - base;
        if (grew >= 32 * 1024)
            fprintf(stderr, "\n%s: verifying 256 MiB raised the peak RSS by %ld KiB\n",
                    pick[i]->param, grew);
        CU_ASSERT(grew < 32 * 1024);
        EVP_SIGNATURE_free(alg);
        EVP_PKEY_CTX_free(c);
#endif
        EVP_MD_CTX_free(m);
        EVP_PKEY_free(k);
    }
    free(chunk);
}

#if OPENSSL_VERSION_NUMBER >= 0x30500000L
/* The fastsig reason of the first error (3.5's EVP adds its own after). */
static int first_reason(void)
{
    unsigned long e = ERR_peek_error();
    ERR_clear_error();
    return e == 0 ? 0 : ERR_GET_REASON(e);
}

/* The signature set first is checked whole at the final: a malformed one
 * fails there (nothing was hashed), and a digest verify given another
 * signature at its final is refused. */
static void test_sig_first_refusals(void)
{
    EVP_PKEY *k = key_of(&rows[0]);
    unsigned char *sig = NULL;
    size_t sl = 0;
    CU_ASSERT_EQUAL_FATAL(sign_msg(k, "abc", 3, &sig, &sl, 0), 0);
    CU_ASSERT(stream_verify_sig_first(k, (const unsigned char *)"abc", 3, sig, sl, 1));
    CU_ASSERT(!stream_verify_sig_first(k, (const unsigned char *)"abc", 3, sig, sl - 1, 1));
    CU_ASSERT_EQUAL(first_reason(), FASTSIG_ERR_BAD_SIGNATURE);
    sig[0] = 0xff; /* an index past the key's */
    CU_ASSERT(!stream_verify_sig_first(k, (const unsigned char *)"abc", 3, sig, sl, 1));
    CU_ASSERT_EQUAL(first_reason(), FASTSIG_ERR_BAD_SIGNATURE);
    OPENSSL_free(sig);
    EVP_PKEY_free(k);
}
#endif

int main(void)
{
    static const fs_test tests[] = {
        { "load providers", stateful_load },
        { "streamed signatures are the one-shot path's, random splits", test_equal_to_oneshot },
        { "an abandoned context burns exactly one index", test_abandoned_burns_one },
        { "a context and its copies sign once", test_copies_sign_once },
        { "256 MiB signed (3.5: and verified) in constant memory",
          test_big_message_constant_memory },
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
        { "3.5: a malformed signature set first fails at the final", test_sig_first_refusals },
#endif
        { "unload providers", stateful_unload },
        { NULL, NULL },
    };
    return fs_cu_run("stream", tests);
}
