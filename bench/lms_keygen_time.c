/* lms_keygen_time.c - one HSS/LMS key generation on the core, timed, with
 * progress: for the tall trees (H20 and up) that fastsig-bench's default
 * run leaves out. Not a benchmark of many rounds: run it once on a quiet
 * machine.
 *   lms-keygen-time LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8[,LEVEL...] [THREADS]
 * Prints the wall time of key generation (the top tree and the first tree
 * of every lower level) to stdout, progress to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lms/hss.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int progress(void *arg, uint64_t done, uint64_t total)
{
    unsigned *last = arg, pct = total ? (unsigned)(done * 100 / total) : 100;
    if (pct >= *last + 5 || done == total) {
        fprintf(stderr, "\rkeygen %3u%% (%llu of %llu leaves)", pct, (unsigned long long)done,
                (unsigned long long)total);
        *last = pct;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s LMS_SET/LMOTS_SET[,LMS_SET/LMOTS_SET...] [THREADS]\n", argv[0]);
        return 2;
    }
    lms_params lp[LMS_MAX_LEVELS];
    lmots_params op[LMS_MAX_LEVELS];
    unsigned L = 0, threads = argc > 2 ? (unsigned)atoi(argv[2]) : 1, last = 0;
    char spec[512];
    snprintf(spec, sizeof(spec), "%s", argv[1]);
    for (char *save = NULL, *lv = strtok_r(spec, ",", &save); lv != NULL;
         lv = strtok_r(NULL, ",", &save)) {
        char *slash = strchr(lv, '/');
        if (slash == NULL || L == LMS_MAX_LEVELS) {
            fprintf(stderr, "%s: bad level '%s' (LMS_SET/LMOTS_SET)\n", argv[0], lv);
            return 2;
        }
        *slash = 0;
        if (lms_params_by_name(&lp[L], lv) != 0 || lmots_params_by_name(&op[L], slash + 1) != 0) {
            fprintf(stderr, "%s: unknown set '%s/%s'\n", argv[0], lv, slash + 1);
            return 2;
        }
        L++;
    }
    if (threads == 0) {
        fprintf(stderr, "%s: THREADS must be at least 1\n", argv[0]);
        return 2;
    }
    uint8_t seed[32], I[16];
    for (unsigned i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)(7 * i + 1);
    memset(I, 0x5a, sizeof(I));
    hss_key *k = NULL;
    double t0 = now();
    int rc = hss_key_gen_mt(&k, L, lp, op, seed, I, threads, progress, &last);
    double t = now() - t0;
    fprintf(stderr, "\n");
    if (rc != 0) {
        fprintf(stderr, "%s: key generation failed (code %d)\n", argv[0], rc);
        return 1;
    }
    printf("keygen %s, %u thread(s): %.3f s\n", argv[1], threads, t);
    hss_key_free(k);
    return 0;
}
