/* bench_cli.c - one signature per process, as a shell script signs: a real
 * `openssl pkeyutl -sign -rawin` spawned per signature (the openssl on
 * PATH, or $OPENSSL), timed from spawn to exit. A fastsig key's command
 * loads the provider (-provider-path: the build folder the bench loaded it
 * from); a baseline key's command is what its users run, default provider
 * only. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <openssl/pem.h>
#include "bench.h"
#include "bench_stateful.h"

extern char **environ;

int bench_cli_write_key(EVP_PKEY *k, const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s.pem", dir, name);
    FILE *f = fopen(path, "w");
    int ok = f != NULL && PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL) == 1;
    if (f != NULL && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "bench: cannot write %s\n", path);
    return ok;
}

double bench_cli_sign_ns(const char *keyfile, const char *msgfile, const char *sigfile,
                         int fastsig)
{
    const char *openssl = getenv("OPENSSL");
    const char *dir = bench_module_dir();
    char *argv[16];
    int a = 0;
    argv[a++] = (char *)(openssl && *openssl ? openssl : "openssl");
    argv[a++] = "pkeyutl";
    if (fastsig && dir != NULL) {
        argv[a++] = "-provider-path";
        argv[a++] = (char *)dir;
    }
    if (fastsig) {
        argv[a++] = "-provider";
        argv[a++] = "fastsig";
        argv[a++] = "-provider";
        argv[a++] = "default";
    }
    argv[a++] = "-sign";
    argv[a++] = "-rawin";
    argv[a++] = "-inkey";
    argv[a++] = (char *)keyfile;
    argv[a++] = "-in";
    argv[a++] = (char *)msgfile;
    argv[a++] = "-out";
    argv[a++] = (char *)sigfile;
    argv[a] = NULL;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int status;
    double t0 = bench_now_ns();
    int r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    if (r == 0 && waitpid(pid, &status, 0) != pid)
        r = -1;
    double dt = bench_now_ns() - t0;
    posix_spawn_file_actions_destroy(&fa);
    if (r != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench: %s pkeyutl -sign -inkey %s failed\n", argv[0], keyfile);
        return -1;
    }
    return dt;
}

int bench_cli_rows(const char *op, const char *variant, const char *keyfile,
                   const bench_cli_base *bases, size_t nbases, size_t n, const char *dir)
{
    size_t nsel = 0;
    for (size_t b = 0; b < nbases; b++) {
        bench_spec s = { op, variant, "ms", bases[b].name, 0 };
        nsel += bench_selected(s.op, s.variant);
    }
    if (nsel == 0 || nbases > 4)
        return 0;
    fprintf(stderr, "[bench] %s %s (%zu processes each) ...\n", op, variant, n);
    char msg[600], sig[600];
    snprintf(msg, sizeof(msg), "%s/cli.msg", dir);
    snprintf(sig, sizeof(sig), "%s/cli.sig", dir);
    FILE *f = fopen(msg, "w");
    if (f == NULL || fputs("fastsig-bench: one message per process\n", f) < 0 || fclose(f) != 0)
        return 0;
    double *ours = calloc(n, sizeof(double)), *theirs[4] = { NULL };
    int ok = ours != NULL;
    for (size_t b = 0; b < nbases; b++)
        ok = ok && (theirs[b] = calloc(n, sizeof(double))) != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = (ours[i] = bench_cli_sign_ns(keyfile, msg, sig, 1)) >= 0;
        for (size_t b = 0; ok && b < nbases; b++)
            ok = (theirs[b][i] = bench_cli_sign_ns(bases[b].keyfile, msg, sig, 0)) >= 0;
    }
    for (size_t b = 0; ok && b < nbases; b++) {
        bench_spec s = { op, variant, "ms", bases[b].name, 0 };
        if (bench_selected(s.op, s.variant))
            bench_stateful_report_series(&s, ours, theirs[b], n);
    }
    free(ours);
    for (size_t b = 0; b < nbases; b++)
        free(theirs[b]);
    return ok;
}
