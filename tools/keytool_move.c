/* keytool_move.c - `fastsig-keytool move`: moves a stateful key's state
 * file (and its node cache) to another path, on this or another
 * filesystem, and rewrites the key to name it (doc/state.md section 12).
 * The state moves with the carving of crypto/state/shard.h: the old file
 * spends every index left, durably, before the new file exists (its
 * creation is atomic: temporary name, fsync, rename without replacing),
 * so at no instant can two files hand out one index. Then the key file is
 * replaced (temporary name, fsync, rename) with the new path in its
 * PKCS#8 private key, encrypted again when it was, the old state and cache
 * are removed, and the key's registry entry names the new path.
 *
 * Exit status: 0 moved (or nothing to do); 1 refused or failed (see the
 * messages: nothing moved, unless a message says what to do); 2 usage. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/buffer.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "keytool_cmds.h"
#include "keytool_keyio.h"
#include "keytool_state.h"
#include "state/fileio.h"
#include "state/registry.h"
#include "state/shard.h"
#include "state/statemark.h"

typedef struct {
    const char *in, *out, *state, *passin, *passout, *cipher, *provider_path;
    OSSL_PROVIDER *fs;
} OPTS;

/* The key as its PKCS#8 structure and what the provider says of it. */
typedef struct {
    PKCS8_PRIV_KEY_INFO *p8;
    int encrypted;
    char pass[KT_PASS_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    char old[PATH_MAX];       /* the state path the key names */
    char to[PATH_MAX];        /* the new one, absolute */
} KEY;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool move --in KEY.pem --state NEW [--out NEWKEY.pem]\n"
            "           [-passin ARG] [-passout ARG] [-cipher NAME] [-provider-path DIR]\n"
            "  Moves the state file of a stateful private key (XMSS, XMSS^MT, HSS, WOTSP,\n"
            "  a shard too) and its node cache (STATE.cache) to NEW, on this or another\n"
            "  filesystem, and rewrites KEY.pem (or writes NEWKEY.pem, then KEY.pem names\n"
            "  a spent state) to name NEW. The old state spends all its indices before\n"
            "  NEW appears, so no two files ever hand out one index; then the key is\n"
            "  replaced, the old state and cache removed, and the key-id registry entry\n"
            "  names NEW. Refused, nothing moved: NEW or NEW.cache exists, NEW's\n"
            "  directory is missing or closed to new files, the state is locked by\n"
            "  another process (a signer updating it), corrupt, rolled back or\n"
            "  another key's, the key is exhausted, a wrong passphrase. A signer still\n"
            "  running with the key finds its state gone at its next reservation\n"
            "  (\"signature state file is missing\"): restart it after the move.\n"
            "  Run again after a crash: it finishes a move that had made NEW.\n"
            "  --state NEW     the new state file (relative: to the working directory)\n"
            "  --out NEWKEY    write the rewritten key there (refused if it exists)\n"
            "                  instead of replacing KEY.pem\n"
            "  -passin ARG     KEY.pem's passphrase: pass:TEXT, env:VAR or file:PATH\n"
            "  -passout ARG    encrypt the rewritten key with this passphrase (an\n"
            "                  encrypted KEY.pem is encrypted again with its own)\n"
            "  -cipher NAME    its PKCS#8 cipher (default AES-256-CBC)\n"
            "  -provider-path  where fastsig.so is (default: OPENSSL_MODULES, then\n"
            "                  libcrypto's module directory)\n");
}

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "fastsig-keytool: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
    return 0;
}

static int fail_cause(const char *what, int rc, const fastsig_cause *c)
{
    fprintf(stderr, "fastsig-keytool: %s: %s: %s %s%s%s\n", what, fastsig_strerror(rc),
            c->what ? c->what : "file", c->path,
            c->why[0] ? ": " : c->sys_errno ? ": " : "",
            c->why[0] ? c->why : c->sys_errno ? strerror(c->sys_errno) : "");
    return 0;
}

