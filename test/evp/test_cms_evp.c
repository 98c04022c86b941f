/* test_cms_evp.c - CMS signing and verification from C (CMS_add1_signer,
 * CMS_final, CMS_verify) with XMSS, XMSS^MT, HSS, RW and RW-P1363 keys and
 * self-signed certificates made through EVP. On OpenSSL 3.5: detached and
 * embedded, with and without signed attributes, each signature through DER
 * and back, verified, refused for changed content, one index spent per
 * stateful signature, the SignerInfo's algorithm the key's OID with absent
 * parameters; without signed attributes CMS hands the signer a digest, which
 * plain RW and the hash-based schemes (they sign the message itself; RFC 9708
 * signs the content) refuse, a stateful key spending no index. On OpenSSL 3.0,
 * whose CMS cannot name a provider's signature algorithm, signing never yields
 * an encodable CMS, and spends no index. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include "testutil.h"
#include "fastsig/provider.h"
#include "evp_fixture.h"

static char statedir[] = "/tmp/fs_cms_evp_XXXXXX";
static const char content[] = "firmware image: CMS signing from C with fastsig keys";

struct alg {
    const char *name, *param, *oid;
};
static const struct alg algs[] = {
    { FASTSIG_SIG_XMSS, "XMSS-SHA2_10_256", "1.3.6.1.5.5.7.6.34" },
    { FASTSIG_SIG_XMSSMT, "XMSSMT-SHA2_20/4_256", "1.3.6.1.5.5.7.6.35" },
    { FASTSIG_SIG_HSS, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4", "1.2.840.113549.1.9.16.3.17" },
    { FASTSIG_SIG_RW, NULL, "2.25.77497230020247565797983039438780865004.2" },
    { FASTSIG_SIG_RW_P1363, NULL, "2.25.77497230020247565797983039438780865004.2.1" },
};

static EVP_PKEY *gen_key(const struct alg *a)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, NULL);
    char state[256];
    unsigned bits = 2048;
    OSSL_PARAM p[3], *q = p;
    EVP_PKEY *k = NULL;

    if (a->param != NULL) {
        snprintf(state, sizeof(state), "%s/%s.state", statedir, a->name);
        *q++ = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)a->param, 0);
        *q++ = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0);
    } else {
        *q++ = OSSL_PARAM_construct_uint("bits", &bits);
    }
    *q = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0 || !EVP_PKEY_CTX_set_params(ctx, p)
        || EVP_PKEY_generate(ctx, &k) <= 0)
        k = NULL;
    EVP_PKEY_CTX_free(ctx);
    return k;
}

/* A self-signed certificate of k (signed with the key's own algorithm). */
static X509 *self_signed(EVP_PKEY *k)
{
    X509 *x = X509_new_ex(libctx, NULL);
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    X509_NAME *n = X509_NAME_new();
    int ok = x != NULL && m != NULL && n != NULL && X509_set_version(x, X509_VERSION_3)
             && ASN1_INTEGER_set(X509_get_serialNumber(x), 1)
             && X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
                                           (const unsigned char *)"fastsig CMS signer", -1, -1, 0)
             && X509_set_subject_name(x, n) && X509_set_issuer_name(x, n)
             && X509_gmtime_adj(X509_getm_notBefore(x), 0)
             && X509_gmtime_adj(X509_getm_notAfter(x), 86400) && X509_set_pubkey(x, k)
             && EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) == 1
             && X509_sign_ctx(x, m) > 0;
    X509_NAME_free(n);
    EVP_MD_CTX_free(m);
    if (!ok) {
        X509_free(x);
        return NULL;
    }
    return x;
}

/* The DER of a CMS SignedData of content by (cert, k) with SHA-256 as the
 * content digest, or NULL when signing or encoding fails. */
static unsigned char *cms_sign_der(X509 *cert, EVP_PKEY *k, unsigned flags, int *len)
{
    CMS_ContentInfo *cms = CMS_sign_ex(NULL, NULL, NULL, NULL, flags | CMS_PARTIAL, libctx, NULL);
    EVP_MD *sha256 = EVP_MD_fetch(libctx, "SHA256", NULL);
    BIO *in = BIO_new_mem_buf(content, sizeof(content));
    unsigned char *der = NULL;

    *len = 0;
    if (cms != NULL && sha256 != NULL && in != NULL
        && CMS_add1_signer(cms, cert, k, sha256, flags) != NULL && CMS_final(cms, in, NULL, flags))
        *len = i2d_CMS_ContentInfo(cms, &der);
    if (*len <= 0) {
        OPENSSL_free(der);
        der = NULL;
    }
    BIO_free(in);
    EVP_MD_free(sha256);
    CMS_ContentInfo_free(cms);
    ERR_clear_error();
    return der;
}

