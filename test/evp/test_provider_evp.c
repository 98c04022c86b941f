/* test_provider_evp.c - the generic provider glue, through EVP only: every
 * signature algorithm the loaded provider offers (a row of the descriptor
 * table whose adapter is built) goes through the same checks: keygen with
 * progress, key params, one-shot and streaming sign/verify, dupctx and
 * EVP_PKEY_dup sharing one state, PKCS#8/SPKI DER/PEM and encrypted PEM round
 * trips, import/export, match, text, AlgorithmIdentifier, and malformed
 * input. Algorithms whose adapter is not built are reported and skipped. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/provider.h>
#include <openssl/core_names.h>
#include <openssl/core_dispatch.h>
#include <openssl/encoder.h>
#include <openssl/decoder.h>
#include "testutil.h"
#include "fastsig/provider.h"
#include "evp_fixture.h"

static char statedir[] = "/tmp/fs_provider_evp_XXXXXX";

/* Per algorithm: what a test must say at generation (test-side data only). */
struct alg {
    const char *name, *oid;
    const char *gen[2][2];   /* name/value pairs for EVP_PKEY_CTX_set_params */
    int stateful;
    const char *default_md;  /* digest-then-sign rows: their default digest */
    EVP_PKEY *key;           /* generated once */
    int reachable;
    char state[256];         /* state file of the last key generated */
};

static struct alg algs[] = {
    { .name = FASTSIG_SIG_RW, .oid = "2.25.77497230020247565797983039438780865004.2",
      .gen = { { "bits", "2048" } } },
    { .name = FASTSIG_SIG_RW_P1363, .oid = "2.25.77497230020247565797983039438780865004.2.1",
      .gen = { { "bits", "2048" } }, .default_md = "SHA256" },
    { .name = FASTSIG_SIG_WOTSP, .oid = "2.25.77497230020247565797983039438780865004.1",
      .stateful = 1 },
    { .name = FASTSIG_SIG_XMSS, .oid = "1.3.6.1.5.5.7.6.34",
      .gen = { { "param", "XMSS-SHA2_10_256" } }, .stateful = 1 },
    { .name = FASTSIG_SIG_XMSSMT, .oid = "1.3.6.1.5.5.7.6.35",
      .gen = { { "param", "XMSSMT-SHA2_20/4_256" } }, .stateful = 1 },
    { .name = FASTSIG_SIG_HSS, .oid = "1.2.840.113549.1.9.16.3.17",
      .gen = { { "param", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,"
                          "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4" } }, .stateful = 1 },
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))
#define FOR_EACH_ALG(a) \
    for (struct alg *a = algs; a < algs + NALGS; a++) if (a->reachable)

static const unsigned char msg[] = "fastsig generic glue: the message is signed whole";

static int progress_calls;
static int count_progress(EVP_PKEY_CTX *ctx)
{
    progress_calls++;
    return 1;
}

static EVP_PKEY *gen_key(struct alg *a)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, NULL);
    EVP_PKEY *k = NULL;
    OSSL_PARAM params[4];
    char state[256];
    static int serial;
    size_t n = 0;

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0)
        goto done;
    for (size_t i = 0; i < 2 && a->gen[i][0] != NULL; i++)
        params[n++] = OSSL_PARAM_construct_utf8_string(a->gen[i][0], (char *)a->gen[i][1], 0);
    if (a->stateful) {
        snprintf(state, sizeof(state), "%s/%s-%d.state", statedir, a->name, serial++);
        memcpy(a->state, state, sizeof(state));
        params[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0);
    }
    params[n] = OSSL_PARAM_construct_end();
    if (!EVP_PKEY_CTX_set_params(ctx, params))
        goto done;
    EVP_PKEY_CTX_set_cb(ctx, count_progress);
    if (EVP_PKEY_generate(ctx, &k) <= 0)
        k = NULL;
done:
    if (k == NULL)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(ctx);
    return k;
}

/* A key of a that can still sign `need` times (one-time keys: a fresh one). */
static EVP_PKEY *signing_key(struct alg *a, uint64_t need)
{
    if (!a->stateful || evp_remaining(a->key) >= need) {
        EVP_PKEY_up_ref(a->key);
        return a->key;
    }
    return gen_key(a);
}

static int sign_msg(EVP_PKEY *k, const unsigned char *m, size_t ml, unsigned char **sig,
                    size_t *siglen)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = 0;

    *sig = NULL;
    if (ctx != NULL && EVP_DigestSignInit_ex(ctx, NULL, NULL, libctx, NULL, k, NULL) == 1
        && EVP_DigestSign(ctx, NULL, siglen, m, ml) == 1
        && (*sig = OPENSSL_malloc(*siglen)) != NULL
        && EVP_DigestSign(ctx, *sig, siglen, m, ml) == 1)
        ok = 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

