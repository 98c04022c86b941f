/* stream_file.c - one file signed or verified through EVP as it streams
 * (64 KiB reads), timed, with the process's peak RSS: the figures of
 * doc/performance.md section "Large messages". Not a benchmark of many
 * rounds: run it on a quiet machine, beside `sha256sum FILE`.
 *   stream-file sign KEY.pem FILE SIG     EVP_DigestSign{Init,Update,Final}
 *   stream-file verify KEY.pem FILE SIG   OpenSSL 3.5: verify_message with the
 *                                         signature set first; 3.0:
 *                                         EVP_DigestVerify{Init,Update,Final}
 * KEY.pem: a private key to sign, a private or public key to verify. The
 * provider comes from $FASTSIG_MODULE_DIR, else the build folder. Prints
 * "<op> <bytes> bytes <seconds> s <MB/s> MB/s peak RSS <KiB> KiB". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

#define CHUNK (64u << 10)

static OSSL_LIB_CTX *libctx;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long peak_kib(void)
{
    char line[256];
    long v = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f != NULL && fgets(line, sizeof(line), f) != NULL)
        if (sscanf(line, "VmHWM: %ld kB", &v) == 1)
            break;
    if (f != NULL)
        fclose(f);
    return v;
}

static int load(void)
{
    const char *dir = getenv("FASTSIG_MODULE_DIR");
#ifdef FASTSIG_BUILD_DIR
    if (dir == NULL)
        dir = FASTSIG_BUILD_DIR;
#endif
    if ((libctx = OSSL_LIB_CTX_new()) == NULL)
        return 0;
    if (dir != NULL)
        OSSL_PROVIDER_set_default_search_path(libctx, dir);
    return OSSL_PROVIDER_load(libctx, "fastsig") != NULL
           && OSSL_PROVIDER_load(libctx, "default") != NULL;
}

static EVP_PKEY *read_key(const char *path, int priv)
{
    BIO *b = BIO_new_file(path, "r");
    EVP_PKEY *k = NULL;
    if (b != NULL && priv)
        k = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, libctx, NULL);
    if (b != NULL && !priv)
        k = PEM_read_bio_PUBKEY_ex(b, NULL, NULL, NULL, libctx, NULL);
    BIO_free(b);
    return k;
}

/* Feeds FILE to update (ctx: an EVP_MD_CTX or EVP_PKEY_CTX); the byte count
 * or -1. */
static long long feed(FILE *in, int (*update)(void *, const unsigned char *, size_t), void *ctx)
{
    static unsigned char buf[CHUNK];
    long long total = 0;
    size_t got;
    while ((got = fread(buf, 1, sizeof(buf), in)) > 0) {
        if (update(ctx, buf, got) <= 0)
            return -1;
        total += (long long)got;
    }
    return ferror(in) ? -1 : total;
}

static int sign_update(void *m, const unsigned char *d, size_t n)
{
    return EVP_DigestSignUpdate(m, d, n);
}

static int verify_update(void *m, const unsigned char *d, size_t n)
{
    return EVP_DigestVerifyUpdate(m, d, n);
}

static long long do_sign(EVP_PKEY *k, FILE *in, const char *sigpath)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    unsigned char *sig = NULL;
    size_t sl = 0;
    long long n = -1;
    FILE *out;
    if (EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0
        && (n = feed(in, sign_update, m)) >= 0 && EVP_DigestSignFinal(m, NULL, &sl) > 0
        && (sig = OPENSSL_malloc(sl)) != NULL && EVP_DigestSignFinal(m, sig, &sl) > 0
        && (out = fopen(sigpath, "wb")) != NULL) {
        if (fwrite(sig, 1, sl, out) != sl)
            n = -1;
        fclose(out);
    } else {
        n = -1;
    }
    OPENSSL_free(sig);
    EVP_MD_CTX_free(m);
    return n;
}

#if OPENSSL_VERSION_NUMBER >= 0x30500000L
static int message_update(void *c, const unsigned char *d, size_t n)
{
    return EVP_PKEY_verify_message_update(c, d, n);
}
#endif

static long long do_verify(EVP_PKEY *k, FILE *in, const unsigned char *sig, size_t sl)
{
    long long n = -1;
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL);
    EVP_SIGNATURE *alg = EVP_SIGNATURE_fetch(libctx, EVP_PKEY_get0_type_name(k), NULL);
    OSSL_PARAM prm[2] = { OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE,
                                                            (void *)sig, sl),
                          OSSL_PARAM_construct_end() };
    if (c == NULL || alg == NULL || EVP_PKEY_verify_message_init(c, alg, prm) <= 0
        || (n = feed(in, message_update, c)) < 0 || EVP_PKEY_verify_message_final(c) <= 0)
        n = -1;
    EVP_SIGNATURE_free(alg);
    EVP_PKEY_CTX_free(c);
#else
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (EVP_DigestVerifyInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) <= 0
        || (n = feed(in, verify_update, m)) < 0 || EVP_DigestVerifyFinal(m, sig, sl) <= 0)
        n = -1;
    EVP_MD_CTX_free(m);
#endif
    (void)verify_update;
    return n;
}

int main(int argc, char **argv)
{
    int sign = argc == 5 && strcmp(argv[1], "sign") == 0;
    unsigned char sig[1 << 16];
    size_t sl = 0;
    EVP_PKEY *k;
    FILE *in, *sf;
    if (argc != 5 || (!sign && strcmp(argv[1], "verify") != 0)) {
        fprintf(stderr, "usage: stream-file sign|verify KEY.pem FILE SIG\n");
        return 2;
    }
    if (!load() || ((k = read_key(argv[2], 1)) == NULL && (sign || (k = read_key(argv[2], 0)) == NULL))
        || (in = fopen(argv[3], "rb")) == NULL) {
        fprintf(stderr, "stream-file: cannot load the providers, %s or %s\n", argv[2], argv[3]);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    if (!sign && ((sf = fopen(argv[4], "rb")) == NULL || (sl = fread(sig, 1, sizeof(sig), sf)) == 0)) {
        fprintf(stderr, "stream-file: cannot read the signature %s\n", argv[4]);
        return 1;
    }
    double t0 = now();
    long long n = sign ? do_sign(k, in, argv[4]) : do_verify(k, in, sig, sl);
    double dt = now() - t0;
    fclose(in);
    EVP_PKEY_free(k);
    if (n < 0) {
        fprintf(stderr, "stream-file: %s failed\n", argv[1]);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    printf("%s %lld bytes %.3f s %.0f MB/s peak RSS %ld KiB\n", argv[1], n, dt,
           (double)n / dt / 1e6, peak_kib());
    return 0;
}
