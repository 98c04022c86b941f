/* keytool_status.c - `fastsig-keytool status`: a stateful key's state from
 * its state file and public data alone: set, next index, remaining, range,
 * state path, the last update, which processes hold it open. The state file
 * is read without any lock (fastsig_state_observe), so a running signer
 * never waits for it; no passphrase is needed for a state file or a public
 * key (the key-id registry names the states of a public key).
 *
 * Exit status: 0 every state read and usable; 1 a file or state could not
 * be read or is unusable (see the messages, or "error" in --json); 2 usage. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "keytool_cmds.h"
#include "keytool_keyio.h"
#include "keytool_state.h"

typedef struct {
    const char *passin, *provider_path;
    int json;
    OSSL_PROVIDER *fs;
} OPTS;

/* What is known of the key behind one file, before its states are read. */
typedef struct {
    const char *file, *kind; /* "private key", "public key", "state file" */
    char alg[16], set[512];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    int have_id, height;     /* height -1: unknown (a state file alone) */
    uint64_t first, end;     /* a private key's range (end 0: unknown) */
} SUBJECT;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool status [--json] [-passin ARG] [-provider-path DIR] FILE...\n"
            "  The state of stateful keys (XMSS, XMSS^MT, HSS, WOTSP), read without a\n"
            "  passphrase and without any lock: a running signer is never made to wait.\n"
            "  FILE is a PEM private key (its state file), a PEM public key (the states\n"
            "  the key-id registry in the default state directory names for it: its own\n"
            "  and every shard's, and <key id>.<A>-<B>.state shards beside it), or a\n"
            "  state file itself. An encrypted private key\n"
            "  needs -passin (its state path is inside the encryption); or give its\n"
            "  public key or its state file instead.\n"
            "  For each state:\n"
            "  next index    the state file's next unreserved index: durable, every\n"
            "                index below it is spent, or reserved by a running signer\n"
            "  remaining     signatures left in the state file (its max - next)\n"
            "  open by       processes of this user holding the state file open: each\n"
            "                may hold reserved indices below next that it has not used\n"
            "                yet (up to 2 x batch - 1); a clean exit gives the unused\n"
            "                ones back, so next may fall and remaining rise then\n"
            "  range         the indices the key (a shard: its range) may sign\n"
            "  last update   when a signer last reserved or gave back (the file's mtime)\n"
            "  --json        one JSON array, an object per state: file, kind, algorithm,\n"
            "                set, key_id, state, ok, error, next, max, remaining,\n"
            "                range_first (null: unknown), range_end, key_signatures,\n"
            "                last_update (UTC),\n"
            "                last_update_unix, open_by (pids)\n"
            "  -passin ARG   an encrypted key's passphrase: pass:TEXT, env:VAR, file:PATH\n"
            "  -provider-path  where fastsig.so is (default: OPENSSL_MODULES, then\n"
            "                libcrypto's module directory)\n");
}

/* What one state file showed. */
typedef struct {
    int rc;
    char err[PATH_MAX + 300]; /* "" or why it is unusable */
    fastsig_state_view v;
    int seen;                 /* v was read */
    char when[32], idhex[2 * FASTSIG_STATE_KEY_ID_LEN + 1];
    long pids[16];
    size_t npids;
    int first_known;          /* the range's start is known */
    uint64_t first, end;
} SEEN;