/* KEY.pem into k->p8, decrypted with -passin when it is encrypted. */
static int read_p8(const OPTS *o, KEY *k)
{
    char line[64] = "";
    BIO *bio = BIO_new_file(o->in, "r");
    X509_SIG *sig = NULL;

    if (bio == NULL)
        return fail("cannot open %s: %s", o->in, strerror(errno));
    BIO_gets(bio, line, sizeof(line));
    BIO_seek(bio, 0);
    k->encrypted = strncmp(line, "-----BEGIN ENCRYPTED PRIVATE KEY-----", 37) == 0;
    if (k->encrypted && o->passin == NULL && PEM_def_callback(k->pass, sizeof(k->pass), 0, NULL) <= 0)
        k->pass[0] = '\0';
    if (k->encrypted && (sig = PEM_read_bio_PKCS8(bio, NULL, NULL, NULL)) != NULL)
        k->p8 = PKCS8_decrypt(sig, k->pass, (int)strlen(k->pass));
    else if (!k->encrypted)
        k->p8 = PEM_read_bio_PKCS8_PRIV_KEY_INFO(bio, NULL, NULL, NULL);
    X509_SIG_free(sig);
    BIO_free(bio);
    if (k->p8 == NULL) {
        kt_die_ssl(k->encrypted ? "cannot decrypt the private key (wrong passphrase?)"
                                : "cannot read the private key (a PEM PKCS#8 key?)");
        return 0;
    }
    return 1;
}

/* The state path, key id and state of the key (through the provider). */
static int describe(KEY *k)
{
    EVP_PKEY *pk = EVP_PKCS82PKEY_ex(k->p8, NULL, NULL);
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, k->old, sizeof(k->old)),
                       OSSL_PARAM_END };
    int ok = pk != NULL && EVP_PKEY_get_params(pk, p) == 1 && OSSL_PARAM_modified(p)
             && kt_key_id(pk, k->id);
    EVP_PKEY_free(pk);
    if (!ok)
        kt_die_ssl("not a stateful private key (XMSS, XMSS^MT, HSS, WOTSP)");
    return ok;
}

/* NEW as an absolute path: its directory resolved (it must exist). */
static int new_path(const OPTS *o, KEY *k)
{
    char dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];
    fastsig_cause c;
    int rc;

    snprintf(dir, sizeof(dir), "%s", o->state);
    snprintf(base, sizeof(base), "%s", o->state);
    if (o->state[0] == '\0' || o->state[strlen(o->state) - 1] == '/')
        return fail("--state %s: names no file%s", o->state, "");
    if ((rc = fastsig_state_resolve_dir(dirname(dir), real, sizeof(real), &c)) != FASTSIG_OK)
        return fail("cannot move the state to %s: its directory is missing (%s): nothing moved",
                    o->state, strerror(c.sys_errno ? c.sys_errno : ENOENT));
    if ((size_t)snprintf(k->to, sizeof(k->to), "%s/%s", strcmp(real, "/") ? real : "",
                         basename(base)) >= sizeof(k->to))
        return fail("--state %s: path too long%s", o->state, "");
    return 1;
}

/* The key's privateKey with the state path old replaced by to. */
static int rewrite_p8(KEY *k)
{
    const unsigned char *priv;
    const ASN1_OBJECT *oid;
    const X509_ALGOR *alg;
    int plen;
    size_t ol = strlen(k->old), tl = strlen(k->to), at = 0, rest;
    int found = 0;

    if (!PKCS8_pkey_get0(&oid, &priv, &plen, &alg, k->p8))
        return 0;
    /* sk core || BE16(len) || path [|| 17-byte range]: the path ends the
     * key or is followed by a range */
    for (rest = 0; rest <= 17 && !found; rest += 17)
        if ((size_t)plen >= rest + ol + 2) {
            at = (size_t)plen - rest - ol - 2;
            found = priv[at] == (ol >> 8) && priv[at + 1] == (ol & 0xff)
                    && memcmp(priv + at + 2, k->old, ol) == 0;
        }
    rest -= 17;
    if (!found || tl > 0xffff)
        return fail("%s: the key's encoding has no state path to rewrite%s", k->old, "");
    size_t nl = at + 2 + tl + rest;
    unsigned char *n = OPENSSL_malloc(nl);
    ASN1_OBJECT *o2 = OBJ_dup(oid);
    PKCS8_PRIV_KEY_INFO *p8 = PKCS8_PRIV_KEY_INFO_new();
    if (n == NULL || o2 == NULL || p8 == NULL) {
        OPENSSL_free(n);
        ASN1_OBJECT_free(o2);
        PKCS8_PRIV_KEY_INFO_free(p8);
        return 0;
    }
    memcpy(n, priv, at);
    n[at] = (unsigned char)(tl >> 8);
    n[at + 1] = (unsigned char)tl;
    memcpy(n + at + 2, k->to, tl);
    memcpy(n + at + 2 + tl, priv + at + 2 + ol, rest);
    if (!PKCS8_pkey_set0(p8, o2, 0, V_ASN1_UNDEF, NULL, n, (int)nl)) {
        OPENSSL_clear_free(n, nl);
        ASN1_OBJECT_free(o2);
        PKCS8_PRIV_KEY_INFO_free(p8);
        return 0;
    }
    PKCS8_PRIV_KEY_INFO_free(k->p8);
    k->p8 = p8;
    return 1;
}