static int verify_msg(EVP_PKEY *k, const unsigned char *m, size_t ml,
                      const unsigned char *sig, size_t siglen)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx != NULL
             && EVP_DigestVerifyInit_ex(ctx, NULL, NULL, libctx, NULL, k, NULL) == 1
             && EVP_DigestVerify(ctx, sig, siglen, m, ml) == 1;
    EVP_MD_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

/* ---- tests ---- */

static void test_load(void)
{
    evp_load(1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(statedir));
    int any = 0;
    for (size_t i = 0; i < NALGS; i++) {
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(libctx, algs[i].name, NULL);
        EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(libctx, algs[i].name, NULL);
        ERR_clear_error();
        algs[i].reachable = km != NULL;
        CU_ASSERT((km != NULL) == (sig != NULL)); /* a row brings both */
        if (km != NULL) {
            /* the OID is one of its names */
            EVP_KEYMGMT *byoid = EVP_KEYMGMT_fetch(libctx, algs[i].oid, NULL);
            CU_ASSERT_PTR_NOT_NULL(byoid);
            EVP_KEYMGMT_free(byoid);
            any = 1;
        } else {
            printf("\n  (%s not built into this provider: skipped)", algs[i].name);
        }
        EVP_KEYMGMT_free(km);
        EVP_SIGNATURE_free(sig);
    }
    CU_ASSERT(any);
}

static void test_keygen(void)
{
    FOR_EACH_ALG(a) {
        progress_calls = 0;
        a->key = gen_key(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a->key);
        CU_ASSERT(progress_calls > 0);
        CU_ASSERT(EVP_PKEY_is_a(a->key, a->name));
        CU_ASSERT(EVP_PKEY_is_a(a->key, a->oid));
    }
    /* unknown parameters / bad values are refused, with a fastsig reason */
    FOR_EACH_ALG(a) {
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, NULL);
        EVP_PKEY *k = NULL;
        OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SEED, "xyz", 0),
                           OSSL_PARAM_construct_end() };
        CU_ASSERT(EVP_PKEY_keygen_init(ctx) == 1);
        CU_ASSERT(!EVP_PKEY_CTX_set_params(ctx, p) || EVP_PKEY_generate(ctx, &k) <= 0);
        CU_ASSERT(ERR_peek_error() != 0);
        ERR_clear_error();
        EVP_PKEY_free(k);
        EVP_PKEY_CTX_free(ctx);
    }
}

static void test_params(void)
{
    FOR_EACH_ALG(a) {
        int bits = 0, sec = 0, maxsz = 0;
        char md[32] = "x";
        OSSL_PARAM p[] = {
            OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_BITS, &bits),
            OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_SECURITY_BITS, &sec),
            OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_MAX_SIZE, &maxsz),
            OSSL_PARAM_construct_end()
        };
        CU_ASSERT_FATAL(EVP_PKEY_get_params(a->key, p));
        CU_ASSERT(bits > 0 && sec >= 112 && maxsz > 0);
        CU_ASSERT_EQUAL(EVP_PKEY_get_size(a->key), maxsz);
        /* signed whole: no digest, mandatorily ("UNDEF", 2); RW-P1363: its default (1) */
        if (a->default_md != NULL) {
            CU_ASSERT_EQUAL(EVP_PKEY_get_default_digest_name(a->key, md, sizeof(md)), 1);
            CU_ASSERT_STRING_EQUAL(md, a->default_md);
        } else {
            CU_ASSERT_EQUAL(EVP_PKEY_get_default_digest_name(a->key, md, sizeof(md)), 2);
            CU_ASSERT_STRING_EQUAL(md, "UNDEF");
        }
        if (a->stateful) {
            uint64_t idx = 0, rem = 0, max = 0;
            OSSL_PARAM s[] = {
                OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_INDEX, &idx),
                OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_REMAINING, &rem),
                OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_MAX, &max),
                OSSL_PARAM_construct_end()
            };
            CU_ASSERT(EVP_PKEY_get_params(a->key, s));
            CU_ASSERT(max > 0 && idx + rem == max);
        }
        /* the public key as an octet string */
        unsigned char pub[8192];
        size_t publen = 0;
        CU_ASSERT(EVP_PKEY_get_octet_string_param(a->key, OSSL_PKEY_PARAM_PUB_KEY, pub,
                                                  sizeof(pub), &publen));
        CU_ASSERT(publen > 0);
    }
}