/* A JSON string: quoted, with '"', '\\' and control characters escaped. */
static void json_str(const char *t)
{
    putchar('"');
    for (; *t != '\0'; t++) {
        unsigned char c = (unsigned char)*t;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* The range the state serves: the private key's, else [A, max) from a
 * shard's default name <key id>.<A>-<B>.state, else [0, max) when max is
 * the whole key's, else only its end is known. */
static void state_range(const SUBJECT *s, const char *state, SEEN *e)
{
    const char *base = strrchr(state, '/') != NULL ? strrchr(state, '/') + 1 : state;
    unsigned long long a, b;
    char tail[16] = "";
    size_t il = strlen(e->idhex);

    e->end = s->end != 0 ? s->end : e->v.max;
    e->first = s->first;
    e->first_known = s->end != 0;
    if (!e->first_known && strncmp(base, e->idhex, il) == 0 && base[il] == '.'
        && sscanf(base + il + 1, "%llu-%llu%15s", &a, &b, tail) == 3 && strcmp(tail, ".state") == 0
        && b == e->v.max && a < b) {
        e->first = a;
        e->first_known = 1;
    } else if (!e->first_known && s->height >= 0 && e->v.max == (uint64_t)1 << s->height) {
        e->first = 0;
        e->first_known = 1;
    }
}

/* Reads the state file and checks it against the key (s). */
static void look(const SUBJECT *s, const char *state, SEEN *e)
{
    fastsig_cause cause;

    memset(e, 0, sizeof(*e));
    e->rc = fastsig_state_observe(state, &e->v, &cause);
    if (e->rc != FASTSIG_OK)
        snprintf(e->err, sizeof(e->err), "%s: %s", fastsig_strerror(e->rc),
                 cause.sys_errno ? strerror(cause.sys_errno)
                 : cause.why[0] ? cause.why : "both slots must be whole and agree"
                                             " (fastsig_state_inspect shows them)");
    else if (s->have_id && memcmp(e->v.key_id, s->id, sizeof(s->id)) != 0)
        snprintf(e->err, sizeof(e->err), "%s: the file is another key's state",
                 fastsig_strerror(e->rc = FASTSIG_ERR_STATE_WRONG_KEY));
    else if (s->end != 0 && e->v.max != s->end)
        snprintf(e->err, sizeof(e->err), "%s: max %" PRIu64 " is not the key's range end %" PRIu64,
                 fastsig_strerror(e->rc = FASTSIG_ERR_STATE_MAX), e->v.max, s->end);
    e->seen = e->rc == FASTSIG_OK || e->rc == FASTSIG_ERR_STATE_MAX;
    if (s->have_id || e->seen)
        kt_hex(s->have_id ? s->id : e->v.key_id, FASTSIG_STATE_KEY_ID_LEN, e->idhex);
    if (!e->seen)
        return;
    struct tm tm;
    time_t t = (time_t)e->v.mtime_sec;
    strftime(e->when, sizeof(e->when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    e->npids = kt_open_by(e->v.dev, e->v.ino, e->pids, 16);
    state_range(s, state, e);
}

static void json_out(const SUBJECT *s, const char *state, const SEEN *e)
{
    printf("{\"file\": ");
    json_str(s->file);
    printf(", \"kind\": \"%s\", \"algorithm\": \"%s\", \"set\": \"%s\", \"key_id\": \"%s\","
           " \"state\": ", s->kind, s->alg, s->set, e->idhex);
    json_str(state);
    printf(", \"ok\": %s, \"error\": ", e->rc == FASTSIG_OK ? "true" : "false");
    if (e->err[0] != '\0')
        json_str(e->err);
    else
        printf("null");
    if (e->seen) {
        printf(", \"next\": %" PRIu64 ", \"max\": %" PRIu64 ", \"remaining\": %" PRIu64
               ", \"range_first\": ", e->v.next, e->v.max, e->v.max - e->v.next);
        if (e->first_known)
            printf("%" PRIu64, e->first);
        else
            printf("null");
        printf(", \"range_end\": %" PRIu64, e->end);
        if (s->height >= 0)
            printf(", \"key_signatures\": %" PRIu64, (uint64_t)1 << s->height);
        printf(", \"last_update\": \"%s\", \"last_update_unix\": %" PRId64 ", \"open_by\": [",
               e->when, e->v.mtime_sec);
        for (size_t i = 0; i < e->npids; i++)
            printf("%s%ld", i ? ", " : "", e->pids[i]);
        printf("]");
    }
    printf("}");
}

static void text_out(const SUBJECT *s, const char *state, const SEEN *e)
{
    int whole = s->height >= 0 && e->first_known && e->first == 0
                && e->end == (uint64_t)1 << s->height;

    printf("%s: %s%s%s%s%s\n", s->file, s->alg, s->alg[0] ? " " : "", s->kind,
           s->set[0] ? ", " : "", s->set);
    printf("  state file:   %s\n", state);
    if (e->idhex[0] != '\0')
        printf("  key id:       %s\n", e->idhex);
    if (e->err[0] != '\0')
        printf("  UNUSABLE:     %s\n", e->err);
    if (!e->seen)
        return;
    printf("  next index:   %" PRIu64 " (the state file's next unreserved index: durable)\n",
           e->v.next);
    if (e->first_known) {
        printf("  remaining:    %" PRIu64 " of %" PRIu64 "\n", e->v.max - e->v.next,
               e->end - e->first);
        printf("  range:        %" PRIu64 "-%" PRIu64 " (indices %" PRIu64 " to %" PRIu64 "%s)\n",
               e->first, e->end, e->first, e->end - 1, whole ? ", the whole key" : ", a shard");
    } else {
        printf("  remaining:    %" PRIu64 "\n", e->v.max - e->v.next);
        printf("  range:        up to index %" PRIu64 " (its start is in the key)\n", e->end - 1);
    }
    printf("  last update:  %s\n", e->when);
    if (e->npids == 0)
        printf("  open by:      no process (no signer holds reserved indices)\n");
    for (size_t i = 0; i < e->npids; i++)
        printf("  open by:      pid %ld (a signer: its unused reserved indices are below next"
               " until it exits)\n", e->pids[i]);
}

/* One state's report: text, or a JSON object (*opened: the array is open). */
static int report(const OPTS *o, const SUBJECT *s, const char *state, int *opened)
{
    static SEEN e;

    look(s, state, &e);
    if (o->json) {
        printf("%s\n  ", *opened ? "," : "[");
        json_out(s, state, &e);
        *opened = 1;
    } else {
        text_out(s, state, &e);
    }
    return e.rc == FASTSIG_OK;
}

/* The first line of path: which kind of file it is. */
static const char *file_kind(const char *path, int *encrypted)
{
    char line[64] = "";
    FILE *f = fopen(path, "rb");
    size_t got;

    *encrypted = 0;
    if (f == NULL) {
        fprintf(stderr, "fastsig-keytool: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    got = fread(line, 1, sizeof(line) - 1, f);
    fclose(f);
    line[got] = '\0';
    if (strncmp(line, "-----BEGIN PUBLIC KEY-----", 26) == 0)
        return "public key";
    if (strncmp(line, "-----BEGIN PRIVATE KEY-----", 27) == 0)
        return "private key";
    if (strncmp(line, "-----BEGIN ENCRYPTED PRIVATE KEY-----", 37) == 0)
        return *encrypted = 1, "private key";
    if (got >= 8 && (memcmp(line, "FSIGSTAT", 8) == 0 || line[0] == '\0'))
        return "state file"; /* slot 0 may be torn: observe says so */
    fprintf(stderr, "fastsig-keytool: %s: neither a PEM key nor a state file\n", path);
    return NULL;
}

static EVP_PKEY *load_public(const char *path)
{
    BIO *bio = BIO_new_file(path, "r");
    EVP_PKEY *k = bio != NULL ? PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, NULL, NULL) : NULL;
    BIO_free(bio);
    if (k == NULL)
        kt_die_ssl("cannot load the public key");
    return k;
}

/* The key's type, set, id, height and (private) range into s. */
static int describe(EVP_PKEY *k, SUBJECT *s, char *state, size_t statelen)
{
    char range[64] = "";
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_PARAM, s->set, sizeof(s->set)),
                       OSSL_PARAM_END };
    OSSL_PARAM q[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, statelen),
                       OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, range, sizeof(range)),
                       OSSL_PARAM_END };

    snprintf(s->alg, sizeof(s->alg), "%s", EVP_PKEY_get0_type_name(k));
    if (EVP_PKEY_get_params(k, p) != 1 || !(s->have_id = kt_key_id(k, s->id))) {
        fprintf(stderr, "fastsig-keytool: %s: not a stateful key (XMSS, XMSS^MT, HSS, WOTSP)\n",
                s->file);
        return 0;
    }
    s->height = kt_set_height(s->set);
    if (state == NULL)
        return 1;
    if (EVP_PKEY_get_params(k, q) != 1 || state[0] == '\0') {
        kt_die_ssl("the key names no state file");
        return 0;
    }
    if (sscanf(range, "%" SCNu64 "-%" SCNu64, &s->first, &s->end) != 2)
        s->first = s->end = 0;
    return 1;
}

static int status_one(const OPTS *o, const char *path, int *opened)
{
    SUBJECT s = { .file = path, .height = -1 };
    char state[PATH_MAX], dir[PATH_MAX];
    static char paths[KT_MAX_STATES][PATH_MAX];
    KT_PASSIN in = { .known = o->passin != NULL };
    int encrypted, ok = 1, n, err = 0;
    EVP_PKEY *k = NULL;

    if ((s.kind = file_kind(path, &encrypted)) == NULL)
        return 0;
    if (strcmp(s.kind, "state file") == 0)
        return report(o, &s, path, opened);
    if (encrypted && o->passin == NULL) {
        fprintf(stderr, "fastsig-keytool: %s is encrypted: its state path is inside the"
                        " encryption. Give -passin, or run status on its public key or its"
                        " state file\n", path);
        return 0;
    }
    if (o->passin != NULL && !kt_read_pass(o->passin, in.pass, sizeof(in.pass)))
        return 0;
    if (strcmp(s.kind, "public key") == 0) {
        if ((k = load_public(path)) == NULL || !describe(k, &s, NULL, 0)
            || !kt_state_dir(o->fs, dir, sizeof(dir))) {
            EVP_PKEY_free(k);
            return 0;
        }
        n = kt_registry_states(dir, s.id, paths, &err);
        if (n > 0) { /* and its shards' states with their default names */
            char idhex[2 * FASTSIG_STATE_KEY_ID_LEN + 1];
            kt_hex(s.id, sizeof(s.id), idhex);
            n = kt_shard_states(paths[0], idhex, paths, n);
        }
        if (n <= 0)
            fprintf(stderr, "fastsig-keytool: %s: %s in the registry of %s (give the private"
                            " key or the state file)\n", path,
                    n == 0 ? "the key has no entry" : strerror(err), dir);
        for (int i = 0; i < n; i++)
            ok &= report(o, &s, paths[i], opened);
        EVP_PKEY_free(k);
        return n > 0 && ok;
    }
    k = kt_load_key(path, &in);
    OPENSSL_cleanse(&in, sizeof(in));
    ok = k != NULL && describe(k, &s, state, sizeof(state)) && report(o, &s, state, opened);
    EVP_PKEY_free(k);
    return ok;
}

int kt_cmd_status(int argc, char **argv)
{
    OPTS o = { 0 };
    OSSL_PROVIDER *dflt;
    const char *files[256];
    int nfiles = 0, ok = 1, opened = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i][0] == '-' && argv[i][1] == '-' ? argv[i] + 1 : argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "-json") == 0) {
            o.json = 1;
        } else if (strcmp(a, "-passin") == 0 && v != NULL) {
            o.passin = argv[++i];
        } else if (strcmp(a, "-provider-path") == 0 && v != NULL) {
            o.provider_path = argv[++i];
        } else if (a[0] != '-' && nfiles < 256) {
            files[nfiles++] = argv[i];
        } else {
            fprintf(stderr, "fastsig-keytool: bad option or value: %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (nfiles == 0) {
        fprintf(stderr, "fastsig-keytool: status needs a key, public key or state file\n");
        return 2;
    }
    if (!kt_provider_path(o.provider_path))
        return 2;
    if (!kt_load_providers(&o.fs, &dflt))
        return 1;
    for (int i = 0; i < nfiles; i++)
        ok &= status_one(&o, files[i], &opened);
    if (o.json)
        printf(opened ? "\n]\n" : "[]\n");
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(o.fs);
    return ok ? 0 : 1;
}