/* The key (k->p8) as PEM, encrypted when it was or -passout asks, written
 * to path (replace: over an existing file) through a temporary name. */
static int write_key(const OPTS *o, const KEY *k, const char *passout, const char *path,
                     int replace)
{
    const char *pass = passout != NULL ? passout : k->encrypted ? k->pass : NULL;
    BIO *mem = BIO_new(BIO_s_secmem());
    EVP_CIPHER *cipher = NULL;
    X509_SIG *sig = NULL;
    BUF_MEM *pem = NULL;
    int ok = 0;

    if (pass != NULL
        && ((cipher = EVP_CIPHER_fetch(NULL, o->cipher ? o->cipher : "AES-256-CBC", NULL)) == NULL
            || (sig = PKCS8_encrypt_ex(-1, cipher, pass, (int)strlen(pass), NULL, 0, 0, k->p8,
                                       NULL, NULL)) == NULL))
        kt_die_ssl("cannot encrypt the key (-cipher?)");
    else if (mem != NULL && (pass != NULL ? PEM_write_bio_PKCS8(mem, sig)
                                          : PEM_write_bio_PKCS8_PRIV_KEY_INFO(mem, k->p8)) == 1
             && BIO_get_mem_ptr(mem, &pem) == 1)
        ok = kt_write_file(pem->data, pem->length, path, replace);
    else
        kt_die_ssl("cannot encode the key");
    X509_SIG_free(sig);
    EVP_CIPHER_free(cipher);
    BIO_free(mem);
    return ok;
}

/* old's node cache copied to the new name to (public data; a failure only
 * costs the next signer a rebuild): warns. */
static void copy_cache(const char *old, const char *to)
{
    char from[PATH_MAX + 8], dst[PATH_MAX + 8], tmp[PATH_MAX + 40];
    fastsig_cause c;
    struct stat sb;
    uint8_t *buf = NULL;
    ssize_t got = -1;
    int fd;

    snprintf(from, sizeof(from), "%s.cache", old);
    snprintf(dst, sizeof(dst), "%s.cache", to);
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", dst, (long)getpid());
    if ((fd = fs_file_open(from, O_RDONLY, 0, &c)) < 0)
        return; /* none: nothing to copy */
    if (fstat(fd, &sb) == 0 && sb.st_size > 0 && sb.st_size <= (64 << 20)
        && (buf = malloc((size_t)sb.st_size)) != NULL)
        got = fs_file_read_all(fd, buf, (size_t)sb.st_size, 0);
    close(fd);
    if (got != sb.st_size || fs_file_write_new(tmp, buf, (size_t)got, &c) != 0
        || fs_file_install(tmp, dst, 0) != 0) {
        unlink(tmp);
        fprintf(stderr, "fastsig-keytool: warning: node cache %s not copied (the next signer"
                        " rebuilds it)\n", dst);
    }
    free(buf);
}

/* An interrupted move (NEW made, the key not yet rewritten): old spent to
 * its end and NEW this key's state of the same max. */