static void test_sign_verify(void)
{
    FOR_EACH_ALG(a) {
        EVP_PKEY *k = signing_key(a, 3);
        unsigned char *sig = NULL, *big;
        size_t siglen = 0;

        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_FATAL(sign_msg(k, msg, sizeof(msg), &sig, &siglen));
        CU_ASSERT(verify_msg(k, msg, sizeof(msg), sig, siglen));
        /* wrong message, flipped bits, truncated and extended signatures */
        CU_ASSERT(!verify_msg(k, msg, sizeof(msg) - 1, sig, siglen));
        for (size_t pos = 0; pos < siglen; pos += siglen / 7 + 1) {
            sig[pos] ^= 0x01;
            CU_ASSERT(!verify_msg(k, msg, sizeof(msg), sig, siglen));
            sig[pos] ^= 0x01;
        }
        CU_ASSERT(!verify_msg(k, msg, sizeof(msg), sig, siglen - 1));
        CU_ASSERT(!verify_msg(k, msg, sizeof(msg), sig, 0));
        big = OPENSSL_malloc(siglen + 1);
        memcpy(big, sig, siglen);
        big[siglen] = 0;
        CU_ASSERT(!verify_msg(k, msg, sizeof(msg), big, siglen + 1));
        OPENSSL_free(big);

        /* streaming verify of the one-shot signature, in uneven pieces */
        EVP_MD_CTX *v = EVP_MD_CTX_new();
        CU_ASSERT(EVP_DigestVerifyInit_ex(v, NULL, NULL, libctx, NULL, k, NULL) == 1);
        CU_ASSERT(EVP_DigestVerifyUpdate(v, msg, 5) == 1);
        CU_ASSERT(EVP_DigestVerifyUpdate(v, msg + 5, 0) == 1);
        CU_ASSERT(EVP_DigestVerifyUpdate(v, msg + 5, sizeof(msg) - 5) == 1);
        CU_ASSERT(EVP_DigestVerifyFinal(v, sig, siglen) == 1);
        EVP_MD_CTX_free(v);

        /* EVP_PKEY_sign / EVP_PKEY_verify: the input is the message itself */
        if (!a->stateful || evp_remaining(k) > 0) {
            EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
            unsigned char *s2;
            size_t l2 = 0;
            CU_ASSERT(EVP_PKEY_sign_init(pc) == 1);
            CU_ASSERT(EVP_PKEY_sign(pc, NULL, &l2, msg, sizeof(msg)) == 1);
            s2 = OPENSSL_malloc(l2);
            CU_ASSERT(EVP_PKEY_sign(pc, s2, &l2, msg, sizeof(msg)) == 1);
            CU_ASSERT(EVP_PKEY_verify_init(pc) == 1);
            CU_ASSERT(EVP_PKEY_verify(pc, s2, l2, msg, sizeof(msg)) == 1);
            CU_ASSERT(verify_msg(k, msg, sizeof(msg), s2, l2));
            OPENSSL_free(s2);
            EVP_PKEY_CTX_free(pc);
        }
        OPENSSL_free(sig);
        EVP_PKEY_free(k);
    }
}

/* OpenSSL 3.0's `dgst -sign` and `pkeyutl -rawin`: streaming plus dupctx. A
 * copied context must not reuse a stateful index: a stateful row spent one
 * at the first update and hashed the message as it came, so the copy shares
 * it and exactly one of the two finals signs; other rows sign both. */
static void test_streaming_dupctx(void)
{
    FOR_EACH_ALG(a) {
        EVP_PKEY *k = signing_key(a, 2);
        EVP_MD_CTX *c1 = EVP_MD_CTX_new(), *c2 = EVP_MD_CTX_new();
        unsigned char *s1, *s2;
        size_t l1 = 0, l2 = 0;
        uint64_t before = a->stateful ? evp_remaining(k) : 0;
        int ok1, ok2;

        CU_ASSERT_FATAL(EVP_DigestSignInit_ex(c1, NULL, NULL, libctx, NULL, k, NULL) == 1);
        CU_ASSERT(EVP_DigestSignUpdate(c1, msg, 10) == 1);
        CU_ASSERT(EVP_MD_CTX_copy_ex(c2, c1) == 1);
        CU_ASSERT(EVP_DigestSignUpdate(c1, msg + 10, sizeof(msg) - 10) == 1);
        CU_ASSERT(EVP_DigestSignUpdate(c2, msg + 10, sizeof(msg) - 10) == 1);
        CU_ASSERT(EVP_DigestSignFinal(c1, NULL, &l1) == 1);
        l2 = l1;
        s1 = OPENSSL_malloc(l1);
        s2 = OPENSSL_malloc(l2);
        ok1 = EVP_DigestSignFinal(c1, s1, &l1) == 1;
        ok2 = EVP_DigestSignFinal(c2, s2, &l2) == 1;
        ERR_clear_error();
        if (a->stateful) { /* one index spent, one signature */
            CU_ASSERT(ok1 + ok2 == 1);
            CU_ASSERT_EQUAL(evp_remaining(k), before - 1);
        } else {
            CU_ASSERT(ok1 && ok2);
            CU_ASSERT(verify_msg(k, msg, sizeof(msg), s2, l2));
        }
        if (ok1)
            CU_ASSERT(verify_msg(k, msg, sizeof(msg), s1, l1));
        OPENSSL_free(s1);
        OPENSSL_free(s2);
        EVP_MD_CTX_free(c1);
        EVP_MD_CTX_free(c2);
        EVP_PKEY_free(k);
    }
}

