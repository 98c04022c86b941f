/* rw_vectors.c - readers for the two RW vector files (see rw_vectors.h).
 * The JSON reader is deliberately narrow: a list of flat objects whose
 * values are strings or integers, which is what the file holds. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rw_vectors.h"

static char *slurp(const char *rel)
{
    FILE *f = fs_open_vector(rel);
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    if (buf != NULL)
        buf[len] = 0;
    fclose(f);
    return buf;
}

/* Appends the hex digits of s to the growing string *acc. */
static void append_hex(char **acc, const char *s)
{
    size_t have = *acc ? strlen(*acc) : 0, add = 0;
    for (const char *c = s; *c; c++)
        add += isxdigit((unsigned char)*c) != 0;
    char *n = realloc(*acc, have + add + 1);
    for (const char *c = s; *c; c++)
        if (isxdigit((unsigned char)*c))
            n[have++] = (char)tolower((unsigned char)*c);
    n[have] = 0;
    *acc = n;
}

int rwv_load_txt(rwv_record **out)
{
    char *text = slurp("rw/cryptopp-rw.txt");
    if (text == NULL)
        return -1;
    int count = 0, cap = 0;
    rwv_record *recs = NULL;
    char *cur_n = NULL, *cur_p = NULL, *cur_q = NULL, *msg = NULL, *sig = NULL;
    char **target = NULL;      /* field a "\" line continues */
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        size_t len = strlen(line);
        int cont = len > 0 && line[len - 1] == '\\';
        if (target != NULL && isspace((unsigned char)line[0])) {
            if (cont)
                line[len - 1] = 0;
            append_hex(target, line);
            target = cont ? target : NULL;
            continue;
        }
        target = NULL;
        char *colon = strchr(line, ':');
        if (colon == NULL)
            continue;
        *colon = 0;
        char *val = colon + 1;
        char **field = strcmp(line, "Modulus") == 0 ? &cur_n : strcmp(line, "Prime1") == 0 ? &cur_p
                       : strcmp(line, "Prime2") == 0 ? &cur_q : strcmp(line, "Message") == 0 ? &msg
                       : strcmp(line, "Signature") == 0 ? &sig : NULL;
        if (field != NULL) {
            free(*field);
            *field = NULL;
            if (cont)
                val[strlen(val) - 1] = 0;
            append_hex(field, val);
            target = cont ? field : NULL;
        } else if (strcmp(line, "Test") == 0 && strstr(val, "Verify") && msg && sig) {
            if (count == cap)
                recs = realloc(recs, sizeof(*recs) * (size_t)(cap = cap ? 2 * cap : 32));
            recs[count++] = (rwv_record){ strdup(cur_n), strdup(cur_p), strdup(cur_q), msg, sig };
            msg = sig = NULL;
        }
    }
    free(cur_n); free(cur_p); free(cur_q); free(msg); free(sig);
    free(text);
    *out = recs;
    return count;
}

/* The value after "key": in [obj, end), as a malloc'd string; NULL if absent. */
static char *json_field(const char *obj, const char *end, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof(pat), "\"%s\"", key);
    const char *p = strstr(obj, pat);
    if (p == NULL || p >= end)
        return NULL;
    p = strchr(p + strlen(pat), ':') + 1;
    while (isspace((unsigned char)*p))
        p++;
    const char *q;
    if (*p == '"') {
        q = strchr(++p, '"');
    } else {
        q = p;
        while (*q == '-' || isdigit((unsigned char)*q) || isalpha((unsigned char)*q))
            q++;
    }
    return strndup(p, (size_t)(q - p));
}

int rwv_load_json(rwv_derived **out)
{
    char *text = slurp("rw/cryptopp-rw-derived.json");
    if (text == NULL)
        return -1;
    int count = 0, cap = 0;
    rwv_derived *d = NULL;
    for (const char *o = strchr(text, '{'); o != NULL; o = strchr(o + 1, '{')) {
        const char *end = strchr(o, '}');
        if (end == NULL)
            break;
        if (count == cap)
            d = realloc(d, sizeof(*d) * (size_t)(cap = cap ? 2 * cap : 32));
        rwv_derived *r = &d[count++];
        char *bits = json_field(o, end, "bits"), *e = json_field(o, end, "e"),
             *f = json_field(o, end, "f");
        r->bits = bits ? atoi(bits) : 0;
        r->e = e ? atoi(e) : 0;
        r->f = f ? atoi(f) : 0;
        free(bits); free(e); free(f);
        r->n = json_field(o, end, "n");
        r->p = json_field(o, end, "p");
        r->q = json_field(o, end, "q");
        r->u = json_field(o, end, "u");
        r->msg = json_field(o, end, "msg");
        r->sig_vector = json_field(o, end, "sig_vector");
        r->sig_p1363 = json_field(o, end, "sig_p1363");
        o = end;
    }
    free(text);
    *out = d;
    return count;
}

uint8_t *rwv_unhex(const char *hex, size_t *len)
{
    if (strlen(hex) % 2 == 0)
        return fs_unhex_alloc(hex, len);
    char *padded = malloc(strlen(hex) + 2);
    padded[0] = '0';
    strcpy(padded + 1, hex);
    uint8_t *out = fs_unhex_alloc(padded, len);
    free(padded);
    return out;
}

void rwv_free_txt(rwv_record *r, int n)
{
    for (int i = 0; i < n; i++) {
        free(r[i].n); free(r[i].p); free(r[i].q); free(r[i].msg); free(r[i].sig);
    }
    free(r);
}

void rwv_free_json(rwv_derived *d, int n)
{
    for (int i = 0; i < n; i++) {
        free(d[i].n); free(d[i].p); free(d[i].q); free(d[i].u);
        free(d[i].msg); free(d[i].sig_vector); free(d[i].sig_p1363);
    }
    free(d);
}