/* 1 when der verifies over (detached) data or its own content. */
static int cms_verify_der(const unsigned char *der, int len, X509 *cert, const char *data,
                          size_t datalen, char *sigalg, size_t sigalg_cap)
{
    CMS_ContentInfo *cms = CMS_ContentInfo_new_ex(libctx, NULL);
    const unsigned char *p = der;
    STACK_OF(X509) *certs = sk_X509_new_null();
    BIO *dcont = data != NULL ? BIO_new_mem_buf(data, (int)datalen) : NULL;
    BIO *out = BIO_new(BIO_s_mem());
    int ok = 0;

    if (cms != NULL && d2i_CMS_ContentInfo(&cms, &p, len) != NULL && certs != NULL
        && sk_X509_push(certs, cert)) {
        STACK_OF(CMS_SignerInfo) *sis = CMS_get0_SignerInfos(cms);
        X509_ALGOR *alg = NULL;
        if (sk_CMS_SignerInfo_num(sis) == 1) {
            CMS_SignerInfo_get0_algs(sk_CMS_SignerInfo_value(sis, 0), NULL, NULL, NULL, &alg);
            const ASN1_OBJECT *oid;
            int ptype;
            X509_ALGOR_get0(&oid, &ptype, NULL, alg);
            OBJ_obj2txt(sigalg, (int)sigalg_cap, oid, 1);
            if (ptype != V_ASN1_UNDEF) /* parameters must be absent */
                sigalg[0] = '\0';
        }
        ok = CMS_verify(cms, certs, NULL, dcont, out, CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY) == 1;
        if (ok && data == NULL) { /* embedded: the content comes out */
            char got[sizeof(content)] = { 0 };
            ok = BIO_read(out, got, sizeof(got)) == (int)sizeof(content)
                 && memcmp(got, content, sizeof(content)) == 0;
        }
    }
    BIO_free(out);
    BIO_free(dcont);
    sk_X509_free(certs);
    CMS_ContentInfo_free(cms);
    ERR_clear_error();
    return ok;
}

static void test_cms(void)
{
    static const unsigned modes[] = { CMS_BINARY | CMS_DETACHED, CMS_BINARY,
                                      CMS_BINARY | CMS_DETACHED | CMS_NOATTR,
                                      CMS_BINARY | CMS_NOATTR };
    int v35 = OpenSSL_version_num() >= 0x30500000L;

    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(statedir));
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
        const struct alg *a = &algs[i];
        EVP_PKEY *k = gen_key(a);
        X509 *cert = k != NULL ? self_signed(k) : NULL;

        CU_ASSERT_PTR_NOT_NULL_FATAL(cert);
        for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
            unsigned flags = modes[m];
            int detached = (flags & CMS_DETACHED) != 0, len;
            uint64_t before = a->param != NULL ? evp_remaining(k) : 0;
            unsigned char *der = cms_sign_der(cert, k, flags, &len);
            char sigalg[128] = "";
            char changed[sizeof(content)];

            /* 3.0's CMS; without signed attributes, a scheme that signs the message
             * itself (plain RW, the hash-based ones) handed a digest: refused, and a
             * stateful key spends no index */
            if (!v35 || ((flags & CMS_NOATTR) && strcmp(a->name, FASTSIG_SIG_RW_P1363) != 0)) {
                CU_ASSERT_PTR_NULL(der);
                if (a->param != NULL)
                    CU_ASSERT_EQUAL(evp_remaining(k), before);
                OPENSSL_free(der);
                continue;
            }
            CU_ASSERT_PTR_NOT_NULL_FATAL(der);
            if (a->param != NULL)
                CU_ASSERT_EQUAL(evp_remaining(k), before - 1);
            CU_ASSERT(cms_verify_der(der, len, cert, detached ? content : NULL, sizeof(content),
                                     sigalg, sizeof(sigalg)));
            CU_ASSERT_STRING_EQUAL(sigalg, a->oid);
            if (detached) {
                memcpy(changed, content, sizeof(changed));
                changed[5] ^= 1;
                CU_ASSERT(!cms_verify_der(der, len, cert, changed, sizeof(changed), sigalg,
                                          sizeof(sigalg)));
            }
            der[len - 3] ^= 1; /* inside the signature value */
            CU_ASSERT(!cms_verify_der(der, len, cert, detached ? content : NULL, sizeof(content),
                                      sigalg, sizeof(sigalg)));
            OPENSSL_free(der);
        }
        X509_free(cert);
        EVP_PKEY_free(k);
    }
    char cmd[sizeof(statedir) + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", statedir);
    CU_ASSERT(system(cmd) == 0);
}

static void test_load(void)
{
    evp_load(1);
}

static void test_unload(void)
{
    evp_unload();
}

static const fs_test tests[] = {
    { "load", test_load },
    { "CMS sign and verify, every algorithm", test_cms },
    { "unload", test_unload },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("CMS from C", tests);
}