#ifdef OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT
/* OpenSSL 3.5's message signing: EVP_PKEY_sign_message_init with the row's
 * signature algorithm, one-shot (EVP_PKEY_sign over the whole message) and
 * streamed (update in pieces, final); verification the same two ways, the
 * streamed one with the signature set first (EVP_PKEY_CTX_set_signature).
 * Each signature also verifies through EVP_DigestVerify, and a changed piece
 * of the message, a flipped signature bit or a missing signature fail. */
static int msg_sign(EVP_PKEY *k, EVP_SIGNATURE *alg, int pieces, unsigned char **sig,
                    size_t *siglen)
{
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
    int ok = pc != NULL && EVP_PKEY_sign_message_init(pc, alg, NULL) == 1;

    *sig = NULL;
    *siglen = 0;
    if (ok && pieces == 0) {
        ok = EVP_PKEY_sign(pc, NULL, siglen, msg, sizeof(msg)) == 1
             && (*sig = OPENSSL_malloc(*siglen)) != NULL
             && EVP_PKEY_sign(pc, *sig, siglen, msg, sizeof(msg)) == 1;
    } else if (ok) {
        size_t step = sizeof(msg) / pieces + 1;
        for (size_t off = 0; ok && off < sizeof(msg); off += step)
            ok = EVP_PKEY_sign_message_update(pc, msg + off,
                                              off + step > sizeof(msg) ? sizeof(msg) - off
                                                                       : step) == 1;
        ok = ok && EVP_PKEY_sign_message_final(pc, NULL, siglen) == 1
             && (*sig = OPENSSL_malloc(*siglen)) != NULL
             && EVP_PKEY_sign_message_final(pc, *sig, siglen) == 1;
    }
    if (!ok) { /* nothing of a refused signature is kept */
        OPENSSL_free(*sig);
        *sig = NULL;
    }
    EVP_PKEY_CTX_free(pc);
    ERR_clear_error();
    return ok;
}

/* 1 when the streamed message (with byte `bad` changed, if < sizeof(msg)) verifies. */
static int msg_verify(EVP_PKEY *k, EVP_SIGNATURE *alg, const unsigned char *sig,
                      size_t siglen, size_t bad, int set_sig)
{
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
    unsigned char m[sizeof(msg)];
    int ok;

    memcpy(m, msg, sizeof(m));
    if (bad < sizeof(m))
        m[bad] ^= 0x20;
    ok = pc != NULL && EVP_PKEY_verify_message_init(pc, alg, NULL) == 1
         && (!set_sig || EVP_PKEY_CTX_set_signature(pc, sig, siglen) == 1)
         && EVP_PKEY_verify_message_update(pc, m, 7) == 1
         && EVP_PKEY_verify_message_update(pc, m + 7, sizeof(m) - 7) == 1
         && EVP_PKEY_verify_message_final(pc) == 1;
    EVP_PKEY_CTX_free(pc);
    ERR_clear_error();
    return ok;
}

static void test_message_api(void)
{
    FOR_EACH_ALG(a) {
        EVP_SIGNATURE *alg = EVP_SIGNATURE_fetch(libctx, a->name, NULL);
        EVP_PKEY *k = signing_key(a, 2);
        unsigned char *sig;
        size_t siglen;

        CU_ASSERT_PTR_NOT_NULL_FATAL(alg);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        for (int pieces = 0; pieces <= 3; pieces += 3) {
            if (a->stateful && evp_remaining(k) == 0) { /* one-time key: a fresh one */
                EVP_PKEY_free(k);
                CU_ASSERT_PTR_NOT_NULL_FATAL(k = gen_key(a));
            }
            CU_ASSERT_FATAL(msg_sign(k, alg, pieces, &sig, &siglen));
            CU_ASSERT(verify_msg(k, msg, sizeof(msg), sig, siglen));
            CU_ASSERT(msg_verify(k, alg, sig, siglen, sizeof(msg), 1));
            CU_ASSERT(!msg_verify(k, alg, sig, siglen, 3, 1));
            CU_ASSERT(!msg_verify(k, alg, sig, siglen, sizeof(msg) - 2, 1));
            CU_ASSERT(!msg_verify(k, alg, sig, siglen, sizeof(msg), 0));
            sig[siglen / 2] ^= 0x01;
            CU_ASSERT(!msg_verify(k, alg, sig, siglen, sizeof(msg), 1));
            sig[siglen / 2] ^= 0x01;
            /* one-shot verification of the whole message */
            EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
            CU_ASSERT(EVP_PKEY_verify_message_init(pc, alg, NULL) == 1);
            CU_ASSERT(EVP_PKEY_verify(pc, sig, siglen, msg, sizeof(msg)) == 1);
            CU_ASSERT(EVP_PKEY_verify(pc, sig, siglen, msg, sizeof(msg) - 1) != 1);
            ERR_clear_error();
            EVP_PKEY_CTX_free(pc);
            OPENSSL_free(sig);
        }
        if (a->stateful) { /* an exhausted one-time key refuses, nothing leaves */
            EVP_PKEY *w = gen_key(a);
            if (w != NULL && evp_remaining(w) == 1) {
                CU_ASSERT(msg_sign(w, alg, 0, &sig, &siglen));
                OPENSSL_free(sig);
                CU_ASSERT(!msg_sign(w, alg, 3, &sig, &siglen));
            }
            EVP_PKEY_free(w);
        }
        EVP_PKEY_free(k);
        EVP_SIGNATURE_free(alg);
    }
}
#endif

