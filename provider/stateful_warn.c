/* stateful_warn.c - the low-water warning of stateful keys (stateful_key.h):
 * one line on stderr, once per process, when a signature leaves fewer than
 * `warn_remaining` indices in its key's range. On stderr because an
 * operator running `openssl` or a signing service is who must act on it,
 * and because a library must not leave an entry on OpenSSL's error queue
 * after a call that succeeded (a caller checking the queue later would take
 * it for its own failure); programs read the exact "remaining" parameter. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <openssl/params.h>
#include "fastsig/provider.h"
#include "stateful_key.h"

static uint64_t config_warn; /* the provider's config: set once at load */
static int warned;           /* atomic: the one line of this process went out */

static int parse_text(const char *t, uint64_t *v)
{
    char *end = NULL;
    if (t == NULL || t[0] < '0' || t[0] > '9')
        return -1;
    *v = strtoull(t, &end, 10);
    return *end == '\0' ? 1 : -1;
}

int stateful_warn_config(const char *text)
{
    return text == NULL || parse_text(text, &config_warn) > 0;
}

int stateful_warn_parse(const OSSL_PARAM params[], uint64_t *v)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_WARN_REMAINING);
    if (p == NULL)
        return 0;
    if (p->data_type == OSSL_PARAM_UTF8_STRING) /* -pkeyopt / -sigopt text */
        return parse_text(p->data, v);
    return OSSL_PARAM_get_uint64(p, v) ? 1 : -1;
}

uint64_t stateful_warn_threshold(const STATEFUL_KEY *x, const FSP_SIGOPTS *o)
{
    if (o != NULL && o->warn_set)
        return o->warn_remaining;
    if (__atomic_load_n(&x->warn_set, __ATOMIC_ACQUIRE))
        return __atomic_load_n(&x->warn_remaining, __ATOMIC_RELAXED);
    return config_warn;
}

void stateful_warn_check(const STATEFUL_KEY *x, const FSP_SIGOPTS *o, uint64_t idx)
{
    uint64_t first, end, n = stateful_warn_threshold(x, o), left;

    stateful_range(x, &first, &end);
    left = end - idx - 1; /* idx < end: the core signed it */
    if (n == 0 || left >= n || __atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        return;
    fprintf(stderr, "fastsig: warning: the key of state file %s has %" PRIu64 " signature%s"
            " left (below warn_remaining %" PRIu64 "): plan its successor\n",
            x->path != NULL ? x->path : "(none)", left, left == 1 ? "" : "s", n);
}
