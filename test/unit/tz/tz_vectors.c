/* tz_vectors.c - parse tzhash.txt (format in the vectors README). */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "tz_vectors.h"

uint8_t *tzv_expand(const char *spec, size_t *len)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    if (strncmp(spec, "hex:", 4) == 0) {
        if (spec[4] == 0) {
            *len = 0;
            return malloc(1);
        }
        return fs_unhex_alloc(spec + 4, len);
    }
    if (strncmp(spec, "ascii:", 6) == 0) {
        n = strlen(spec + 6);
        buf = malloc(n + 1);
        memcpy(buf, spec + 6, n);
    } else if (strncmp(spec, "seq:", 4) == 0 || strncmp(spec, "pat131:", 7) == 0) {
        int pat = spec[0] == 'p';
        n = strtoul(strchr(spec, ':') + 1, NULL, 10);
        buf = malloc(n + 1);
        for (size_t i = 0; i < n; i++)
            buf[i] = pat ? (uint8_t)((i * 131 + 7) & 0xff) : (uint8_t)(i & 0xff);
    } else if (strncmp(spec, "rep:", 4) == 0) {
        unsigned byte = (unsigned)strtoul(spec + 4, NULL, 16);
        n = strtoul(strchr(spec + 4, ':') + 1, NULL, 10);
        buf = malloc(n + 1);
        memset(buf, (int)byte, n);
    } else {
        return NULL;
    }
    *len = n;
    return buf;
}

static FILE *open_file(void)
{
    return fs_open_vector("tz/tzhash.txt");
}

int tzv_for_each_digest(tzv_digest_fn fn, void *arg)
{
    FILE *f = open_file();
    if (f == NULL)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int count = 0;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == '#' || line[0] == 0)
            continue;
        char *fields[4] = { 0 };
        char *save = NULL, *p = line;
        int nf = 0;
        for (char *tok; nf < 4 && (tok = strtok_r(p, "\t", &save)) != NULL; p = NULL)
            fields[nf++] = tok;
        uint8_t digest[64];
        size_t len;
        if (nf != 4 || strchr(fields[2], ':') == NULL || fs_unhex(fields[3], digest, 64))
            continue; /* not a digest line (concat, subtract, ...) */
        uint8_t *msg = tzv_expand(fields[2], &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
        CU_ASSERT_EQUAL(len, strtoul(fields[1], NULL, 10));
        fn(fields[0], msg, len, digest, arg);
        free(msg);
        count++;
    }
    free(line);
    fclose(f);
    return count;
}

char *tzv_line(const char *id)
{
    FILE *f = open_file();
    if (f == NULL)
        return NULL;
    char *line = NULL, *found = NULL;
    size_t cap = 0, idlen = strlen(id);
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, id, idlen) == 0 && line[idlen] == '\t') {
            line[strcspn(line, "\r\n")] = 0;
            found = strdup(line);
            break;
        }
    }
    free(line);
    fclose(f);
    return found;
}