/* EVP_PKEY_dup shares the key's state; a public copy cannot sign. */
static void test_dup_match(void)
{
    FOR_EACH_ALG(a) {
        EVP_PKEY *k = signing_key(a, 1), *d = EVP_PKEY_dup(k), *other = gen_key(a);
        unsigned char *sig = NULL;
        size_t siglen = 0;

        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(other);
        CU_ASSERT_EQUAL(EVP_PKEY_eq(k, d), 1);
        CU_ASSERT_NOT_EQUAL(EVP_PKEY_eq(k, other), 1);
        uint64_t before = a->stateful ? evp_remaining(k) : 0;
        CU_ASSERT(sign_msg(d, msg, sizeof(msg), &sig, &siglen));
        CU_ASSERT(verify_msg(k, msg, sizeof(msg), sig, siglen));
        if (a->stateful)
            CU_ASSERT_EQUAL(evp_remaining(k), before - 1); /* one counter */
        OPENSSL_free(sig);
        ERR_clear_error();
        EVP_PKEY_free(d);
        EVP_PKEY_free(other);
        EVP_PKEY_free(k);
    }
}

static unsigned char *encode(EVP_PKEY *k, int selection, const char *type,
                             const char *structure, const char *cipher, size_t *len)
{
    OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(k, selection, type, structure, NULL);
    unsigned char *out = NULL;

    *len = 0;
    if (e == NULL || OSSL_ENCODER_CTX_get_num_encoders(e) == 0)
        goto done;
    if (cipher != NULL
        && (!OSSL_ENCODER_CTX_set_cipher(e, cipher, NULL)
            || !OSSL_ENCODER_CTX_set_passphrase(e, (const unsigned char *)"secret", 6)))
        goto done;
    if (!OSSL_ENCODER_to_data(e, &out, len))
        out = NULL;
done:
    OSSL_ENCODER_CTX_free(e);
    return out;
}

static EVP_PKEY *decode(const unsigned char *in, size_t len, const char *type,
                        int selection, const char *pass)
{
    EVP_PKEY *k = NULL;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&k, type, NULL, NULL, selection,
                                                        libctx, NULL);
    if (d != NULL && pass != NULL)
        OSSL_DECODER_CTX_set_passphrase(d, (const unsigned char *)pass, strlen(pass));
    if (d == NULL || !OSSL_DECODER_from_data(d, &in, &len))
        k = NULL;
    OSSL_DECODER_CTX_free(d);
    return k;
}

static void check_roundtrip(struct alg *a, const char *type, const char *structure,
                            const char *cipher)
{
    int priv = strcmp(structure, "SubjectPublicKeyInfo") != 0;
    int sel = priv ? OSSL_KEYMGMT_SELECT_KEYPAIR : OSSL_KEYMGMT_SELECT_PUBLIC_KEY;
    size_t len;
    unsigned char *enc = encode(a->key, sel, type, structure, cipher, &len);
    EVP_PKEY *k;

    CU_ASSERT_PTR_NOT_NULL_FATAL(enc);
    if (strcmp(type, "PEM") == 0) {
        const char *want = cipher ? "-----BEGIN ENCRYPTED PRIVATE KEY-----"
                           : priv ? "-----BEGIN PRIVATE KEY-----" : "-----BEGIN PUBLIC KEY-----";
        CU_ASSERT(len > strlen(want) && memcmp(enc, want, strlen(want)) == 0);
    }
    k = decode(enc, len, type, sel, cipher ? "secret" : NULL);
    CU_ASSERT_PTR_NOT_NULL(k);
    if (k != NULL) {
        CU_ASSERT(EVP_PKEY_is_a(k, a->name));
        CU_ASSERT_EQUAL(EVP_PKEY_eq(k, a->key), 1);
        /* the decoded public key verifies what the original signs (while it can) */
        unsigned char *sig;
        size_t siglen;
        if (!priv && (!a->stateful || evp_remaining(a->key) > 0)) {
            CU_ASSERT(sign_msg(a->key, msg, sizeof(msg), &sig, &siglen));
            CU_ASSERT(verify_msg(k, msg, sizeof(msg), sig, siglen));
            OPENSSL_free(sig);
        }
        EVP_PKEY_free(k);
    }
    if (cipher != NULL) { /* wrong passphrase: no key */
        k = decode(enc, len, type, sel, "wrong");
        CU_ASSERT_PTR_NULL(k);
        EVP_PKEY_free(k);
        ERR_clear_error();
    }
    OPENSSL_free(enc);
}

