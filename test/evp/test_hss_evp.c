/* test_hss_evp.c - LMS / HSS through EVP only (the provider loaded by
 * path): keys from the published SEED and I give the published public
 * keys and, at the published q, the published signatures byte for byte;
 * RFC 8554's test cases 1 and 2 verify through a raw public key imported
 * with EVP_PKEY_fromdata; the SPKI is the OID with parameters absent around
 * the raw key; round trips for a set of each hash family and HSS L = 2
 * (the third signature at an index the state was moved to, signed by a key
 * decoded anew); tampering; an exhausted key; private PEM continuing the
 * state; the process, thread and SIGKILL checks of the stateful rows. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "hbs_evp.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "hbs_vec.h"

#define H5_W8(f, n) "LMS_" f "_M" n "_H5/LMOTS_" f "_N" n "_W8"

/* Published vectors with their top tree's SEED and I: the levels to
 * generate (tc2's lower level as published), and q of the published
 * signature when it is an L = 1 one (UINT64_MAX: not compared). */
static const struct {
    const char *file, *param;
    uint64_t q;
} kats[] = {
    { "rfc8554-tc2.txt", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4," H5_W8("SHA256", "32"),
      UINT64_MAX },
    { "LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8.txt", H5_W8("SHA256", "24"), 5 },
    { "LMS_SHAKE_M24_H5-LMOTS_SHAKE_N24_W8.txt", H5_W8("SHAKE", "24"), 6 },
    { "LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8.txt", H5_W8("SHAKE", "32"), 7 },
};

static hbs_vec *load(const char *file)
{
    char rel[128];
    snprintf(rel, sizeof(rel), "../lms/%s", file); /* hbs_vec reads under xmss/ */
    return hbs_vec_load(rel);
}

static void test_kat(void)
{
    for (size_t i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
        hbs_vec *v = load(kats[i].file);
        char seed[200], state[600];
        unsigned char pub[100], *want, *sig, *msg;
        size_t len = 0, wlen, siglen, mlen;
        EVP_PKEY *k;

        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        snprintf(seed, sizeof(seed), "%s%s", hbs_vec_get(v, "seed"), hbs_vec_get(v, "I"));
        k = gen_key(FASTSIG_SIG_HSS, kats[i].param, seed, NULL, state, sizeof(state));
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        want = hbs_vec_bytes(v, "pub", &wlen);
        CU_ASSERT(get_pub(k, pub, sizeof(pub), &len) && len == wlen
                  && memcmp(pub, want, wlen) == 0);
        free(want);
        msg = hbs_vec_bytes(v, "msg", &mlen);
        if (kats[i].q != UINT64_MAX) {
            CU_ASSERT_EQUAL_FATAL(state_jump(k, state, kats[i].q), FASTSIG_OK);
            CU_ASSERT_EQUAL_FATAL(sign_msg(k, msg, mlen, &sig, &siglen, 0), 0);
            want = hbs_vec_bytes(v, "sig", &wlen);
            CU_ASSERT(siglen == wlen && memcmp(sig, want, wlen) == 0);
            free(want);
            OPENSSL_free(sig);
        }
        free(msg);
        EVP_PKEY_free(k);
        hbs_vec_free(v);
    }
}

/* A raw RFC 8554 HSS public key as another implementation hands it over. */
static EVP_PKEY *import_pub(const unsigned char *pub, size_t len)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, FASTSIG_SIG_LMS, NULL);
    EVP_PKEY *k = NULL;
    OSSL_PARAM p[] = { OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                         (void *)pub, len),
                       OSSL_PARAM_construct_end() };
    if (c == NULL || EVP_PKEY_fromdata_init(c) != 1
        || EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, p) != 1)
        k = NULL;
    EVP_PKEY_CTX_free(c);
    return k;
}

/* Every published signature verifies under its raw public key, tampered
 * copies do not; the SPKI is SEQUENCE { SEQUENCE { OID }, BIT STRING {
 * raw key } } with the parameters absent. */
