/* keytool_cms.c - see keytool_cms.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/buffer.h>
#include <openssl/pem.h>
#include "keytool_cmds.h"
#include "keytool_cms.h"
#include "keytool_keyio.h"

int kt_read_file(const char *path, unsigned char **data, size_t *len)
{
    BIO *in = BIO_new_file(path, "rb");
    BUF_MEM *b = BUF_MEM_new();
    unsigned char chunk[65536];
    int n = 0;

    *data = NULL;
    *len = 0;
    if (in == NULL || b == NULL) {
        fprintf(stderr, "fastsig-keytool: cannot open %s: %s\n", path, strerror(errno));
        BIO_free(in);
        BUF_MEM_free(b);
        return 0;
    }
    while ((n = BIO_read(in, chunk, sizeof(chunk))) > 0) {
        size_t at = b->length;
        if (BUF_MEM_grow(b, at + (size_t)n) == 0) {
            n = -1;
            break;
        }
        memcpy(b->data + at, chunk, (size_t)n);
    }
    BIO_free(in);
    if (n < 0) {
        fprintf(stderr, "fastsig-keytool: cannot read %s\n", path);
        BUF_MEM_free(b);
        return 0;
    }
    *len = b->length;
    *data = (unsigned char *)b->data;
    b->data = NULL; /* handed over */
    BUF_MEM_free(b);
    if (*data == NULL) /* an empty file */
        *data = OPENSSL_zalloc(1);
    return *data != NULL;
}

X509 *kt_load_cert(const char *path)
{
    BIO *in = BIO_new_file(path, "r");
    X509 *x = in != NULL ? PEM_read_bio_X509(in, NULL, NULL, NULL) : NULL;
    BIO_free(in);
    if (x == NULL) {
        fprintf(stderr, "fastsig-keytool: %s: ", path);
        kt_die_ssl("not a PEM certificate");
    }
    return x;
}

const ASN1_OBJECT *kt_key_oid(const X509 *cert)
{
    ASN1_OBJECT *oid = NULL;
    X509_PUBKEY_get0_param(&oid, NULL, NULL, NULL, X509_get_X509_PUBKEY(cert));
    return oid;
}

static const KT_OPT *find_opt(const KT_OPT *opts, const char *a)
{
    if (a[0] == '-' && a[1] == '-')
        a++; /* --opt and -opt alike */
    for (; opts->name != NULL; opts++)
        if (strcmp(opts->name, a) == 0)
            return opts;
    return NULL;
}

int kt_parse_opts(int argc, char **argv, const KT_OPT *opts, void (*usage)(FILE *))
{
    for (int i = 1; i < argc; i++) {
        const KT_OPT *o = find_opt(opts, argv[i]);
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (o != NULL && o->flag != NULL) {
            *o->flag = 1;
            continue;
        }
        if (o == NULL || i + 1 >= argc) {
            fprintf(stderr, "fastsig-keytool: bad option or value: %s\n", argv[i]);
            usage(stderr);
            return -1;
        }
        *o->value = argv[++i];
    }
    return 1;
}

int kt_with_providers(const char *provider_path, int (*run)(const void *), const void *arg)
{
    OSSL_PROVIDER *fs, *dflt;
    int rc;

    if (!kt_provider_path(provider_path))
        return 2;
    if (!kt_load_providers(&fs, &dflt))
        return 1;
    rc = run(arg);
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(fs);
    return rc;
}