static int interrupted(const KEY *k)
{
    fastsig_state_view a, b;
    return fastsig_state_observe(k->old, &a, NULL) == FASTSIG_OK && a.next == a.max
           && memcmp(a.key_id, k->id, sizeof(k->id)) == 0
           && fastsig_state_observe(k->to, &b, NULL) == FASTSIG_OK
           && memcmp(b.key_id, k->id, sizeof(k->id)) == 0 && b.max == a.max;
}

/* What must hold before anything moves (a resumed move: *resume). */
static int preflight(const OPTS *o, const KEY *k, const char *out, int *resume)
{
    char dir[PATH_MAX], cache[PATH_MAX + 8];
    struct stat sb;
    fastsig_cause c = { 0 };

    *resume = 0;
    if (o->out != NULL && lstat(o->out, &sb) == 0)
        return fail("%s exists: not overwritten (nothing moved)%s", o->out, "");
    if (fastsig_state_dir_of(out, dir, sizeof(dir)) != FASTSIG_OK
        || fastsig_state_dir_writable(dir, &c) != FASTSIG_OK)
        return fail("cannot write %s: %s (nothing moved)", out,
                    strerror(c.sys_errno ? c.sys_errno : ENOENT));
    if (lstat(k->to, &sb) == 0) {
        if (!(*resume = interrupted(k)))
            return fail("%s exists: not overwritten (nothing moved)%s", k->to, "");
        fprintf(stderr, "fastsig-keytool: %s is this key's state and %s is spent to its end:"
                        " finishing an interrupted move\n", k->to, k->old);
        return 1;
    }
    snprintf(cache, sizeof(cache), "%s.cache", k->to);
    if (lstat(cache, &sb) == 0)
        return fail("%s exists: not overwritten (nothing moved)%s", cache, "");
    if (fastsig_state_dir_of(k->to, dir, sizeof(dir)) != FASTSIG_OK
        || fastsig_state_dir_writable(dir, &c) != FASTSIG_OK)
        return fail("cannot create %s: %s (nothing moved)", k->to,
                    strerror(c.sys_errno ? c.sys_errno : ENOENT));
    return 1;
}

/* The old state opened, checked and carved whole into NEW: *next the index
 * NEW starts at. */
static int move_state(const KEY *k, const char *sdir, uint64_t *next)
{
    fastsig_state *st = NULL;
    fastsig_cause c = { 0 };
    uint64_t max = 0, got = 0;
    unsigned timeout = fastsig_state_lock_timeout();
    char made[PATH_MAX];
    int rc;

    fastsig_state_set_lock_timeout(0); /* a lock held now: refused, not waited for */
    rc = fastsig_state_open(k->old, k->id, &st, &c);
    fastsig_state_set_lock_timeout(timeout);
    if (rc == FASTSIG_OK)
        rc = fastsig_state_use_registry(st, sdir, &c);
    for (int tries = 0; rc == FASTSIG_OK && tries < 5; tries++) {
        if ((rc = fastsig_state_query(st, next, NULL, &max, &c)) != FASTSIG_OK)
            break;
        if (*next == max) {
            fastsig_state_close(st);
            return fail("%s is spent to its end: nothing left to move (the key is exhausted, or"
                        " its state was moved by another run%s)", k->old, "");
        }
        rc = fastsig_state_carve(st, k->id, *next, max - *next, NULL, k->to, made, sizeof(made),
                                 &got, &c);
        if (rc != FASTSIG_ERR_STATE_RANGE) /* else a signer reserved meanwhile: again */
            break;
    }
    fastsig_state_close(st);
    if (rc == FASTSIG_ERR_STATE_LOCKED)
        return fail("state file %s is locked by another process (a signer updating it):"
                    " nothing moved, try again%s", k->old, "");
    if (rc != FASTSIG_OK)
        return fail_cause("cannot move the state", rc, &c);
    return 1;
}

/* NEW holds what the old file had: this key, the same max, next. */
static int verify_new(const KEY *k, uint64_t next)
{
    fastsig_state_view v;
    fastsig_cause c;
    int rc = fastsig_state_observe(k->to, &v, &c);
    if (rc != FASTSIG_OK)
        return fail_cause("the new state cannot be read back", rc, &c);
    if (memcmp(v.key_id, k->id, sizeof(k->id)) != 0 || v.next != next)
        return fail("%s does not hold what was moved%s", k->to, "");
    return 1;
}