static void test_interop(void)
{
    static const char *const files[] = {
        "rfc8554-tc1.txt", "rfc8554-tc2.txt", "LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8.txt",
        "LMS_SHAKE_M24_H5-LMOTS_SHAKE_N24_W8.txt", "LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8.txt",
    };
    static const unsigned char oid[] = { 0x06, 0x0b, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
                                         0x01, 0x09, 0x10, 0x03, 0x11 };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        hbs_vec *v = load(files[i]);
        unsigned char *pub, *sig, *msg, *der = NULL;
        size_t plen, siglen, mlen;
        int dlen;
        EVP_PKEY *k;

        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        pub = hbs_vec_bytes(v, "pub", &plen);
        sig = hbs_vec_bytes(v, "sig", &siglen);
        msg = hbs_vec_bytes(v, "msg", &mlen);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k = import_pub(pub, plen));
        CU_ASSERT(verify_msg(k, msg, mlen, sig, siglen));
        sig[siglen / 3] ^= 1;
        CU_ASSERT(!verify_msg(k, msg, mlen, sig, siglen));
        dlen = i2d_PUBKEY(k, &der);
        CU_ASSERT_FATAL(dlen == (int)(2 + 2 + sizeof(oid) + 3 + plen));
        CU_ASSERT(der[2] == 0x30 && der[3] == sizeof(oid)
                  && memcmp(der + 4, oid, sizeof(oid)) == 0);
        CU_ASSERT(der[4 + sizeof(oid)] == 0x03 && der[5 + sizeof(oid)] == plen + 1
                  && der[6 + sizeof(oid)] == 0 && memcmp(der + 7 + sizeof(oid), pub, plen) == 0);
        OPENSSL_free(der);
        free(pub);
        free(sig);
        free(msg);
        EVP_PKEY_free(k);
        hbs_vec_free(v);
    }
}

/* The q of an L = 1 signature (after u32str(L-1)). */
static uint64_t lms_q(const unsigned char *sig)
{
    return sig_index(sig + 4, 4);
}

/* Signatures at 0 and 1, then at jump (the state moved there, the key
 * decoded anew from its PEM, so its trees are built at that index); each
 * verifies under the key and its public PEM, the first not when tampered. */
static void hss_round_trip(const char *param, uint64_t jump, unsigned L)
{
    char state[600], *pub, *priv;
    unsigned char *sig;
    size_t siglen;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, param, NULL, NULL, state, sizeof(state)), *pk;
    uint64_t one = 1;
    OSSL_PARAM b1[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &one),
                         OSSL_PARAM_construct_end() };

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT(EVP_PKEY_set_params(k, b1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pub = to_pem(k, 0));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pk = from_pem(pub, 0));
    CU_ASSERT_PTR_NOT_NULL_FATAL(priv = to_pem(k, 1));
    for (int i = 0; i < 3; i++) {
        if (i == 2) {
            EVP_PKEY_free(k);
            CU_ASSERT_PTR_NOT_NULL_FATAL(k = from_pem(priv, 1));
            CU_ASSERT(EVP_PKEY_set_params(k, b1));
            CU_ASSERT_EQUAL_FATAL(state_jump(k, state, jump), FASTSIG_OK);
        }
        CU_ASSERT_EQUAL_FATAL(sign_msg(k, param, strlen(param), &sig, &siglen, 0), 0);
        CU_ASSERT_EQUAL(sig_index(sig, 4), L - 1);
        if (L == 1)
            CU_ASSERT_EQUAL(lms_q(sig), i < 2 ? (uint64_t)i : jump);
        CU_ASSERT(verify_msg(k, param, strlen(param), sig, siglen));
        CU_ASSERT(verify_msg(pk, param, strlen(param), sig, siglen));
        if (i == 0)
            check_tamper(pk, param, sig, siglen);
        OPENSSL_free(sig);
    }
    CU_ASSERT_EQUAL(state_file_next(state), jump + 1);
    EVP_PKEY_free(pk);
    EVP_PKEY_free(k);
    OPENSSL_free(pub);
    OPENSSL_free(priv);
}

