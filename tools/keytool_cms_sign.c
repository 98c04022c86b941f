/* keytool_cms_sign.c - `fastsig-keytool cms-sign`: CMS SignedData without
 * signed attributes, the signature over the content itself (RFC 9708 section
 * 4 for HSS; XMSS and XMSS^MT the same way), detached or attached. OpenSSL's
 * `cms -sign -noattr` cannot make it (it signs a digest, which fastsig's
 * hash-based keys refuse), so the SignerInfo is filled here: OpenSSL's CMS
 * builds the structure (CMS_add1_signer, CMS_NOATTR | CMS_PARTIAL), the
 * signatureAlgorithm is the key's OID with parameters absent, and the
 * signature is one EVP_DigestSign of the content, as `pkeyutl -sign -rawin`
 * makes it. Works on OpenSSL 3.0 too. Everything that can fail is done before
 * the signature (one index), the output file opened first.
 *
 * Exit status: 0 written; 1 failed (see the messages); 2 usage. */
#include <stdio.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "keytool_cmds.h"
#include "keytool_cms.h"
#include "keytool_keyio.h"

typedef struct {
    const char *in, *signer, *inkey, *out, *md, *passin, *provider_path;
    int attached;
} OPTS;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool cms-sign --in FILE --signer CERT.pem --inkey KEY.pem\n"
            "           --out OUT.der [--attached] [-md NAME] [-passin ARG]\n"
            "           [-provider-path DIR]\n"
            "  CMS SignedData (DER) without signed attributes: the signature is over\n"
            "  FILE itself (RFC 9708 section 4), not over a digest; one index spent.\n"
            "  --attached       FILE inside the SignedData (default: detached)\n"
            "  -md NAME         the SignerInfo's digestAlgorithm (default SHA256;\n"
            "                   not used by the signature)\n"
            "  -passin ARG      KEY.pem's passphrase: pass:TEXT, env:VAR or file:PATH\n"
            "  -provider-path DIR  where fastsig.so is (default: OPENSSL_MODULES,\n"
            "                   then libcrypto's module directory)\n");
}

/* The structure around the signature: SignedData, one SignerInfo without
 * signed attributes naming the key's OID (parameters absent). */
static CMS_ContentInfo *skeleton(const OPTS *o, X509 *cert, EVP_PKEY *k, CMS_SignerInfo **si)
{
    unsigned flags = CMS_BINARY | CMS_PARTIAL | CMS_NOATTR | (o->attached ? 0 : CMS_DETACHED);
    CMS_ContentInfo *cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
    EVP_MD *md = EVP_MD_fetch(NULL, o->md, NULL);
    X509_ALGOR *sigalg = NULL;
    ASN1_OBJECT *oid = OBJ_dup(kt_key_oid(cert));

    *si = NULL;
    if (cms != NULL && md != NULL && oid != NULL
        && (*si = CMS_add1_signer(cms, cert, k, md, flags)) != NULL) {
        CMS_SignerInfo_get0_algs(*si, NULL, NULL, NULL, &sigalg);
        if (X509_ALGOR_set0(sigalg, oid, V_ASN1_UNDEF, NULL))
            oid = NULL;
        else
            *si = NULL;
    }
    ASN1_OBJECT_free(oid);
    EVP_MD_free(md);
    if (*si == NULL) {
        kt_die_ssl(md == NULL ? "unknown digest (-md)" : "cannot make the SignedData");
        CMS_ContentInfo_free(cms);
        return NULL;
    }
    return cms;
}

/* The signature of data (one index), set as si's; 1, else 0 with a message. */
static int sign_content(CMS_SignerInfo *si, EVP_PKEY *k, const unsigned char *data, size_t len)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    unsigned char *sig = NULL;
    size_t siglen = 0;
    int ok = m != NULL && EVP_DigestSignInit_ex(m, NULL, NULL, NULL, NULL, k, NULL) == 1
             && EVP_DigestSign(m, NULL, &siglen, data, len) == 1
             && (sig = OPENSSL_malloc(siglen)) != NULL
             && EVP_DigestSign(m, sig, &siglen, data, len) == 1;

    EVP_MD_CTX_free(m);
    if (ok && siglen <= 0x7fffffff)
        ASN1_STRING_set0(CMS_SignerInfo_get0_signature(si), sig, (int)siglen);
    else {
        OPENSSL_free(sig);
        kt_die_ssl("signing failed");
        ok = 0;
    }
    return ok;
}

/* Attached: the content in the encapsulated content info. */
static int attach(CMS_ContentInfo *cms, const unsigned char *data, size_t len)
{
    ASN1_OCTET_STRING **pos = CMS_get0_content(cms);
    if (pos == NULL || len > 0x7fffffff)
        return 0;
    if (*pos == NULL && (*pos = ASN1_OCTET_STRING_new()) == NULL)
        return 0;
    return ASN1_OCTET_STRING_set(*pos, data, (int)len);
}

static int cms_sign(const OPTS *o)
{
    KT_PASSIN in = { .known = o->passin != NULL };
    unsigned char *data = NULL;
    size_t len = 0;
    X509 *cert = NULL;
    EVP_PKEY *k = NULL;
    CMS_ContentInfo *cms = NULL;
    CMS_SignerInfo *si = NULL;
    BIO *out = NULL;
    int rc = 1;

    if ((o->passin != NULL && !kt_read_pass(o->passin, in.pass, sizeof(in.pass)))
        || !kt_read_file(o->in, &data, &len) || (cert = kt_load_cert(o->signer)) == NULL
        || (k = kt_load_key(o->inkey, &in)) == NULL
        || (cms = skeleton(o, cert, k, &si)) == NULL)
        goto done;
    if (o->attached && !attach(cms, data, len)) {
        kt_die_ssl("cannot attach the content");
        goto done;
    }
    if ((out = BIO_new_file(o->out, "wb")) == NULL) { /* before the index is spent */
        fprintf(stderr, "fastsig-keytool: cannot write %s\n", o->out);
        goto done;
    }
    if (!sign_content(si, k, data, len))
        goto done;
    if (i2d_CMS_bio(out, cms) != 1 || BIO_flush(out) != 1) {
        kt_die_ssl("cannot write the SignedData (its signature was made: one index spent)");
        goto done;
    }
    rc = 0;
done:
    if (rc != 0 && out != NULL)
        remove(o->out); /* no partial file */
    BIO_free(out);
    CMS_ContentInfo_free(cms);
    EVP_PKEY_free(k);
    X509_free(cert);
    OPENSSL_free(data);
    OPENSSL_cleanse(&in, sizeof(in));
    return rc;
}

static int run(const void *o)
{
    return cms_sign(o);
}

int kt_cmd_cms_sign(int argc, char **argv)
{
    OPTS o = { .md = "SHA256" };
    const KT_OPT opts[] = {
        { "-in", &o.in, NULL }, { "-signer", &o.signer, NULL }, { "-inkey", &o.inkey, NULL },
        { "-out", &o.out, NULL }, { "-md", &o.md, NULL }, { "-passin", &o.passin, NULL },
        { "-provider-path", &o.provider_path, NULL }, { "-attached", NULL, &o.attached },
        { NULL, NULL, NULL },
    };
    int r = kt_parse_opts(argc, argv, opts, usage);

    if (r <= 0)
        return r == 0 ? 0 : 2;
    if (o.in == NULL || o.signer == NULL || o.inkey == NULL || o.out == NULL) {
        fprintf(stderr, "fastsig-keytool: cms-sign needs --in, --signer, --inkey and --out\n");
        return 2;
    }
    return kt_with_providers(o.provider_path, run, &o);
}