static int move(const OPTS *o, KEY *k, const char *passout)
{
    const char *out = o->out != NULL ? o->out : o->in;
    char sdir[PATH_MAX], cache[PATH_MAX + 8];
    fastsig_state_view v;
    fastsig_cause c;
    int resume, moved = 0;
    uint64_t next = 0;

    if (!read_p8(o, k) || !describe(k) || !new_path(o, k))
        return 0;
    if (strcmp(k->old, k->to) == 0) {
        printf("%s: its state is %s already: nothing to move\n", o->in, k->to);
        return 1;
    }
    if (!kt_state_dir(o->fs, sdir, sizeof(sdir)) || !preflight(o, k, out, &resume))
        return 0;
    if (resume) {
        if (fastsig_state_observe(k->to, &v, &c) != FASTSIG_OK)
            return fail_cause("the new state cannot be read", c.code, &c);
        next = v.next;
    } else if (!move_state(k, sdir, &next) || !verify_new(k, next)) {
        return 0;
    } else {
        char mark[PATH_MAX];
        if (fs_mark_path(sdir, k->id, k->to, mark, sizeof(mark)) == FASTSIG_OK)
            fs_mark_raise(mark, k->id, k->to, next); /* best effort, as a reservation's */
    }
    /* From here the old state is spent: the key must name NEW. */
    copy_cache(k->old, k->to);
    if (!rewrite_p8(k) || !write_key(o, k, passout, out, o->out == NULL)) {
        fprintf(stderr, "fastsig-keytool: the state is at %s now (the old one is spent): run"
                        " this move again to write the key\n", k->to);
        return 0;
    }
    snprintf(cache, sizeof(cache), "%s.cache", k->old);
    unlink(k->old); /* spent to its end: nothing lost if this fails */
    unlink(cache);
    fs_file_sync_dir_of(k->old, &c);
    if (fastsig_registry_move_state(sdir, k->id, k->old, k->to, &moved, &c) != FASTSIG_OK)
        fail_cause("warning: the registry entry still names the old path", c.code, &c);
    printf("%s: state moved from %s to %s (next index %" PRIu64 ")%s\n", out, k->old, k->to,
           next, moved ? "; registry entry updated" : "");
    return 1;
}

int kt_cmd_move(int argc, char **argv)
{
    OPTS o = { 0 };
    KEY k = { 0 };
    char passout[KT_PASS_MAX];
    OSSL_PROVIDER *dflt;
    int rc = 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i][0] == '-' && argv[i][1] == '-' ? argv[i] + 1 : argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL, **slot = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
            usage(stdout);
            return 0;
        }
        slot = strcmp(a, "-in") == 0 ? &o.in : strcmp(a, "-out") == 0 ? &o.out
               : strcmp(a, "-state") == 0 ? &o.state : strcmp(a, "-passin") == 0 ? &o.passin
               : strcmp(a, "-passout") == 0 ? &o.passout : strcmp(a, "-cipher") == 0 ? &o.cipher
               : strcmp(a, "-provider-path") == 0 ? &o.provider_path : NULL;
        if (slot == NULL || v == NULL) {
            fprintf(stderr, "fastsig-keytool: bad option or value: %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
        *slot = v;
        i++;
    }
    if (o.in == NULL || o.state == NULL) {
        fprintf(stderr, "fastsig-keytool: move needs --in and --state\n");
        return 2;
    }
    if ((o.passin != NULL && !kt_read_pass(o.passin, k.pass, sizeof(k.pass)))
        || (o.passout != NULL && !kt_read_pass(o.passout, passout, sizeof(passout)))
        || !kt_provider_path(o.provider_path))
        goto done;
    rc = 1;
    if (!kt_load_providers(&o.fs, &dflt))
        goto done;
    rc = move(&o, &k, o.passout != NULL ? passout : NULL) ? 0 : 1;
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(o.fs);
done:
    PKCS8_PRIV_KEY_INFO_free(k.p8);
    OPENSSL_cleanse(&k, sizeof(k));
    OPENSSL_cleanse(passout, sizeof(passout));
    return rc;
}