static void test_round_trips(void)
{
    hss_round_trip("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W1", 30, 1);
    hss_round_trip("LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W2", 30, 1);
    hss_round_trip("LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W4", 30, 1);
    hss_round_trip("LMS_SHAKE_M24_H10/LMOTS_SHAKE_N24_W8", 1000, 1);
    hss_round_trip("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", 1022, 1);
    /* L = 2 and 3: the jump lands under another top leaf than 0 and 1 */
    hss_round_trip("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
                   3 * 32 + 17, 2);
    hss_round_trip("LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4,LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4,"
                   "LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W2", 5 * 1024 + 7 * 32 + 9, 3);
}

/* The default set is one LMS level, H10 / W4; the sets and names refused. */
static void test_params(void)
{
    static const char *const bad[] = {
        "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W4", "LMS_SHA256_M32_H10/LMOTS_SHA256_N24_W4",
        "LMS_SHA256_M32_H10/LMOTS_SHAKE_N32_W4", "LMS_SHA256_M32_H11/LMOTS_SHA256_N32_W4",
        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W4",
        "LMS_SHA256_M32_H25/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H25/LMOTS_SHA256_N32_W4,"
        "LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W4", /* 65 levels of height: over the state's 63 */
        "", ",", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,", ",LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
    };
    char state[600];
    EVP_PKEY *k = gen_key(FASTSIG_SIG_LMS, NULL, NULL, NULL, state, sizeof(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_MAX), 1024);
    EVP_PKEY_free(k);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        k = gen_key(FASTSIG_SIG_HSS, bad[i], NULL, NULL, state, sizeof(state));
        CU_ASSERT_PTR_NULL(k);
        if (k != NULL)
            printf("\n  accepted: %s", bad[i]);
        EVP_PKEY_free(k);
        ERR_clear_error();
    }
    /* a seed of the wrong length */
    k = gen_key(FASTSIG_SIG_HSS, "LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8",
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", NULL,
                state, sizeof(state));
    CU_ASSERT_PTR_NULL(k);
    EVP_PKEY_free(k);
    ERR_clear_error();
}

/* 32 signatures of an H5 key, then KEY_EXHAUSTED, in this process and in
 * a key decoded anew. */
static void test_exhausted(void)
{
    char state[600], *pem;
    unsigned char *sig;
    size_t siglen;
    int bad = 0;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8", NULL, NULL,
                          state, sizeof(state));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    for (uint64_t i = 0; i < 32; i++) {
        if (sign_msg(k, "x", 1, &sig, &siglen, 0) != 0 || lms_q(sig) != i
            || !verify_msg(k, "x", 1, sig, siglen))
            bad++;
        OPENSSL_free(sig);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 0);
    CU_ASSERT_EQUAL(sign_msg(k, "x", 1, &sig, &siglen, 0), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    EVP_PKEY_free(k);
    check_decoded_refuses(pem, "x", 1, FASTSIG_ERR_KEY_EXHAUSTED);
    OPENSSL_free(pem);
}

/* The private key pem with one bit of its core flipped, back bytes before
 * the state path: PKCS#8 ends with the privateKey, whose core ends
 * ... || SEED || T[1], then BE16(path length) || path. */
static char *flip_core(const char *pem, const char *state, size_t back)
{
    char *name = NULL, *hdr = NULL, *data, *out = NULL;
    unsigned char *der = NULL;
    long len = 0, dlen;
    BIO *in = BIO_new_mem_buf(pem, -1), *mem = BIO_new(BIO_s_mem());

    if (in != NULL && mem != NULL && PEM_read_bio(in, &name, &hdr, &der, &len) == 1) {
        der[len - 2 - (long)strlen(state) - (long)back] ^= 1;
        if (PEM_write_bio(mem, name, hdr, der, len) > 0
            && (dlen = BIO_get_mem_data(mem, &data)) > 0)
            out = OPENSSL_strndup(data, (size_t)dlen);
    }
    BIO_free(in);
    BIO_free(mem);
    OPENSSL_free(name);
    OPENSSL_free(hdr);
    OPENSSL_free(der);
    return out;
}