static void test_encode_decode(void)
{
    FOR_EACH_ALG(a) {
        check_roundtrip(a, "DER", "PrivateKeyInfo", NULL);
        check_roundtrip(a, "PEM", "PrivateKeyInfo", NULL);
        check_roundtrip(a, "DER", "SubjectPublicKeyInfo", NULL);
        check_roundtrip(a, "PEM", "SubjectPublicKeyInfo", NULL);
        check_roundtrip(a, "PEM", "PrivateKeyInfo", "AES-256-CBC");
        check_roundtrip(a, "DER", "EncryptedPrivateKeyInfo", "AES-128-CBC");
    }
}

/* The paths applications take: PEM_write/read, i2d/d2i. */
static void test_pem_der_apis(void)
{
    FOR_EACH_ALG(a) {
        BIO *b = BIO_new(BIO_s_mem());
        EVP_PKEY *k;
        unsigned char *der = NULL;
        const unsigned char *p;
        int len;

        /* encrypted PEM is encrypted */
        CU_ASSERT(PEM_write_bio_PrivateKey(b, a->key, EVP_aes_256_cbc(),
                                           (unsigned char *)"pw", 2, NULL, NULL));
        char *data;
        long dl = BIO_get_mem_data(b, &data);
        CU_ASSERT(dl > 0 && strstr(data, "ENCRYPTED PRIVATE KEY") != NULL);
        k = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, "pw", libctx, NULL);
        CU_ASSERT_PTR_NOT_NULL(k);
        CU_ASSERT(k != NULL && EVP_PKEY_eq(k, a->key) == 1);
        EVP_PKEY_free(k);
        BIO_free(b);

        len = i2d_PUBKEY(a->key, &der);
        CU_ASSERT(len > 0);
        p = der;
        k = d2i_PUBKEY_ex(NULL, &p, len, libctx, NULL);
        CU_ASSERT_PTR_NOT_NULL(k);
        CU_ASSERT(k != NULL && EVP_PKEY_eq(k, a->key) == 1);
        CU_ASSERT(p == der + len);
        /* the SPKI AlgorithmIdentifier is the bare OID (parameters absent) */
        X509_PUBKEY *xp = NULL;
        p = der;
        xp = d2i_X509_PUBKEY(NULL, &p, len);
        CU_ASSERT_PTR_NOT_NULL(xp);
        if (xp != NULL) {
            ASN1_OBJECT *obj;
            X509_ALGOR *alg;
            const void *pval;
            int ptype = 0;
            char txt[128];
            X509_PUBKEY_get0_param(&obj, NULL, NULL, &alg, xp);
            X509_ALGOR_get0(NULL, &ptype, &pval, alg);
            OBJ_obj2txt(txt, sizeof(txt), obj, 1);
            CU_ASSERT_STRING_EQUAL(txt, a->oid);
            CU_ASSERT_EQUAL(ptype, V_ASN1_UNDEF);
            X509_PUBKEY_free(xp);
        }
        EVP_PKEY_free(k);
        OPENSSL_free(der);
        ERR_clear_error();
    }
}

