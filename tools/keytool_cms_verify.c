/* keytool_cms_verify.c - `fastsig-keytool cms-verify`: checks CMS SignedData
 * without signed attributes whose signature is over the content itself (RFC
 * 9708 section 4: Bouncy Castle's and `cms-sign`'s), which `openssl cms
 * -verify` cannot (it hands the provider a digest). OpenSSL's CMS_verify
 * checks the signer's certificate against the trusted ones (purpose any) and
 * nothing else (CMS_NO_CONTENT_VERIFY); then the SignerInfo must name the
 * signer key's algorithm and its signature verify over the content with one
 * EVP_DigestVerify, as `pkeyutl -verify -rawin` does. SignedData with signed
 * attributes are left to `openssl cms -verify`.
 *
 * Exit status: 0 verified; 1 not (see the messages); 2 usage. */
#include <stdio.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509_vfy.h>
#include "keytool_cmds.h"
#include "keytool_cms.h"
#include "keytool_keyio.h"

typedef struct {
    const char *in, *content, *cafile, *out, *provider_path;
} OPTS;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool cms-verify --in SIG.der --CAfile CERTS.pem\n"
            "           [--content FILE] [--out FILE] [-provider-path DIR]\n"
            "  Verifies CMS SignedData (DER) without signed attributes, signed over the\n"
            "  content itself (RFC 9708 section 4); with signed attributes use\n"
            "  openssl cms -verify.\n"
            "  --CAfile CERTS   trusted certificates: the signer's must chain to one\n"
            "                   (any purpose)\n"
            "  --content FILE   the content of a detached SignedData\n"
            "  --out FILE       writes the verified content\n"
            "  -provider-path DIR  where fastsig.so is\n");
}

static int fail(const char *why)
{
    fprintf(stderr, "fastsig-keytool: cms-verify: %s\n", why);
    ERR_print_errors_fp(stderr);
    return 1;
}

/* The signer's certificate checked against cafile (CMS_verify, content not
 * verified): NULL with a message. */
static X509 *trusted_signer(CMS_ContentInfo *cms, const char *cafile, BIO *dcont)
{
    X509_STORE *store = X509_STORE_new();
    STACK_OF(X509) *signers = NULL;
    X509 *x = NULL;

    if (store != NULL && X509_STORE_load_file(store, cafile) == 1
        && X509_STORE_set_purpose(store, X509_PURPOSE_ANY) == 1
        && CMS_verify(cms, NULL, store, dcont, NULL, CMS_BINARY | CMS_NO_CONTENT_VERIFY) == 1
        && (signers = CMS_get0_signers(cms)) != NULL && sk_X509_num(signers) == 1)
        X509_up_ref(x = sk_X509_value(signers, 0));
    else
        fail("the signer's certificate does not verify against --CAfile");
    sk_X509_free(signers);
    X509_STORE_free(store);
    return x;
}

/* 1 when si's signature verifies over data with signer's key. */
static int content_verifies(CMS_SignerInfo *si, X509 *signer, const unsigned char *data,
                            size_t len)
{
    X509_ALGOR *alg = NULL;
    const ASN1_OBJECT *oid;
    int ptype;
    const ASN1_OCTET_STRING *sig = CMS_SignerInfo_get0_signature(si);
    EVP_MD_CTX *m;
    int ok;

    CMS_SignerInfo_get0_algs(si, NULL, NULL, NULL, &alg);
    X509_ALGOR_get0(&oid, &ptype, NULL, alg);
    if (OBJ_cmp(oid, kt_key_oid(signer)) != 0 || (ptype != V_ASN1_UNDEF && ptype != V_ASN1_NULL))
        return fail("the SignerInfo's signature algorithm is not the signer key's") == 0;
    m = EVP_MD_CTX_new();
    ok = m != NULL
         && EVP_DigestVerifyInit_ex(m, NULL, NULL, NULL, NULL, X509_get0_pubkey(signer), NULL) == 1
         && EVP_DigestVerify(m, ASN1_STRING_get0_data(sig), (size_t)ASN1_STRING_length(sig), data,
                             len) == 1;
    EVP_MD_CTX_free(m);
    return ok || fail("the signature does not verify over the content") == 0;
}

