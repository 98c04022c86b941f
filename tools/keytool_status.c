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
            "  the key-id registry in the default state directory names for it, and\n"
            "  its shards' <key id>.<A>-<B>.state beside it), or a state file itself. An encrypted private key\n"
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
            "                range_first, range_end, key_signatures, last_update (UTC),\n"
            "                last_update_unix, open_by (pids)\n"
            "  -passin ARG   an encrypted key's passphrase: pass:TEXT, env:VAR, file:PATH\n"
            "  -provider-path  where fastsig.so is (default: OPENSSL_MODULES, then\n"
            "                libcrypto's module directory)\n");
}

/* One state's report: text, or a JSON object (first: opens the array). */
static int report(const OPTS *o, const SUBJECT *s, const char *state, int *opened)
{
    fastsig_state_view v;
    fastsig_cause cause;
    char idhex[2 * FASTSIG_STATE_KEY_ID_LEN + 1] = "", when[32] = "", err[PATH_MAX + 300] = "";
    long pids[16];
    size_t npids = 0;
    int rc = fastsig_state_observe(state, &v, &cause);

    if (rc != FASTSIG_OK) {
        snprintf(err, sizeof(err), "%s: %s", fastsig_strerror(rc),
                 cause.sys_errno ? strerror(cause.sys_errno)
                 : cause.why[0] ? cause.why : "both slots must be whole and agree"
                                             " (fastsig-keytool state inspect shows them)");
    } else if (s->have_id && memcmp(v.key_id, s->id, sizeof(s->id)) != 0) {
        snprintf(err, sizeof(err), "%s: the file is another key's state",
                 fastsig_strerror(FASTSIG_ERR_STATE_WRONG_KEY));
        rc = FASTSIG_ERR_STATE_WRONG_KEY;
    } else if (s->end != 0 && v.max != s->end) {
        snprintf(err, sizeof(err), "%s: max %" PRIu64 " is not the key's range end %" PRIu64,
                 fastsig_strerror(FASTSIG_ERR_STATE_MAX), v.max, s->end);
        rc = FASTSIG_ERR_STATE_MAX;
    }
    if (rc == FASTSIG_OK || rc == FASTSIG_ERR_STATE_MAX) {
        struct tm tm;
        time_t t = (time_t)v.mtime_sec;
        strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
        npids = kt_open_by(v.dev, v.ino, pids, 16);
    }
    kt_hex(s->have_id ? s->id : v.key_id, FASTSIG_STATE_KEY_ID_LEN, idhex);
    if (rc != FASTSIG_OK && !s->have_id && when[0] == '\0')
        idhex[0] = '\0';
    uint64_t first = s->end != 0 ? s->first : 0, end = s->end != 0 ? s->end : v.max;
    if (o->json) {
        printf("%s\n  {\"file\": \"%s\", \"kind\": \"%s\", \"algorithm\": \"%s\", \"set\": \"%s\","
               " \"key_id\": \"%s\", \"state\": \"%s\", \"ok\": %s, \"error\": ",
               *opened ? "," : "[", s->file, s->kind, s->alg, s->set, idhex, state,
               rc == FASTSIG_OK ? "true" : "false");
        printf(err[0] ? "\"%s\"" : "null", err);
        if (when[0] != '\0') {
            printf(", \"next\": %" PRIu64 ", \"max\": %" PRIu64 ", \"remaining\": %" PRIu64
                   ", \"range_first\": %" PRIu64 ", \"range_end\": %" PRIu64, v.next, v.max,
                   v.max - v.next, first, end);
            if (s->height >= 0)
                printf(", \"key_signatures\": %" PRIu64, (uint64_t)1 << s->height);
            printf(", \"last_update\": \"%s\", \"last_update_unix\": %" PRId64 ", \"open_by\": [",
                   when, v.mtime_sec);
            for (size_t i = 0; i < npids; i++)
                printf("%s%ld", i ? ", " : "", pids[i]);
            printf("]");
        }
        printf("}");
        *opened = 1;
        return rc == FASTSIG_OK;
    }
    printf("%s: %s%s%s%s%s\n", s->file, s->alg, s->alg[0] ? " " : "", s->kind,
           s->set[0] ? ", " : "", s->set);
    printf("  state file:   %s\n", state);
    if (idhex[0] != '\0')
        printf("  key id:       %s\n", idhex);
    if (err[0] != '\0')
        printf("  UNUSABLE:     %s\n", err);
    if (when[0] == '\0')
        return 0;
    printf("  next index:   %" PRIu64 " (the state file's next unreserved index: durable)\n",
           v.next);
    printf("  remaining:    %" PRIu64 " of %" PRIu64 "\n", v.max - v.next, end - first);
    printf("  range:        %" PRIu64 "-%" PRIu64 " (indices %" PRIu64 " to %" PRIu64 "%s)\n",
           first, end, first, end - 1,
           s->end == 0 && s->height >= 0 && v.max != (uint64_t)1 << s->height ? ", a shard's"
           : s->height >= 0 && first == 0 && end == (uint64_t)1 << s->height ? ", the whole key"
           : s->end != 0 ? ", a shard" : "");
    printf("  last update:  %s\n", when);
    if (npids == 0)
        printf("  open by:      no process (no signer holds reserved indices)\n");
    for (size_t i = 0; i < npids; i++)
        printf("  open by:      pid %ld (a signer: its unused reserved indices are below next"
               " until it exits)\n", pids[i]);
    return rc == FASTSIG_OK;
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
