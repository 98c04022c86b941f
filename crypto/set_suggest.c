/* set_suggest.c - see set_suggest.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "set_suggest.h"
#include "xmss/params.h"
#include "lms/lms_params.h"

#define NAME_MAX_CMP 64 /* longer names compare by their first 64 characters */
#define NEAREST 3

unsigned fs_name_distance(const char *a, const char *b)
{
    unsigned row[NAME_MAX_CMP + 1];
    size_t la = strnlen(a, NAME_MAX_CMP), lb = strnlen(b, NAME_MAX_CMP);

    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned sub = diag + (tolower((unsigned char)a[i - 1])
                                   != tolower((unsigned char)b[j - 1]));
            unsigned best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[lb] > 255 ? 255 : row[lb];
}

/* Name i of table (NULL past its end); buf holds LMS names. */
static const char *name_at(fs_set_table t, size_t i, char *buf, size_t len)
{
    static const int kinds[] = { XMSS_KIND_XMSS, XMSS_KIND_XMSSMT, XMSS_KIND_WOTSP };
    lms_params lp;
    lmots_params op;

    if (t == FS_SETS_LMS)
        return lms_params_at(&lp, i) == 0 ? (snprintf(buf, len, "%s", lp.name), buf) : NULL;
    if (t == FS_SETS_LMOTS)
        return lmots_params_at(&op, i) == 0 ? (snprintf(buf, len, "%s", op.name), buf) : NULL;
    const xmss_params *p = xmss_params_at(i);
    if (p == NULL)
        return NULL;
    return p->kind == kinds[t] ? p->name : ""; /* "": another kind's row, skipped */
}

size_t fs_sets_nearest(fs_set_table table, const char *name, char *out, size_t outlen)
{
    size_t best[NEAREST], n = 0, used = 0;
    unsigned dist[NEAREST];
    char buf[32];
    const char *c;

    for (size_t i = 0; (c = name_at(table, i, buf, sizeof(buf))) != NULL; i++) {
        if (c[0] == '\0')
            continue;
        unsigned d = fs_name_distance(name, c);
        size_t k = n;
        if (n == NEAREST) {
            if (d >= dist[NEAREST - 1])
                continue;
            k = NEAREST - 1; /* the worst goes */
        } else {
            n++;
        }
        for (; k > 0 && dist[k - 1] > d; k--) { /* stable: table order on ties */
            best[k] = best[k - 1];
            dist[k] = dist[k - 1];
        }
        best[k] = i;
        dist[k] = d;
    }
    if (outlen > 0)
        out[0] = '\0';
    for (size_t i = 0; i < n && outlen > 0; i++) {
        c = name_at(table, best[i], buf, sizeof(buf));
        int w = snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", c);
        if (w < 0 || (size_t)w >= outlen - used) {
            out[used] = '\0'; /* whole names only */
            break;
        }
        used += (size_t)w;
    }
    return n;
}
