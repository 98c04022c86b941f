/* sign_hold.c - test helper: a running signer. Loads the fastsig provider
 * (from $FASTSIG_MODULE_DIR), signs COUNT messages with the private key
 * KEY (so it holds reserved indices), creates READY, then waits; SIGTERM
 * makes it sign once more (printing "sign: ok" or "sign: failed: ...",
 * to see what a signer meets after its state was moved) and exit cleanly,
 * freeing the key (which gives its unused indices back).
 * Usage: sign_hold KEY COUNT READY */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

static int sign_one(EVP_PKEY *k)
{
    unsigned char sig[65536];
    size_t len = sizeof(sig);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c != NULL && EVP_DigestSignInit_ex(c, NULL, NULL, NULL, NULL, k, NULL) == 1
             && EVP_DigestSign(c, sig, &len, (const unsigned char *)"msg", 3) == 1;
    EVP_MD_CTX_free(c);
    return ok;
}

int main(int argc, char **argv)
{
    const char *dir = getenv("FASTSIG_MODULE_DIR");
    FILE *f;
    EVP_PKEY *k = NULL;
    OSSL_PROVIDER *fs, *dflt;
    sigset_t none;

    if (argc != 4) {
        fprintf(stderr, "usage: sign_hold KEY COUNT READY\n");
        return 2;
    }
    signal(SIGTERM, on_term);
    if ((dir != NULL && !OSSL_PROVIDER_set_default_search_path(NULL, dir))
        || (fs = OSSL_PROVIDER_load(NULL, "fastsig")) == NULL
        || (dflt = OSSL_PROVIDER_load(NULL, "default")) == NULL || (f = fopen(argv[1], "r")) == NULL
        || (k = PEM_read_PrivateKey(f, NULL, NULL, NULL)) == NULL) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    fclose(f);
    for (long i = 0; i < atol(argv[2]); i++)
        if (!sign_one(k)) {
            ERR_print_errors_fp(stderr);
            return 1;
        }
    if ((f = fopen(argv[3], "w")) == NULL)
        return 1;
    fclose(f);
    sigemptyset(&none);
    while (!stop)
        sigsuspend(&none);
    if (sign_one(k)) {
        printf("sign: ok\n");
    } else {
        printf("sign: failed: ");
        ERR_print_errors_fp(stdout);
    }
    EVP_PKEY_free(k);
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(fs);
    return 0;
}
