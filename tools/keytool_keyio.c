/* keytool_keyio.c - see keytool_keyio.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/buffer.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include "fastsig/provider.h"
#include "keytool_cmds.h"
#include "keytool_keyio.h"
#include "state/fileio.h"

void kt_die_ssl(const char *what)
{
    fprintf(stderr, "fastsig-keytool: %s\n", what);
    ERR_print_errors_fp(stderr);
}

static int read_pass_file(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (f == NULL || fgets(out, (int)len, f) == NULL) {
        fprintf(stderr, "fastsig-keytool: cannot read %s: %s\n", path,
                f == NULL ? strerror(errno) : "empty file");
        if (f != NULL)
            fclose(f);
        return 0;
    }
    fclose(f);
    out[strcspn(out, "\r\n")] = '\0';
    return 1;
}

int kt_read_pass(const char *arg, char *out, size_t len)
{
    const char *v = NULL;
    if (strncmp(arg, "file:", 5) == 0)
        return read_pass_file(arg + 5, out, len);
    if (strncmp(arg, "pass:", 5) == 0) {
        v = arg + 5;
    } else if (strncmp(arg, "env:", 4) == 0) {
        if ((v = getenv(arg + 4)) == NULL) {
            fprintf(stderr, "fastsig-keytool: no environment variable %s\n", arg + 4);
            return 0;
        }
    } else {
        fprintf(stderr, "fastsig-keytool: passphrase argument %s: use pass:, env: or file:\n",
                arg);
        return 0;
    }
    if (strlen(v) >= len) {
        fprintf(stderr, "fastsig-keytool: passphrase too long\n");
        return 0;
    }
    strcpy(out, v);
    return 1;
}

/* Called only for an encrypted key: notes that, and hands over the known
 * passphrase, or asks for it (as openssl does) and keeps it for the next
 * loads. */
static int pass_cb(char *buf, int size, int rwflag, void *u)
{
    KT_PASSIN *in = u;
    int n;

    in->encrypted = 1;
    if (!in->known) {
        n = PEM_def_callback(in->pass, (int)sizeof(in->pass), 0, NULL);
        if (n <= 0)
            return n;
        in->known = 1;
    }
    n = (int)strlen(in->pass);
    if (n > size)
        return -1;
    memcpy(buf, in->pass, (size_t)n);
    return n;
}

EVP_PKEY *kt_load_key(const char *path, KT_PASSIN *in)
{
    BIO *bio = BIO_new_file(path, "r");
    EVP_PKEY *k = NULL;
    if (bio == NULL) {
        fprintf(stderr, "fastsig-keytool: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    k = PEM_read_bio_PrivateKey_ex(bio, NULL, pass_cb, in, NULL, NULL);
    BIO_free(bio);
    if (k == NULL)
        kt_die_ssl("cannot load the private key");
    return k;
}

int kt_write_file(const char *data, size_t len, const char *path, int replace)
{
    char tmp[4300];
    fastsig_cause cause;

    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= sizeof(tmp)) {
        fprintf(stderr, "fastsig-keytool: %s: path too long\n", path);
        return 0;
    }
    /* O_EXCL, 0600, fsync'd before it gets its name */
    if (fs_file_write_new(tmp, (const uint8_t *)data, len, &cause) != 0) {
        fprintf(stderr, "fastsig-keytool: cannot write %s: %s\n", tmp, strerror(cause.sys_errno));
        return 0;
    }
    if (fs_file_install(tmp, path, replace) != 0) {
        int saved = errno;
        unlink(tmp);
        fprintf(stderr, "fastsig-keytool: cannot write %s: %s\n", path, strerror(saved));
        return 0;
    }
    if (fs_file_sync_dir_of(path, &cause) != 0) {
        fprintf(stderr, "fastsig-keytool: %s written, but its directory could not be synced: %s\n",
                path, strerror(cause.sys_errno));
        return 0;
    }
    return 1;
}

int kt_write_key(EVP_PKEY *k, const char *path, const EVP_CIPHER *cipher, const char *pass)
{
    BIO *mem = BIO_new(BIO_s_secmem()); /* the key's text is wiped when freed */
    BUF_MEM *pem = NULL;
    int ok;

    if (mem == NULL || PEM_write_bio_PrivateKey(mem, k, cipher, NULL, 0, NULL, (void *)pass) != 1
        || BIO_get_mem_ptr(mem, &pem) != 1) {
        BIO_free(mem);
        kt_die_ssl("cannot encode the shard key");
        return 0;
    }
    ok = kt_write_file(pem->data, pem->length, path, 0);
    BIO_free(mem);
    return ok;
}

int kt_provider_path(const char *dir)
{
    if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(NULL, dir)) {
        kt_die_ssl("cannot set the provider path");
        return 0;
    }
    return 1;
}

int kt_load_providers(OSSL_PROVIDER **fs, OSSL_PROVIDER **dflt)
{
    if ((*fs = OSSL_PROVIDER_load(NULL, FASTSIG_PROVIDER_NAME)) == NULL) {
        kt_die_ssl("cannot load the fastsig provider");
        return 0;
    }
    if ((*dflt = OSSL_PROVIDER_load(NULL, "default")) == NULL) {
        kt_die_ssl("cannot load the default provider");
        OSSL_PROVIDER_unload(*fs);
        return 0;
    }
    return 1;
}
