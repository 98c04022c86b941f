/* keytool_statecmd.c - `fastsig-keytool state SUBCOMMAND`: the options the
 * subcommands share, what they ask of the registry, and the dispatch
 * (keytool_statecmd.h).
 *
 * Exit status: inspect 0 healthy, 3 repairable, 4 broken, 1 the file could
 * not be read; advance and recreate 0 done, 1 refused or failed (the
 * message says why); 2 usage. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "keytool_cmds.h"
#include "keytool_state.h" /* kt_state_dir */
#include "keytool_statecmd.h"
#include "state/statemark.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool state inspect STATE [--in KEY] [--json]\n"
            "       fastsig-keytool state advance STATE --to N | --by N\n"
            "                                     | --past-signature SIG --in KEY\n"
            "       fastsig-keytool state recreate --in KEY --at N [--margin M]\n"
            "                                      [--state-lost]\n"
            "  (each also: [--state-dir DIR] [-passin ARG] [-provider-path DIR])\n"
            "  inspect   both slots of a state file, their checks, the registry's\n"
            "            high-water mark and what is wrong; exit 0 healthy,\n"
            "            3 repairable, 4 broken, 1 unreadable\n"
            "  advance   moves the state's next index forward (never back) durably,\n"
            "            under the state's lock: to N, by N, or past the index of\n"
            "            the signature SIG (made by KEY, a private or public key)\n"
            "  recreate  writes KEY's state file anew at index N (a torn or\n"
            "            unreadable file; a lost one with --state-lost); refused when\n"
            "            a healthy state exists, or N is below the highest index a\n"
            "            valid slot or the registry's high-water mark shows + M (the\n"
            "            largest block a signer of the key reserves; default 64)\n"
            "  --in KEY         the key (inspect: checks the file's key id against it)\n"
            "  --json           inspect's report as one JSON object\n"
            "  --state-dir DIR  the default state directory holding the registry\n"
            "                   (default: the provider's, as for a signer:\n"
            "                   $FASTSIG_STATE_DIR, state_dir in openssl.cnf,\n"
            "                   $XDG_STATE_HOME/fastsig, ~/.local/state/fastsig)\n"
            "  Locks are waited for $FASTSIG_STATE_LOCK_TIMEOUT seconds (default 5).\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end = NULL;
    errno = 0;
    if (s == NULL || s[0] < '0' || s[0] > '9')
        return 0;
    *v = strtoull(s, &end, 10);
    return errno == 0 && *end == '\0';
}

/* Options after the subcommand; positional: STATE. 1, else 0 (usage). */
static int parse(int argc, char **argv, KT_STATE_OPTS *o)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            if (o->state != NULL)
                return 0;
            o->state = a;
            continue;
        }
        if (a[1] == '-')
            a++; /* --opt and -opt alike */
        if (strcmp(a, "-json") == 0) {
            o->json = 1;
            continue;
        }
        if (strcmp(a, "-state-lost") == 0) {
            o->lost = 1;
            continue;
        }
        if (v == NULL)
            return 0;
        if (strcmp(a, "-in") == 0)
            o->in = v;
        else if (strcmp(a, "-passin") == 0)
            o->passin = v;
        else if (strcmp(a, "-state-dir") == 0)
            o->state_dir = v;
        else if (strcmp(a, "-provider-path") == 0)
            o->provider_path = v;
        else if (strcmp(a, "-past-signature") == 0)
            o->sig = v;
        else if (strcmp(a, "-to") == 0 && parse_u64(v, &o->to))
            o->has_to = 1;
        else if (strcmp(a, "-by") == 0 && parse_u64(v, &o->by))
            o->has_by = 1;
        else if (strcmp(a, "-at") == 0 && parse_u64(v, &o->at))
            o->has_at = 1;
        else if (strcmp(a, "-margin") == 0 && parse_u64(v, &o->margin))
            o->has_margin = 1;
        else
            return 0;
        i++;
    }
    return 1;
}

/* Which options each subcommand takes, and which it needs. */
static int valid(const char *sub, const KT_STATE_OPTS *o)
{
    int moves = o->has_to + o->has_by + (o->sig != NULL);
    if (strcmp(sub, "inspect") == 0)
        return o->state != NULL && moves == 0 && !o->has_at && !o->lost && !o->has_margin;
    if (strcmp(sub, "advance") == 0)
        return o->state != NULL && moves == 1 && (o->sig == NULL || o->in != NULL)
               && !o->has_at && !o->lost && !o->json && !o->has_margin;
    if (strcmp(sub, "recreate") == 0)
        return o->state == NULL && o->in != NULL && o->has_at && moves == 0 && !o->json;
    return 0;
}

