/* verify.c - verify a signature made with a fastsig key: a raw signature
 * (sign_verify, `openssl pkeyutl -sign -rawin`, `openssl dgst -sign`) with a
 * public key or a certificate, or a detached CMS SignedData (firmware_sign,
 * `openssl cms -sign -binary`) against the signer's certificate as the trust
 * anchor. Verifying touches no state file and needs no private key.
 *
 *   cc verify.c -o verify $(pkg-config --cflags fastsig) $(pkg-config --cflags --libs libcrypto)
 *   ./verify PUB.pem|CERT.pem FILE SIG
 *   ./verify --cms CERT.pem FILE SIG.p7s       # OpenSSL 3.5 or later for XMSS, XMSS^MT, HSS
 *
 * Exit status 0: valid; 1: invalid; 2: an error (printed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/x509.h>
#include <fastsig/provider.h>

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "verify: %s%s%s\n", what, path ? ": " : "", path ? path : "");
    ERR_print_errors_fp(stderr);
    return 2;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0
        && (buf = malloc((size_t)n + 1)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    } else if (buf != NULL) {
        *len = (size_t)n;
    }
    if (f != NULL)
        fclose(f);
    return buf;
}

static X509 *load_cert(const char *path)
{
    BIO *in = BIO_new_file(path, "r");
    X509 *cert = in ? PEM_read_bio_X509(in, NULL, NULL, NULL) : NULL;
    BIO_free(in);
    return cert;
}

/* A PEM public key, or a certificate's. */
static EVP_PKEY *load_public(const char *path)
{
    BIO *in = BIO_new_file(path, "r");
    EVP_PKEY *key = in ? PEM_read_bio_PUBKEY_ex(in, NULL, NULL, NULL, NULL, NULL) : NULL;
    X509 *cert;
    BIO_free(in);
    if (key == NULL && (cert = load_cert(path)) != NULL) {
        ERR_clear_error(); /* not a PUBLIC KEY block: a certificate */
        key = X509_get_pubkey(cert);
        X509_free(cert);
    }
    return key;
}

static int verify_raw(const char *keyfile, const char *msgfile, const char *sigfile)
{
    EVP_PKEY *key = load_public(keyfile);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned char *msg = NULL, *sig = NULL;
    size_t msglen = 0, siglen = 0;
    int rc = 2, v;
    if (key == NULL)
        fail("no public key or certificate", keyfile);
    else if ((msg = read_file(msgfile, &msglen)) == NULL)
        fail("cannot read", msgfile);
    else if ((sig = read_file(sigfile, &siglen)) == NULL)
        fail("cannot read", sigfile);
    else if (md == NULL || EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, NULL, key, NULL) <= 0)
        fail("cannot verify with this key", keyfile);
    else if ((v = EVP_DigestVerify(md, sig, siglen, msg, msglen)) == 1)
        rc = 0;
    else if (v == 0)
        rc = 1;
    else
        fail("verification failed with an error", sigfile);
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(key);
    free(msg);
    free(sig);
    return rc;
}

/* The signer's certificate is the trust anchor (self-signed signers as in
 * firmware_sign; a CA's certificate works the same way). */
static int verify_cms(const char *certfile, const char *msgfile, const char *sigfile)
{
    X509 *cert = load_cert(certfile);
    X509_STORE *store = X509_STORE_new();
    BIO *content = BIO_new_file(msgfile, "rb"), *in = BIO_new_file(sigfile, "rb");
    CMS_ContentInfo *cms = in ? d2i_CMS_bio(in, NULL) : NULL;
    int rc = 2;
    if (cert == NULL)
        fail("cannot load the certificate", certfile);
    else if (content == NULL)
        fail("cannot read", msgfile);
    else if (cms == NULL)
        fail("not a DER CMS signature", sigfile);
    else if (store == NULL || !X509_STORE_add_cert(store, cert)
             || !X509_VERIFY_PARAM_set_purpose(X509_STORE_get0_param(store), X509_PURPOSE_ANY))
        fail("cannot set up the trust store", certfile);
    else
        rc = CMS_verify(cms, NULL, store, content, NULL, CMS_BINARY) == 1 ? 0 : 1;
    if (rc == 1)
        ERR_print_errors_fp(stderr); /* why, for the operator */
    CMS_ContentInfo_free(cms);
    BIO_free(in);
    BIO_free(content);
    X509_STORE_free(store);
    X509_free(cert);
    return rc;
}

int main(int argc, char **argv)
{
    int cms = argc == 5 && strcmp(argv[1], "--cms") == 0, rc;
    if (argc != 4 && !cms) {
        fprintf(stderr, "usage: verify PUB.pem|CERT.pem FILE SIG\n"
                        "       verify --cms CERT.pem FILE SIG.p7s\n");
        return 2;
    }
    if (OSSL_PROVIDER_load(NULL, FASTSIG_PROVIDER_NAME) == NULL
        || OSSL_PROVIDER_load(NULL, "default") == NULL)
        return fail("cannot load the providers (OPENSSL_MODULES?)", NULL);
    rc = cms ? verify_cms(argv[2], argv[3], argv[4]) : verify_raw(argv[1], argv[2], argv[3]);
    printf("%s\n", rc == 0 ? "valid" : rc == 1 ? "INVALID" : "error");
    return rc;
}
