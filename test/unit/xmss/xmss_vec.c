/* xmss_vec.c - see xmss_vec.h. */
#include <stdlib.h>
#include <string.h>
#include "vecfile.h"
#include "xmss_vec.h"

xmss_vec *xmss_vec_load(const char *file)
{
    char rel[256];
    snprintf(rel, sizeof(rel), "xmss/%s", file);
    FILE *f = fs_open_vector(rel);
    if (f == NULL)
        return NULL;
    xmss_vec *v = calloc(1, sizeof(*v));
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, f)) > 0) {
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = 0;
        char *eq = strstr(line, " = ");
        if (line[0] == '#' || eq == NULL)
            continue;
        *eq = 0;
        v->keys = realloc(v->keys, (v->count + 1) * sizeof(char *));
        v->vals = realloc(v->vals, (v->count + 1) * sizeof(char *));
        v->keys[v->count] = strdup(line);
        v->vals[v->count] = strdup(eq + 3);
        v->count++;
    }
    free(line);
    fclose(f);
    return v;
}

void xmss_vec_free(xmss_vec *v)
{
    if (v == NULL)
        return;
    for (size_t i = 0; i < v->count; i++) {
        free(v->keys[i]);
        free(v->vals[i]);
    }
    free(v->keys);
    free(v->vals);
    free(v);
}

const char *xmss_vec_get(const xmss_vec *v, const char *key)
{
    for (size_t i = 0; v != NULL && i < v->count; i++)
        if (strcmp(v->keys[i], key) == 0)
            return v->vals[i];
    return NULL;
}

uint8_t *xmss_vec_bytes(const xmss_vec *v, const char *key, size_t *len)
{
    const char *s = xmss_vec_get(v, key);
    return s ? fs_unhex_alloc(s, len) : NULL;
}
