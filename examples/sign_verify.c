/* sign_verify.c - sign a file with a stateful hash-based key (HSS, XMSS,
 * XMSSMT) and verify the signature: load the providers, load the key or
 * generate it (its state file beside it) and save it at once, sign, verify,
 * print the signatures the key has left.
 *
 *   cc sign_verify.c -o sign_verify $(pkg-config --cflags fastsig) \
 *       $(pkg-config --cflags --libs libcrypto)
 *   ./sign_verify HSS key.pem firmware.bin firmware.sig [PARAM]
 *
 * The first run makes key.pem (mode 0600) and its state file key.pem.state;
 * every run spends one index of the key. Keep the two files together, one
 * live copy only (README, "The state of a key"). This example writes the key
 * unencrypted: encrypt it (PEM_write_bio_PrivateKey with a cipher) for real
 * use. Exit status 0: signed and verified; 2: an error (printed). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <fastsig/provider.h>

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "sign_verify: %s%s%s\n", what, path ? ": " : "", path ? path : "");
    ERR_print_errors_fp(stderr);
    return 2;
}

/* The whole file: a hash-based signature covers the message whole. */
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

static EVP_PKEY *load_key(const char *path)
{
    BIO *in = BIO_new_file(path, "r");
    EVP_PKEY *key = in ? PEM_read_bio_PrivateKey_ex(in, NULL, NULL, NULL, NULL, NULL) : NULL;
    BIO_free(in);
    return key;
}

/* A new key of alg (param: its set, NULL for the default) whose state file is
 * state. EVP_PKEY_Q_keygen knows only OpenSSL's own key types. */
static EVP_PKEY *generate(const char *alg, const char *param, const char *state)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    EVP_PKEY *key = NULL;
    OSSL_PARAM params[3], *p = params;
    *p++ = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, (char *)state, 0);
    if (param != NULL)
        *p++ = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)param, 0);
    *p = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_CTX_set_params(ctx, params) <= 0
        || EVP_PKEY_generate(ctx, &key) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(ctx);
    return key;
}

/* Saves the key before it signs anything: its state file exists from now on,
 * and a key from a random seed cannot be made again. */
static int save_key(EVP_PKEY *key, const char *path)
{
    BIO *mem = BIO_new(BIO_s_mem());
    char *pem = NULL;
    long len;
    int ok = mem != NULL && PEM_write_bio_PrivateKey(mem, key, NULL, NULL, 0, NULL, NULL)
             && (len = BIO_get_mem_data(mem, &pem)) > 0
             && write_new_file(path, pem, (size_t)len, 0600);
    BIO_free(mem);
    return ok;
}

int main(int argc, char **argv)
{
    const char *alg, *keyfile, *msgfile, *sigfile;
    char state[4096];
    unsigned char *msg = NULL, *sig = NULL;
    size_t msglen = 0, siglen = 0;
    uint64_t index = 0, remaining = 0, max = 0;
    EVP_MD_CTX *md = NULL;
    EVP_PKEY *key = NULL;
    int rc = 2;

    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: sign_verify HSS|XMSS|XMSSMT KEY.pem FILE SIG [PARAM]\n");
        return 2;
    }
    alg = argv[1], keyfile = argv[2], msgfile = argv[3], sigfile = argv[4];
    /* fastsig for the key type, default for PEM and the rest */
    if (OSSL_PROVIDER_load(NULL, FASTSIG_PROVIDER_NAME) == NULL
        || OSSL_PROVIDER_load(NULL, "default") == NULL)
        return fail("cannot load the providers (OPENSSL_MODULES?)", NULL);
    if (access(keyfile, F_OK) == 0) {
        if ((key = load_key(keyfile)) == NULL)
            return fail("cannot load the key", keyfile);
    } else {
        snprintf(state, sizeof(state), "%s.state", keyfile);
        if ((key = generate(alg, argc == 6 ? argv[5] : NULL, state)) == NULL)
            return fail("key generation failed", keyfile);
        if (!save_key(key, keyfile)) {
            fail("cannot save the key (its state file is left: remove it)", keyfile);
            goto end;
        }
        printf("generated %s key %s, state %s\n", alg, keyfile, state);
    }
    if (access(sigfile, F_OK) == 0) { /* refused before an index is spent */
        fail("the signature file exists", sigfile);
        goto end;
    }
    if ((msg = read_file(msgfile, &msglen)) == NULL) {
        fail("cannot read", msgfile);
        goto end;
    }
    /* no digest: the scheme hashes the message itself (one index spent) */
    if ((md = EVP_MD_CTX_new()) == NULL
        || EVP_DigestSignInit_ex(md, NULL, NULL, NULL, NULL, key, NULL) <= 0
        || EVP_DigestSign(md, NULL, &siglen, msg, msglen) <= 0
        || (sig = OPENSSL_malloc(siglen)) == NULL
        || EVP_DigestSign(md, sig, &siglen, msg, msglen) <= 0) {
        fail("signing failed", keyfile);
        goto end;
    }
    if (!write_new_file(sigfile, sig, siglen, 0644)) {
        fail("cannot write the signature (exists?)", sigfile);
        goto end;
    }
    EVP_MD_CTX_free(md);
    if ((md = EVP_MD_CTX_new()) == NULL
        || EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, NULL, key, NULL) <= 0
        || EVP_DigestVerify(md, sig, siglen, msg, msglen) != 1) {
        fail("the signature does not verify", sigfile);
        goto end;
    }
    OSSL_PARAM st[] = {
        OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_INDEX, &index),
        OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_REMAINING, &remaining),
        OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_MAX, &max),
        OSSL_PARAM_END,
    };
    if (!EVP_PKEY_get_params(key, st)) {
        fail("cannot read the key's state", keyfile);
        goto end;
    }
    printf("signed %s (%zu bytes), verified; next index %llu, remaining %llu of %llu\n", sigfile,
           siglen, (unsigned long long)index, (unsigned long long)remaining,
           (unsigned long long)max);
    rc = 0;
end:
    EVP_MD_CTX_free(md);
    OPENSSL_free(sig);
    free(msg);
    EVP_PKEY_free(key); /* gives back the indices reserved ahead */
    return rc;
}