/* Bad input never crashes, leaks or yields a key. */
static void test_malformed(void)
{
    FOR_EACH_ALG(a) {
        static const char *structs[] = { "PrivateKeyInfo", "SubjectPublicKeyInfo" };
        for (int s = 0; s < 2; s++) {
            int sel = s ? OSSL_KEYMGMT_SELECT_PUBLIC_KEY : OSSL_KEYMGMT_SELECT_KEYPAIR;
            size_t len;
            unsigned char *der = encode(a->key, sel, "DER", structs[s], NULL, &len), *m;
            EVP_PKEY *k;
            CU_ASSERT_PTR_NOT_NULL_FATAL(der);
            /* every truncation */
            for (size_t cut = 0; cut < len; cut += (cut < 64 ? 1 : len / 50 + 1)) {
                k = decode(der, cut, "DER", sel, NULL);
                CU_ASSERT_PTR_NULL(k);
                EVP_PKEY_free(k);
            }
            /* trailing garbage */
            m = OPENSSL_malloc(len + 1);
            memcpy(m, der, len);
            m[len] = 0;
            k = decode(m, len + 1, "DER", sel, NULL);
            CU_ASSERT(k == NULL || EVP_PKEY_eq(k, a->key) == 1); /* never another key */
            EVP_PKEY_free(k);
            /* flipped bytes */
            for (size_t pos = 0; pos < len; pos += len / 40 + 1) {
                memcpy(m, der, len);
                m[pos] ^= 0x5a;
                k = decode(m, len, "DER", sel, NULL);
                /* A public key that still decodes is another key. (A private
                 * one may differ only in secret parts, e.g. RW's prf: then
                 * it is still the same public key; ASan watches the rest.) */
                if (k != NULL && s == 1) {
                    CU_ASSERT(EVP_PKEY_eq(k, a->key) != 1);
                    if (EVP_PKEY_eq(k, a->key) == 1)
                        printf("\n  %s: SPKI with byte %zu flipped decodes to the same key", a->name, pos);
                }
                EVP_PKEY_free(k);
            }
            OPENSSL_free(m);
            OPENSSL_free(der);
            ERR_clear_error();
        }
        /* raw import of garbage */
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, NULL);
        EVP_PKEY *k = NULL;
        unsigned char junk[37] = { 1, 2, 3 };
        OSSL_PARAM p[] = { OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, junk,
                                                             sizeof(junk)),
                           OSSL_PARAM_construct_end() };
        CU_ASSERT(EVP_PKEY_fromdata_init(ctx) == 1);
        CU_ASSERT(EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, p) != 1);
        CU_ASSERT(ERR_GET_LIB(ERR_peek_last_error()) != 0);
        ERR_clear_error();
        EVP_PKEY_free(k);
        EVP_PKEY_CTX_free(ctx);
    }
}

static void test_import_export(void)
{
    FOR_EACH_ALG(a) {
        OSSL_PARAM *params = NULL;
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, NULL);
        EVP_PKEY *pub = NULL, *full = NULL;

        CU_ASSERT_FATAL(EVP_PKEY_todata(a->key, EVP_PKEY_PUBLIC_KEY, &params) == 1);
        CU_ASSERT(EVP_PKEY_fromdata_init(ctx) == 1);
        CU_ASSERT(EVP_PKEY_fromdata(ctx, &pub, EVP_PKEY_PUBLIC_KEY, params) == 1);
        CU_ASSERT(pub != NULL && EVP_PKEY_eq(pub, a->key) == 1);
        OSSL_PARAM_free(params);
        params = NULL;
        CU_ASSERT_FATAL(EVP_PKEY_todata(a->key, EVP_PKEY_KEYPAIR, &params) == 1);
        CU_ASSERT(EVP_PKEY_fromdata(ctx, &full, EVP_PKEY_KEYPAIR, params) == 1);
        CU_ASSERT(full != NULL && EVP_PKEY_eq(full, a->key) == 1);
        /* a public key refuses to sign, with an error */
        if (pub != NULL) {
            EVP_MD_CTX *m = EVP_MD_CTX_new();
            CU_ASSERT(EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, pub, NULL) != 1);
            CU_ASSERT(ERR_peek_error() != 0);
            ERR_clear_error();
            EVP_MD_CTX_free(m);
        }
        OSSL_PARAM_free(params);
        EVP_PKEY_free(pub);
        EVP_PKEY_free(full);
        EVP_PKEY_CTX_free(ctx);
    }
}

static void test_text(void)
{
    FOR_EACH_ALG(a) {
        BIO *b = BIO_new(BIO_s_mem());
        char *data;
        long n;

        CU_ASSERT(EVP_PKEY_print_private(b, a->key, 0, NULL) == 1);
        BIO_write(b, "", 1);
        n = BIO_get_mem_data(b, &data);
        CU_ASSERT(n > 0 && strstr(data, "Private-Key") != NULL && strstr(data, a->name) != NULL);
        if (a->stateful)
            CU_ASSERT(n > 0 && strstr(data, "remaining") != NULL);
        (void)BIO_reset(b);
        CU_ASSERT(EVP_PKEY_print_public(b, a->key, 0, NULL) == 1);
        BIO_write(b, "", 1);
        n = BIO_get_mem_data(b, &data);
        CU_ASSERT(n > 0 && strstr(data, "Public-Key") != NULL);
        BIO_free(b);
    }
}

/* What X.509 signing asks for: the bare OID, parameters absent; and a
 * digest is refused (the message is signed whole). */