/* The content: --content for a detached SignedData, else its own. */
static int content_of(CMS_ContentInfo *cms, const OPTS *o, unsigned char **data, size_t *len,
                      int *owned)
{
    ASN1_OCTET_STRING **pos = CMS_get0_content(cms);
    int detached = pos == NULL || *pos == NULL;

    *owned = 0;
    if (detached != (o->content != NULL))
        return fail(detached ? "detached SignedData: --content FILE is needed"
                             : "the SignedData holds its content: no --content") == 0;
    if (!detached) {
        *data = (*pos)->data;
        *len = (size_t)(*pos)->length;
        return 1;
    }
    *owned = 1;
    return kt_read_file(o->content, data, len);
}

/* 0 when the SignedData in o->in verifies, else 1 with a message. */
static int check(CMS_ContentInfo *cms, const OPTS *o, unsigned char **data, size_t *len,
                 int *owned)
{
    STACK_OF(CMS_SignerInfo) *sis = CMS_get0_SignerInfos(cms);
    CMS_SignerInfo *si = sk_CMS_SignerInfo_num(sis) == 1 ? sk_CMS_SignerInfo_value(sis, 0) : NULL;
    BIO *dcont = NULL;
    X509 *signer = NULL;
    int rc = 1;

    if (si == NULL)
        return fail("not a SignedData with one signer");
    if (CMS_signed_get_attr_count(si) >= 0)
        return fail("it has signed attributes: use openssl cms -verify");
    if (!content_of(cms, o, data, len, owned))
        return 1;
    if (*len > 0x7fffffff)
        return fail("content over 2 GiB");
    if ((!*owned || (dcont = BIO_new_mem_buf(*data, (int)*len)) != NULL)
        && (signer = trusted_signer(cms, o->cafile, dcont)) != NULL
        && content_verifies(si, signer, *data, *len))
        rc = 0;
    X509_free(signer);
    BIO_free(dcont);
    return rc;
}

static int cms_verify(const OPTS *o)
{
    BIO *in = BIO_new_file(o->in, "rb");
    CMS_ContentInfo *cms = in != NULL ? d2i_CMS_bio(in, NULL) : NULL;
    unsigned char *data = NULL;
    size_t len = 0;
    int owned = 0, rc;
    FILE *out;

    rc = cms == NULL ? fail("cannot read a DER CMS structure from --in")
                     : check(cms, o, &data, &len, &owned);
    if (rc == 0 && o->out != NULL
        && ((out = fopen(o->out, "wb")) == NULL || fwrite(data, 1, len, out) != len
            || fclose(out) != 0))
        rc = fail("cannot write --out");
    if (rc == 0)
        fprintf(stderr, "CMS Verification successful\n");
    if (owned)
        OPENSSL_free(data);
    CMS_ContentInfo_free(cms);
    BIO_free(in);
    return rc;
}

static int run(const void *o)
{
    return cms_verify(o);
}

int kt_cmd_cms_verify(int argc, char **argv)
{
    OPTS o = { 0 };
    const KT_OPT opts[] = {
        { "-in", &o.in, NULL }, { "-content", &o.content, NULL }, { "-CAfile", &o.cafile, NULL },
        { "-out", &o.out, NULL }, { "-provider-path", &o.provider_path, NULL },
        { NULL, NULL, NULL },
    };
    int r = kt_parse_opts(argc, argv, opts, usage);

    if (r <= 0)
        return r == 0 ? 0 : 2;
    if (o.in == NULL || o.cafile == NULL) {
        fprintf(stderr, "fastsig-keytool: cms-verify needs --in and --CAfile\n");
        return 2;
    }
    return kt_with_providers(o.provider_path, run, &o);
}