/* A private key whose SEED does not give its T[1] (either one damaged; a
 * damaged SEED keeps the key id, so its state opens): refused at the first
 * signature, before an index is spent. */
static void test_mismatch(void)
{
    static const size_t back[] = { 1, 32 + 1 }; /* T[1]'s last byte, SEED's last byte */
    char state[600], *pem, *bad;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4", NULL, NULL,
                          state, sizeof(state));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    EVP_PKEY_free(k);
    for (size_t i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(bad = flip_core(pem, state, back[i]));
        check_decoded_refuses(bad, "m", 1, FASTSIG_ERR_KEY_MISMATCH);
        CU_ASSERT_EQUAL(state_file_next(state), 0);
        OPENSSL_free(bad);
    }
    OPENSSL_free(pem);
}

/* Raw public keys that are not HSS keys: L of 0 or 9, unknown or
 * mismatched types, a wrong length. */
static void test_bad_pub(void)
{
    static const char good[] = "00000001000000060000000300112233445566778899aabbccddeeff"
                               "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    static const struct { size_t at; const char *hex; } bad[] = {
        { 0, "00000000" }, { 0, "00000009" }, { 4, "00000001" }, { 4, "00000019" },
        { 8, "00000000" }, { 8, "00000009" }, /* SHAKE LM-OTS under a SHA-256 tree */
    };
    unsigned char raw[60];
    long len;
    unsigned char *b = OPENSSL_hexstr2buf(good, &len);
    EVP_PKEY *k;

    CU_ASSERT_FATAL(b != NULL && len == 60);
    CU_ASSERT_PTR_NOT_NULL(k = import_pub(b, 60));
    EVP_PKEY_free(k);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        long l;
        unsigned char *v = OPENSSL_hexstr2buf(bad[i].hex, &l);
        memcpy(raw, b, 60);
        memcpy(raw + bad[i].at, v, 4);
        CU_ASSERT_PTR_NULL(k = import_pub(raw, 60));
        EVP_PKEY_free(k);
        OPENSSL_free(v);
    }
    CU_ASSERT_PTR_NULL(k = import_pub(b, 59));
    EVP_PKEY_free(k);
    ERR_clear_error();
    OPENSSL_free(b);
}

