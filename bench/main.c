/* main.c - fastsig-bench [--filter SUBSTRING] [--json] [--rounds N] [--quick]
 *
 * Loads the fastsig provider (from $FASTSIG_MODULE_DIR, else the build
 * folder it was built in, else libcrypto's module directory) beside
 * OpenSSL's default provider, and runs every group. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/provider.h>
#include "bench.h"
#include "bench_internal.h"
#include "bench_stateful.h"

#define MAX_GROUPS 32
static struct {
    const char *name;
    void (*run)(void);
} groups[MAX_GROUPS];
static size_t ngroups;

void bench_register_group(const char *name, void (*run)(void))
{
    if (ngroups < MAX_GROUPS) {
        groups[ngroups].name = name;
        groups[ngroups].run = run;
        ngroups++;
    }
}

static OSSL_LIB_CTX *libctx;

OSSL_LIB_CTX *bench_libctx(void)
{
    return libctx;
}

static const char *module_dir;

const char *bench_module_dir(void)
{
    return module_dir;
}

static int load_providers(void)
{
    const char *dir = getenv("FASTSIG_MODULE_DIR");
#ifdef FASTSIG_BUILD_DIR
    if (dir == NULL)
        dir = FASTSIG_BUILD_DIR;
#endif
    libctx = OSSL_LIB_CTX_new();
    if (libctx == NULL)
        return 0;
    if (dir != NULL)
        OSSL_PROVIDER_set_default_search_path(libctx, dir);
    module_dir = dir;
    if (OSSL_PROVIDER_load(libctx, "fastsig") == NULL
        && (OSSL_PROVIDER_set_default_search_path(libctx, NULL),
            OSSL_PROVIDER_load(libctx, "fastsig") == NULL)) {
        fprintf(stderr, "fastsig-bench: cannot load the fastsig provider (set FASTSIG_MODULE_DIR)\n");
        return 0;
    }
    return OSSL_PROVIDER_load(libctx, "default") != NULL;
}

static void usage(void)
{
    fprintf(stderr, "usage: fastsig-bench [--filter SUBSTRING] [--json] [--rounds N] [--quick]\n"
                    "  --filter  only rows whose \"op variant\" contains SUBSTRING\n"
                    "  --json    one JSON object per row\n"
                    "  --rounds  interleaved rounds per row, median reported (default 11)\n"
                    "  --quick   3 rounds of short samples (a smoke run, not for figures)\n");
}

int main(int argc, char **argv)
{
    struct bench_options o = { NULL, 0, 11, 20.0 };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
            o.filter = argv[++i];
        else if (strcmp(argv[i], "--json") == 0)
            o.json = 1;
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
            o.rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0) {
            o.rounds = 3;
            o.sample_ms = 2.0;
        } else {
            usage();
            return 2;
        }
    }
    bench_set_options(&o);
    /* Keys made here are thrown away: their key-id registry entries (made at
     * every keygen in the default state directory) go into a scratch
     * directory, not the user's, unless the caller chose one. */
    char regdir[4096] = "";
    if (getenv("FASTSIG_STATE_DIR") == NULL) {
        if (!bench_stateful_tmpdir(regdir, sizeof(regdir)))
            return 1;
        setenv("FASTSIG_STATE_DIR", regdir, 1);
    }
    int ok = load_providers();
    if (ok) {
        bench_print_plan();
        bench_print_header();
        for (size_t g = 0; g < ngroups; g++)
            groups[g].run();
    }
    OSSL_LIB_CTX_free(libctx);
    if (regdir[0] != '\0')
        bench_stateful_rmdir(regdir);
    return ok ? 0 : 1;
}
