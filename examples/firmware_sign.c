/* firmware_sign.c - sign a firmware image with a stateful hash-based key the
 * way SP 800-208 and CNSA 2.0 firmware signing does: a detached CMS
 * SignedData (DER) whose signer is the key's certificate, with signed
 * attributes and SHA-256 as the content digest (RFC 9708 for HSS, RFC 9802
 * for XMSS and XMSS^MT). Needs OpenSSL 3.5 or later: 3.0's CMS cannot sign
 * with a provider's key (README, "OpenSSL 3.0 and 3.5"); there it exits 77.
 *
 *   cc firmware_sign.c -o firmware_sign $(pkg-config --cflags fastsig) \
 *       $(pkg-config --cflags --libs libcrypto)
 *   openssl req -provider fastsig -provider default -x509 -new -key key.pem \
 *       -subj "/CN=firmware signer" -days 3650 -out signer.pem    # spends one index
 *   ./firmware_sign key.pem signer.pem fw.bin fw.p7s
 *   ./verify --cms signer.pem fw.bin fw.p7s
 *
 * One index of the key per signature. The output is written whole or not at
 * all (no empty file after a failure). Exit status 0: signed; 2: an error
 * (printed); 77: OpenSSL older than 3.5. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <fastsig/provider.h>

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "firmware_sign: %s%s%s\n", what, path ? ": " : "", path ? path : "");
    ERR_print_errors_fp(stderr);
    return 2;
}

/* data into path, never over an existing file: written to path.tmp and linked
 * into place, so that a failure leaves no partial or empty file at path. */
static int write_new_file(const char *path, const void *data, size_t len, mode_t mode)
{
    char tmp[4096];
    int fd, ok;
    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)
        || (fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, mode)) < 0)
        return 0;
    ok = write(fd, data, len) == (ssize_t)len && fsync(fd) == 0;
    ok = close(fd) == 0 && ok && link(tmp, path) == 0;
    unlink(tmp);
    return ok;
}

int main(int argc, char **argv)
{
    const unsigned flags = CMS_BINARY | CMS_DETACHED | CMS_PARTIAL;
    BIO *in = NULL, *fw = NULL;
    X509 *cert = NULL;
    EVP_PKEY *key = NULL;
    EVP_MD *sha256 = NULL;
    CMS_ContentInfo *cms = NULL;
    unsigned char *der = NULL;
    uint64_t remaining = 0;
    int len, rc = 2;

    if (argc != 5) {
        fprintf(stderr, "usage: firmware_sign KEY.pem CERT.pem FIRMWARE OUT.p7s\n");
        return 2;
    }
    if (OpenSSL_version_num() < 0x30500000L) {
        fprintf(stderr, "firmware_sign: CMS signing with a provider's key needs OpenSSL 3.5 or "
                "later (this is %s)\n", OpenSSL_version(OPENSSL_VERSION));
        return 77;
    }
    if (OSSL_PROVIDER_load(NULL, FASTSIG_PROVIDER_NAME) == NULL
        || OSSL_PROVIDER_load(NULL, "default") == NULL)
        return fail("cannot load the providers (OPENSSL_MODULES?)", NULL);
    if ((in = BIO_new_file(argv[1], "r")) == NULL
        || (key = PEM_read_bio_PrivateKey_ex(in, NULL, NULL, NULL, NULL, NULL)) == NULL) {
        fail("cannot load the key", argv[1]);
        goto end;
    }
    BIO_free(in);
    if ((in = BIO_new_file(argv[2], "r")) == NULL
        || (cert = PEM_read_bio_X509(in, NULL, NULL, NULL)) == NULL) {
        fail("cannot load the certificate", argv[2]);
        goto end;
    }
    if ((fw = BIO_new_file(argv[3], "rb")) == NULL) {
        fail("cannot read", argv[3]);
        goto end;
    }
    /* CMS_PARTIAL, then the signer with its content digest, then CMS_final:
     * CMS_sign would pick the digest from the key, and these keys have none */
    if ((sha256 = EVP_MD_fetch(NULL, "SHA256", NULL)) == NULL
        || (cms = CMS_sign(NULL, NULL, NULL, NULL, flags)) == NULL
        || CMS_add1_signer(cms, cert, key, sha256, flags) == NULL
        || !CMS_final(cms, fw, NULL, flags)
        || (len = i2d_CMS_ContentInfo(cms, &der)) <= 0) {
        fail("CMS signing failed", argv[1]);
        goto end;
    }
    if (!write_new_file(argv[4], der, (size_t)len, 0644)) {
        fail("cannot write the signature (exists?)", argv[4]);
        goto end;
    }
    OSSL_PARAM st[] = { OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_REMAINING, &remaining), OSSL_PARAM_END };
    if (!EVP_PKEY_get_params(key, st)) {
        fail("cannot read the key's state", argv[1]);
        goto end;
    }
    printf("signed %s: %s (%d bytes); remaining %llu\n", argv[3], argv[4], len,
           (unsigned long long)remaining);
    rc = 0;
end:
    OPENSSL_free(der);
    CMS_ContentInfo_free(cms);
    EVP_MD_free(sha256);
    BIO_free(fw);
    BIO_free(in);
    X509_free(cert);
    EVP_PKEY_free(key);
    return rc;
}
