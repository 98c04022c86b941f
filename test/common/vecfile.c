/* vecfile.c - see vecfile.h. */
#include <stdlib.h>
#include <string.h>
#include "hex.h"
#include "vecfile.h"

#ifndef FASTSIG_VECTORS_DIR
#define FASTSIG_VECTORS_DIR "test/vectors"
#endif

const char *fs_vectors_dir(void)
{
    const char *env = getenv("FASTSIG_VECTORS");
    return env && *env ? env : FASTSIG_VECTORS_DIR;
}

FILE *fs_open_vector(const char *rel)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", fs_vectors_dir(), rel);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        char msg[4200];
        snprintf(msg, sizeof(msg), "known-answer vectors not found: looked for %s "
                 "(set FASTSIG_VECTORS to the test/vectors folder)", path);
        fprintf(stderr, "%s\n", msg);
        fs_vector_missing(msg);
    }
    return f;
}

uint8_t *fs_unhex_alloc(const char *hex, size_t *len)
{
    size_t n = strlen(hex);
    if (n % 2)
        return NULL;
    uint8_t *out = malloc(n / 2 + 1);
    if (out == NULL || fs_unhex(hex, out, n / 2)) {
        free(out);
        return NULL;
    }
    *len = n / 2;
    return out;
}