static void test_batches(void)
{
    check_batches(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4");
}

/* L = 1 keys: a signature's first 8 bytes, u32str(0) || u32str(q), are its
 * index for the process checks. H15: room for their reservation blocks; W1:
 * the cheapest leaves, as every signer process builds the tree anew. */
static void test_proc_key(void)
{
    proc_key_make(FASTSIG_SIG_HSS, "LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W1", 32768, 8,
                  soak() ? 100 : 30, soak() ? 300 : 20);
}

/* ---- the node cache file beside the state ---- */

/* Replaces the file at path with len bytes. */
static void put_file(const char *path, const unsigned char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT(fwrite(b, 1, len, f) == len);
    fclose(f);
}

/* The cache file's bytes and mtime (ns) now. */
typedef struct {
    unsigned char *b;
    size_t len;
    struct timespec mtime;
} cache_snap;

static void snap(const char *cache, cache_snap *s)
{
    struct stat st;
    free(s->b);
    s->b = read_file(cache, &s->len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->b);
    CU_ASSERT_FATAL(stat(cache, &st) == 0);
    s->mtime = st.st_mtim;
}

static int untouched(const char *cache, const cache_snap *s)
{
    struct stat st;
    size_t len;
    unsigned char *b = read_file(cache, &len);
    int same = b != NULL && len == s->len && memcmp(b, s->b, len) == 0 && stat(cache, &st) == 0
               && st.st_mtim.tv_sec == s->mtime.tv_sec && st.st_mtim.tv_nsec == s->mtime.tv_nsec;
    free(b);
    return same;
}

/* A key decoded from pem signs one message (verified) and is freed. */
static void sign_once(const char *pem, const char *msg)
{
    unsigned char *sig = NULL;
    size_t siglen = 0;
    EVP_PKEY *k = from_pem(pem, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL_FATAL(sign_msg(k, msg, strlen(msg), &sig, &siglen, 0), 0);
    CU_ASSERT(verify_msg(k, msg, strlen(msg), sig, siglen));
    OPENSSL_free(sig);
    EVP_PKEY_free(k);
}

/* Signs once with a key decoded from pem: 1 when that rewrote the cache
 * file (bytes or mtime moved). */
static int sign_rewrites(const char *pem, const char *cache, const char *msg)
{
    cache_snap s = { NULL, 0, { 0, 0 } };
    snap(cache, &s);
    sign_once(pem, msg);
    int moved = !untouched(cache, &s);
    free(s.b);
    return moved;
}

/* Keygen writes the cache file. A key decoded anew builds its trees from
 * it: a key that had to build them rewrites the file when freed, so a file
 * left untouched by a signature (bytes and mtime) is a key that built
 * nothing. A damaged or another key's file is ignored (the signature
 * verifies) and replaced; moving to another bottom tree rewrites it. */
static void test_cache_file(void)
{
    static const char param[] =
        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4";
    char state[600], other[600], cache[640], ocache[640], *pem;
    unsigned char *b;
    size_t len;
    EVP_PKEY *k = gen_key(FASTSIG_SIG_HSS, param, NULL, NULL, state, sizeof(state));
    EVP_PKEY *ok = gen_key(FASTSIG_SIG_HSS, param, NULL, NULL, other, sizeof(other));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ok);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    EVP_PKEY_free(k);
    EVP_PKEY_free(ok);
    snprintf(cache, sizeof(cache), "%s.cache", state);
    snprintf(ocache, sizeof(ocache), "%s.cache", other);
    CU_ASSERT(!sign_rewrites(pem, cache, "warm")); /* built from the file */
    /* damaged: ignored, rebuilt, replaced by one the next signer uses */
    CU_ASSERT_PTR_NOT_NULL_FATAL(b = read_file(cache, &len));
    b[len / 2] ^= 1;
    put_file(cache, b, len);
    free(b);
    CU_ASSERT(sign_rewrites(pem, cache, "damaged"));
    CU_ASSERT(!sign_rewrites(pem, cache, "repaired"));
    /* another key's file: ignored, replaced */
    CU_ASSERT_PTR_NOT_NULL_FATAL(b = read_file(ocache, &len));
    put_file(cache, b, len);
    free(b);
    CU_ASSERT(sign_rewrites(pem, cache, "foreign"));
    /* the state moved to another bottom tree: the file follows */
    CU_ASSERT_PTR_NOT_NULL_FATAL(k = from_pem(pem, 1));
    CU_ASSERT_EQUAL_FATAL(state_jump(k, state, 3 * 32 + 5), FASTSIG_OK);
    EVP_PKEY_free(k);
    CU_ASSERT(sign_rewrites(pem, cache, "moved"));
    CU_ASSERT(!sign_rewrites(pem, cache, "moved, warm"));
    OPENSSL_free(pem);
}

static const fs_test tests[] = {
    { "load provider", hbs_load },
    { "known answers: published public keys and signatures from SEED and I", test_kat },
    { "RFC 8554 and draft vectors verify through a raw public key; SPKI", test_interop },
    { "round trips, each hash family, L = 1..3, at a moved index", test_round_trips },
    { "default set; bad sets and seeds refused", test_params },
    { "an exhausted H5 key refuses", test_exhausted },
    { "a private key whose SEED and T[1] disagree refused before spending", test_mismatch },
    { "raw public keys that are not HSS keys refused", test_bad_pub },
    { "reservation blocks and give-back", test_batches },
    { "key for the process checks", test_proc_key },
    { "node cache file: written, used, damaged or foreign ignored, follows the trees",
      test_cache_file },
    { NULL, NULL }
};

int main(void)
{
    return hbs_cu_run("hss_evp", tests);
}