int kt_cmd_state(int argc, char **argv)
{
    KT_STATE_OPTS o = { .margin = KT_REPAIR_MARGIN };
    OSSL_PROVIDER *fs = NULL, *dflt = NULL;
    const char *sub = argc >= 2 ? argv[1] : "";
    int rc;

    for (int i = 1; i < argc; i++) /* state -h, and state SUBCOMMAND ... -h too */
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return KT_HEALTHY;
        }
    if (!parse(argc, argv, &o) || !valid(sub, &o)) {
        fprintf(stderr, "fastsig-keytool: state %s: bad or missing options\n", sub);
        usage(stderr);
        return KT_USAGE;
    }
    if (!kt_provider_path(o.provider_path))
        return KT_USAGE;
    if (o.in != NULL && !kt_load_providers(&fs, &dflt))
        return KT_FAILED;
    if (o.in == NULL) /* only for its state directory: a state file is read without it */
        fs = OSSL_PROVIDER_try_load(NULL, FASTSIG_PROVIDER_NAME, 1);
    o.fs = fs;
    rc = strcmp(sub, "inspect") == 0   ? kt_state_inspect(&o)
         : strcmp(sub, "advance") == 0 ? kt_state_advance(&o)
                                       : kt_state_recreate(&o);
    if (fs != NULL) {
        if (dflt != NULL)
            OSSL_PROVIDER_unload(dflt);
        OSSL_PROVIDER_unload(fs);
    }
    return rc;
}

int kt_registry_dir(const KT_STATE_OPTS *o, char *out, size_t len)
{
    char dir[PATH_MAX];
    if (o->state_dir != NULL) {
        if (strlen(o->state_dir) >= sizeof(dir))
            return 0;
        strcpy(dir, o->state_dir);
    } else if (o->fs != NULL) { /* the provider's: state_dir from openssl.cnf too */
        ERR_set_mark();
        int ok = kt_state_dir(o->fs, out, len);
        ERR_pop_to_mark();
        if (ok)
            return 1;
        if (fastsig_state_default_dir(NULL, dir, sizeof(dir)) != FASTSIG_OK)
            return 0;
    } else if (fastsig_state_default_dir(NULL, dir, sizeof(dir)) != FASTSIG_OK) {
        return 0;
    }
    return fastsig_state_resolve_dir(dir, out, len, NULL) == FASTSIG_OK;
}

uint64_t kt_registry_mark(const char *dir, const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                          const char *path, uint64_t max, char *mark_file, size_t len)
{
    char *abs = realpath(path, NULL); /* the name a state handle gives it */
    const char *p = abs != NULL ? abs : path;
    uint64_t mark = 0;
    mark_file[0] = '\0';
    if (dir != NULL && fs_mark_path(dir, id, p, mark_file, len) == FASTSIG_OK)
        mark = fs_mark_read(mark_file, id, p, max);
    free(abs);
    return mark;
}

void kt_registry_raise(const char *dir, const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                       const char *path, uint64_t to)
{
    char mark_file[PATH_MAX];
    char *abs = realpath(path, NULL);
    if (abs != NULL && fs_mark_path(dir, id, abs, mark_file, sizeof(mark_file)) == FASTSIG_OK)
        fs_mark_raise(mark_file, id, abs, to);
    free(abs);
}

void kt_state_error(const char *path, int err, const fastsig_cause *cause)
{
    const char *what = cause != NULL && cause->what != NULL ? cause->what : "state file";
    const char *where = cause != NULL && cause->path[0] != '\0' ? cause->path : path;
    fprintf(stderr, "fastsig-keytool: %s %s: %s", what, where, fastsig_strerror(err));
    if (cause != NULL && cause->sys_errno != 0)
        fprintf(stderr, " (%s)", strerror(cause->sys_errno));
    if (cause != NULL && cause->why[0] != '\0')
        fprintf(stderr, ": %s", cause->why);
    if (err == FASTSIG_ERR_STATE_LOCKED) {
        unsigned ms = fastsig_state_lock_timeout();
        fprintf(stderr, " (waited %u.%03u s: a signer holds it, or a stuck process)", ms / 1000,
                ms % 1000);
    }
    fputc('\n', stderr);
}