static void test_algorithm_id(void)
{
    FOR_EACH_ALG(a) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pc = NULL;
        unsigned char aid[64], want[64], *w = want;
        size_t aidlen = 0;
        X509_ALGOR *alg = X509_ALGOR_new();
        OSSL_PARAM p[] = { OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID,
                                                             aid, sizeof(aid)),
                           OSSL_PARAM_construct_end() };
        int wl;

        X509_ALGOR_set0(alg, OBJ_txt2obj(a->oid, 1), V_ASN1_UNDEF, NULL);
        wl = i2d_X509_ALGOR(alg, &w);
        CU_ASSERT_FATAL(EVP_DigestSignInit_ex(m, &pc, NULL, libctx, NULL, a->key, NULL) == 1);
        CU_ASSERT(EVP_PKEY_CTX_get_params(pc, p) == 1);
        aidlen = p[0].return_size;
        CU_ASSERT(wl > 0 && aidlen == (size_t)wl && memcmp(aid, want, aidlen) == 0);
        EVP_MD_CTX_free(m);
        X509_ALGOR_free(alg);
        if (strcmp(a->name, FASTSIG_SIG_RW_P1363) != 0) {
            m = EVP_MD_CTX_new();
            CU_ASSERT(EVP_DigestSignInit_ex(m, NULL, "SHA256", libctx, NULL, a->key, NULL) != 1);
            ERR_clear_error();
            EVP_MD_CTX_free(m);
        }
    }
}

/* Non-stateful keys ignore state params; a stateful key whose state file is
 * gone refuses to sign (no signature bytes) and to report state, says so in
 * its text, and still verifies and exports its public key. */
static void test_unusable_state(void)
{
    FOR_EACH_ALG(a) {
        uint64_t rem = 7;
        OSSL_PARAM p[] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_REMAINING, &rem),
                           OSSL_PARAM_construct_end() };
        if (!a->stateful) {
            CU_ASSERT(EVP_PKEY_get_params(a->key, p) == 1);
            CU_ASSERT_EQUAL(rem, 7);
            continue;
        }
        EVP_PKEY *k = gen_key(a);
        unsigned char *sig = NULL, *sig2 = NULL, *der = NULL;
        size_t siglen = 0, siglen2 = 0;
        char moved[300], *text;
        BIO *b = BIO_new(BIO_s_mem());

        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_FATAL(sign_msg(k, msg, sizeof(msg), &sig, &siglen) || evp_remaining(k) == 0);
        snprintf(moved, sizeof(moved), "%s.moved", a->state);
        CU_ASSERT_FATAL(rename(a->state, moved) == 0);
        CU_ASSERT(!sign_msg(k, msg, sizeof(msg), &sig2, &siglen2));
        CU_ASSERT(ERR_peek_error() != 0 || ERR_peek_last_error() != 0);
        ERR_clear_error();
        CU_ASSERT(EVP_PKEY_get_params(k, p) != 1);
        ERR_clear_error();
        CU_ASSERT(EVP_PKEY_print_private(b, k, 0, NULL) == 1);
        BIO_write(b, "", 1);
        BIO_get_mem_data(b, &text);
        CU_ASSERT(strstr(text, "UNUSABLE") != NULL);
        CU_ASSERT(i2d_PUBKEY(k, &der) > 0);
        if (sig != NULL)
            CU_ASSERT(verify_msg(k, msg, sizeof(msg), sig, siglen));
        CU_ASSERT(rename(moved, a->state) == 0);
        OPENSSL_free(sig);
        OPENSSL_free(sig2);
        OPENSSL_free(der);
        BIO_free(b);
        EVP_PKEY_free(k);
        ERR_clear_error();
    }
}

static void test_cleanup(void)
{
    char cmd[512];
    FOR_EACH_ALG(a) {
        EVP_PKEY_free(a->key);
        a->key = NULL;
    }
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", statedir);
    CU_ASSERT(system(cmd) == 0);
    evp_unload();
}

static const fs_test tests[] = {
    { "load and reachable rows", test_load },
    { "keygen with progress", test_keygen },
    { "key params", test_params },
    { "sign/verify, tampering", test_sign_verify },
    { "streaming digest-sign + dupctx", test_streaming_dupctx },
#ifdef OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT
    { "message signing API (OpenSSL 3.5)", test_message_api },
#endif
    { "EVP_PKEY_dup shares state, match", test_dup_match },
    { "encode/decode round trips", test_encode_decode },
    { "PEM/DER application APIs", test_pem_der_apis },
    { "malformed input", test_malformed },
    { "import/export", test_import_export },
    { "text output", test_text },
    { "AlgorithmIdentifier", test_algorithm_id },
    { "unusable state", test_unusable_state },
    { "cleanup", test_cleanup },
    { NULL, NULL }
};

int main(void)
{
    return fs_cu_run("provider glue", tests);
}
