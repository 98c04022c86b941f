/* test_registry.c - the key-id registry (crypto/state/registry.h): one
 * entry per key, a second claim refused naming the first state, durable and
 * crash-ordered creation, withdrawal, hardening (links, FIFOs, files where a
 * directory belongs), a lock held elsewhere, injected I/O failures, entries
 * and registry directories other users could write; seed fingerprint
 * entries (one seed, one state under any parameter set); a shard's state
 * added to its key's entry. */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "state/registry.h"
#include "state/statefile_hook.h"
#include "state_fixture.h"

/* A fresh state directory <scratch>/<name> (its registry empty). */
static char *fresh_dir(char *out, const char *name)
{
    char cmd[PATH_MAX + 16];
    sf_path(out, name);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_EQUAL(mkdir(out, 0700), 0);
    return out;
}

static size_t entry_text(const char *dir, unsigned tag, char *buf, size_t cap)
{
    char entry[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, tag);
    CU_ASSERT_EQUAL_FATAL(fastsig_registry_entry_path(dir, id, entry, sizeof(entry)), FASTSIG_OK);
    FILE *f = fopen(entry, "r");
    if (f == NULL)
        return 0;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n;
}

/* The cause of the last claim() (the tests run in one thread). */
static fastsig_cause claimed;

static int claim(const char *dir, unsigned tag, const char *state, char *found)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, tag);
    return fastsig_registry_claim(dir, id, state, found, PATH_MAX, &claimed);
}

static int unclaim(const char *dir, unsigned tag, const char *state)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, tag);
    return fastsig_registry_unclaim(dir, id, state);
}

/* A fresh state directory <scratch>/<name> with key tag claimed for
 * /s/a.state; entry = the path of that entry (PATH_MAX bytes). */
static void claimed_entry(char *dir, const char *name, unsigned tag, char *entry)
{
    char found[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fresh_dir(dir, name);
    sf_key(id, tag);
    CU_ASSERT_EQUAL(claim(dir, tag, "/s/a.state", found), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(fastsig_registry_entry_path(dir, id, entry, PATH_MAX), FASTSIG_OK);
}

static void test_claim_once(void)
{
    char dir[PATH_MAX], entry[PATH_MAX], reg[PATH_MAX + 16], found[PATH_MAX], buf[256];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    struct stat sb;
    fresh_dir(dir, "reg-once");
    sf_key(id, 1);
    CU_ASSERT_EQUAL(fastsig_registry_entry_path(dir, id, entry, sizeof(entry)), FASTSIG_OK);
    snprintf(reg, sizeof(reg), "%s/registry/", dir);
    CU_ASSERT(strncmp(entry, reg, strlen(reg)) == 0 && strlen(entry) == strlen(reg) + 64);

    CU_ASSERT_EQUAL(claim(dir, 1, "/states/a.state", found), FASTSIG_OK);
    CU_ASSERT(stat(entry, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 0777) == 0600);
    reg[strlen(reg) - 1] = '\0';
    CU_ASSERT(stat(reg, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700);
    CU_ASSERT(entry_text(dir, 1, buf, sizeof(buf)) > 0 && strcmp(buf, "/states/a.state\n") == 0);

    /* the same key again, with any state path: refused, naming the first */
    CU_ASSERT_EQUAL(claim(dir, 1, "/states/b.state", found), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_STRING_EQUAL(found, "/states/a.state");
    CU_ASSERT_EQUAL(claim(dir, 1, "/states/a.state", found), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT(entry_text(dir, 1, buf, sizeof(buf)) > 0 && strcmp(buf, "/states/a.state\n") == 0);
    /* another key is another entry */
    CU_ASSERT_EQUAL(claim(dir, 2, "/states/b.state", found), FASTSIG_OK);
    /* no temporary file left behind */
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) -eq 2", reg);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_refusals(void)
{
    char dir[PATH_MAX], found[PATH_MAX], missing[PATH_MAX];
    fresh_dir(dir, "reg-refuse");
    CU_ASSERT_EQUAL(claim(dir, 1, "relative.state", found), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(claim(dir, 1, "/a\nb.state", found), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(claim(dir, 1, NULL, found), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT_EQUAL(claim(sf_path(missing, "reg-no-such-dir"), 1, "/s", found),
                    FASTSIG_ERR_STATE_NO_DIR);
}

/* An entry may name more states of the same key (lines): the first is
 * reported, a torn last line is ignored, and withdrawal leaves it alone. */
static void test_several_lines(void)
{
    char dir[PATH_MAX], found[PATH_MAX], entry[PATH_MAX], buf[256];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fresh_dir(dir, "reg-lines");
    sf_key(id, 3);
    CU_ASSERT_EQUAL(claim(dir, 3, "/s/first.state", found), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_registry_entry_path(dir, id, entry, sizeof(entry)), FASTSIG_OK);
    FILE *f = fopen(entry, "a");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("/s/shard.state\n/s/torn", f);
    fclose(f);
    CU_ASSERT_EQUAL(claim(dir, 3, "/s/other.state", found), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_STRING_EQUAL(found, "/s/first.state");
    CU_ASSERT_EQUAL(unclaim(dir, 3, "/s/first.state"), FASTSIG_OK);
    CU_ASSERT(entry_text(dir, 3, buf, sizeof(buf)) > 0
              && strcmp(buf, "/s/first.state\n/s/shard.state\n/s/torn") == 0);
    /* a damaged entry without any line still refuses */
    CU_ASSERT_EQUAL(truncate(entry, 0), 0);
    CU_ASSERT_EQUAL(claim(dir, 3, "/s/other.state", found), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_STRING_EQUAL(found, "");
}

static void test_unclaim(void)
{
    char dir[PATH_MAX], found[PATH_MAX], buf[256];
    fresh_dir(dir, "reg-unclaim");
    CU_ASSERT_EQUAL(unclaim(dir, 4, "/s/a.state"), FASTSIG_OK); /* none: nothing to do */
    CU_ASSERT_EQUAL(claim(dir, 4, "/s/a.state", found), FASTSIG_OK);
    CU_ASSERT_EQUAL(unclaim(dir, 4, "/s/b.state"), FASTSIG_OK); /* not ours: kept */
    CU_ASSERT(entry_text(dir, 4, buf, sizeof(buf)) > 0);
    CU_ASSERT_EQUAL(unclaim(dir, 4, "/s/a.state"), FASTSIG_OK);
    CU_ASSERT_EQUAL(entry_text(dir, 4, buf, sizeof(buf)), 0);
    CU_ASSERT_EQUAL(claim(dir, 4, "/s/b.state", found), FASTSIG_OK); /* free again */
}

/* A link, FIFO or directory where an entry belongs, a link or a file where
 * the registry directory belongs: refused at once, nothing followed. */
static void test_special_files(void)
{
    char dir[PATH_MAX], found[PATH_MAX], entry[PATH_MAX], reg[PATH_MAX + 16], target[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fresh_dir(dir, "reg-special");
    sf_key(id, 5);
    CU_ASSERT_EQUAL(claim(dir, 6, "/s/x.state", found), FASTSIG_OK); /* makes registry/ */
    CU_ASSERT_EQUAL(fastsig_registry_entry_path(dir, id, entry, sizeof(entry)), FASTSIG_OK);
    sf_path(target, "reg-special-target");
    sf_write_file(target, (const uint8_t *)"/s/elsewhere.state\n", 19);
    CU_ASSERT_EQUAL(symlink(target, entry), 0);
    CU_ASSERT_EQUAL(claim(dir, 5, "/s/a.state", found), FASTSIG_ERR_STATE_NOT_FILE);
    CU_ASSERT_EQUAL(unlink(entry), 0);
    CU_ASSERT_EQUAL(mkfifo(entry, 0600), 0);
    CU_ASSERT_EQUAL(claim(dir, 5, "/s/a.state", found), FASTSIG_ERR_STATE_NOT_FILE);
    CU_ASSERT_EQUAL(unlink(entry), 0);
    CU_ASSERT_EQUAL(mkdir(entry, 0700), 0);
    CU_ASSERT_NOT_EQUAL(claim(dir, 5, "/s/a.state", found), FASTSIG_OK);
    CU_ASSERT_EQUAL(rmdir(entry), 0);

    fresh_dir(dir, "reg-special2");
    snprintf(reg, sizeof(reg), "%s/registry", dir);
    CU_ASSERT_EQUAL(symlink(sf_dir(), reg), 0);
    CU_ASSERT_EQUAL(claim(dir, 5, "/s/a.state", found), FASTSIG_ERR_STATE_NOT_FILE);
    CU_ASSERT_EQUAL(unlink(reg), 0);
    sf_write_file(reg, (const uint8_t *)"x", 1);
    CU_ASSERT_EQUAL(claim(dir, 5, "/s/a.state", found), FASTSIG_ERR_STATE_NOT_FILE);
}

/* Another process (here another open file description) holds the entry's
 * lock: the reader waits the lock timeout, then says so. */
static void test_locked_entry(void)
{
    char dir[PATH_MAX], found[PATH_MAX], entry[PATH_MAX];
    claimed_entry(dir, "reg-locked", 7, entry);
    int fd = open(entry, O_RDWR);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    CU_ASSERT_FATAL(fd >= 0 && fcntl(fd, F_OFD_SETLK, &fl) == 0);
    unsigned saved = fastsig_state_lock_timeout();
    fastsig_state_set_lock_timeout(50);
    CU_ASSERT_EQUAL(claim(dir, 7, "/s/b.state", found), FASTSIG_ERR_STATE_LOCKED);
    CU_ASSERT_EQUAL(unclaim(dir, 7, "/s/a.state"), FASTSIG_ERR_STATE_LOCKED);
    fastsig_state_set_lock_timeout(saved);
    close(fd);
    CU_ASSERT_EQUAL(claim(dir, 7, "/s/b.state", found), FASTSIG_ERR_STATE_REGISTERED);
}

/* Seed fingerprint entries, fp from sf_key(tag). */
static int seed_claim(const char *dir, const uint8_t *fp, const char *state, char *found)
{
    return fastsig_registry_claim_as(FASTSIG_REGISTRY_SEED, dir, fp, state, found, PATH_MAX, NULL);
}

static int seed_holder(const char *dir, const uint8_t *fp, char *found)
{
    return fastsig_registry_holder_as(FASTSIG_REGISTRY_SEED, dir, fp, found, PATH_MAX, NULL);
}

/* One seed under another parameter set is refused: a seed fingerprint
 * (another key id, the same one-time keys) has an entry of its own beside
 * the key ids (<hex>.seed), claimed once, seen by a look-up that claims
 * nothing, a second claim refused naming the first state, withdrawn only
 * by the claim that made it. */
static void test_seed_fingerprint(void)
{
    char dir[PATH_MAX], found[PATH_MAX], entry[PATH_MAX], kentry[PATH_MAX], buf[256];
    uint8_t fp[FASTSIG_REGISTRY_FP_LEN];
    fresh_dir(dir, "reg-seed");
    sf_key(fp, 9);
    /* no registry directory yet: nobody holds it */
    CU_ASSERT_EQUAL(seed_holder(dir, fp, found), FASTSIG_OK);
    CU_ASSERT_EQUAL(seed_claim(dir, fp, "/s/h10.state", found), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_registry_path_as(FASTSIG_REGISTRY_SEED, dir, fp, entry, PATH_MAX),
                    FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_registry_entry_path(dir, fp, kentry, sizeof(kentry)), FASTSIG_OK);
    CU_ASSERT(strlen(entry) == strlen(kentry) + 5 && strncmp(entry, kentry, strlen(kentry)) == 0
              && strcmp(entry + strlen(kentry), ".seed") == 0);
    FILE *f = fopen(entry, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "/s/h10.state\n");

    CU_ASSERT_EQUAL(seed_holder(dir, fp, found), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_STRING_EQUAL(found, "/s/h10.state");
    CU_ASSERT_EQUAL(seed_claim(dir, fp, "/s/h16.state", found), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_STRING_EQUAL(found, "/s/h10.state");
    /* a key id of the same bytes is another entry */
    CU_ASSERT_EQUAL(fastsig_registry_claim(dir, fp, "/s/k.state", found, PATH_MAX, NULL), FASTSIG_OK);
    /* withdrawal: only by the claim's own state path */
    CU_ASSERT_EQUAL(fastsig_registry_unclaim_as(FASTSIG_REGISTRY_SEED, dir, fp, "/s/h16.state"),
                    FASTSIG_OK);
    CU_ASSERT_EQUAL(seed_holder(dir, fp, found), FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_EQUAL(fastsig_registry_unclaim_as(FASTSIG_REGISTRY_SEED, dir, fp, "/s/h10.state"),
                    FASTSIG_OK);
    CU_ASSERT_EQUAL(seed_holder(dir, fp, found), FASTSIG_OK);
    CU_ASSERT_EQUAL(fastsig_registry_claim(dir, fp, "/s/k2.state", found, PATH_MAX, NULL),
                    FASTSIG_ERR_STATE_REGISTERED); /* the key id's entry stayed */
    CU_ASSERT_EQUAL(seed_claim(dir, fp, "/s/h16.state", found), FASTSIG_OK);
    /* a link where the entry belongs: refused by the look-up too */
    CU_ASSERT_EQUAL(unlink(entry), 0);
    CU_ASSERT_EQUAL(symlink(kentry, entry), 0);
    CU_ASSERT_EQUAL(seed_holder(dir, fp, found), FASTSIG_ERR_STATE_NOT_FILE);
}

/* An entry another user could have written (a forged entry could name a
 * state of theirs, or none): refused for a claim and a withdrawal alike,
 * naming the entry; the entry stays. */
static void assert_entry_refused(const char *dir, unsigned tag, const char *entry,
                                 const char *why)
{
    char found[PATH_MAX], buf[64];
    CU_ASSERT_EQUAL(claim(dir, tag, "/s/b.state", found), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT_STRING_EQUAL(found, "");
    CU_ASSERT(sf_refused(&claimed, entry, 0, why));
    CU_ASSERT_STRING_EQUAL(claimed.what, "registry entry");
    CU_ASSERT_EQUAL(unclaim(dir, tag, "/s/a.state"), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT(entry_text(dir, tag, buf, sizeof(buf)) > 0);
}

static void test_entry_writable_by_others_refused(void)
{
    char dir[PATH_MAX], found[PATH_MAX], entry[PATH_MAX];
    claimed_entry(dir, "reg-open", 9, entry);
    CU_ASSERT_EQUAL(chmod(entry, 0666), 0);
    assert_entry_refused(dir, 9, entry, "writable by group or others (mode 0666)");
    CU_ASSERT_EQUAL(chmod(entry, 0620), 0);
    assert_entry_refused(dir, 9, entry, "writable by group or others (mode 0620)");
    CU_ASSERT_EQUAL(chmod(entry, 0600), 0);
    CU_ASSERT_EQUAL(claim(dir, 9, "/s/b.state", found), FASTSIG_ERR_STATE_REGISTERED);
}

/* Needs root for chown (else reported as skipped; the mode test runs). */
static void test_entry_owned_by_another_user_refused(void)
{
    char dir[PATH_MAX], entry[PATH_MAX];
    claimed_entry(dir, "reg-foreign", 10, entry);
    if (!sf_can_chown("a registry entry"))
        return;
    CU_ASSERT_EQUAL(chown(entry, SF_OTHER_UID, SF_OTHER_UID), 0);
    assert_entry_refused(dir, 10, entry, "owned by uid 65534, not by this user");
}

static void test_registry_dir_writable_without_sticky_refused(void)
{
    char dir[PATH_MAX], found[PATH_MAX], reg[PATH_MAX + 16], buf[64];
    fresh_dir(dir, "reg-opendir");
    CU_ASSERT_EQUAL(claim(dir, 11, "/s/a.state", found), FASTSIG_OK); /* makes registry/ */
    snprintf(reg, sizeof(reg), "%s/" FASTSIG_REGISTRY_SUBDIR, dir);
    CU_ASSERT_EQUAL(chmod(reg, 0777), 0);
    CU_ASSERT_EQUAL(claim(dir, 12, "/s/b.state", found), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT(sf_refused(&claimed, reg, 1, "without the sticky bit (mode 0777)"));
    CU_ASSERT_STRING_EQUAL(claimed.what, "registry directory");
    CU_ASSERT_EQUAL(entry_text(dir, 12, buf, sizeof(buf)), 0);
    CU_ASSERT_EQUAL(claim(dir, 11, "/s/b.state", found), FASTSIG_ERR_STATE_UNTRUSTED);
    CU_ASSERT_EQUAL(chmod(reg, 01777), 0); /* sticky: fine */
    CU_ASSERT_EQUAL(claim(dir, 12, "/s/b.state", found), FASTSIG_OK);
}

/* A new key's two entries at once (fastsig_registry_claim_key): one file
 * under both names, so that they cost one entry's fsyncs; either name
 * taken refuses the claim, says which, and leaves nothing claimed. */
static int key_claim(const char *dir, unsigned ktag, unsigned stag, const char *state,
                     char *found, fastsig_registry_kind *which)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN], fp[FASTSIG_REGISTRY_FP_LEN];
    sf_key(id, ktag);
    sf_key(fp, stag);
    return fastsig_registry_claim_key(dir, id, fp, state, found, PATH_MAX, which, &claimed);
}

static int exists_as(const char *dir, fastsig_registry_kind kind, unsigned tag,
                     struct stat *sb)
{
    char entry[PATH_MAX];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, tag);
    CU_ASSERT_EQUAL_FATAL(fastsig_registry_path_as(kind, dir, id, entry, sizeof(entry)),
                          FASTSIG_OK);
    return lstat(entry, sb) == 0;
}

static void test_key_and_seed_claimed_as_one_file(void)
{
    char dir[PATH_MAX], found[PATH_MAX], buf[64];
    struct stat k, f;
    fastsig_registry_kind which;
    fresh_dir(dir, "reg-pair");
    CU_ASSERT_EQUAL(key_claim(dir, 20, 21, "/s/a.state", found, &which), FASTSIG_OK);
    CU_ASSERT(exists_as(dir, FASTSIG_REGISTRY_KEY_ID, 20, &k)
              && exists_as(dir, FASTSIG_REGISTRY_SEED, 21, &f));
    CU_ASSERT(k.st_ino == f.st_ino && k.st_nlink == 2 && (k.st_mode & 0777) == 0600);
    CU_ASSERT(entry_text(dir, 20, buf, sizeof(buf)) > 0 && strcmp(buf, "/s/a.state\n") == 0);
    /* the seed taken: refused, naming its state; no key-id entry left */
    CU_ASSERT_EQUAL(key_claim(dir, 22, 21, "/s/b.state", found, &which),
                    FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_EQUAL(which, FASTSIG_REGISTRY_SEED);
    CU_ASSERT_STRING_EQUAL(found, "/s/a.state");
    CU_ASSERT(!exists_as(dir, FASTSIG_REGISTRY_KEY_ID, 22, &k));
    /* the key id taken: refused, and no seed entry made */
    CU_ASSERT_EQUAL(key_claim(dir, 20, 23, "/s/c.state", found, &which),
                    FASTSIG_ERR_STATE_REGISTERED);
    CU_ASSERT_EQUAL(which, FASTSIG_REGISTRY_KEY_ID);
    CU_ASSERT_STRING_EQUAL(found, "/s/a.state");
    CU_ASSERT(!exists_as(dir, FASTSIG_REGISTRY_SEED, 23, &f));
    /* withdrawn name by name */
    CU_ASSERT_EQUAL(unclaim(dir, 20, "/s/a.state"), FASTSIG_OK);
    uint8_t fp[FASTSIG_REGISTRY_FP_LEN];
    sf_key(fp, 21);
    CU_ASSERT_EQUAL(fastsig_registry_unclaim_as(FASTSIG_REGISTRY_SEED, dir, fp, "/s/a.state"),
                    FASTSIG_OK);
    CU_ASSERT(!exists_as(dir, FASTSIG_REGISTRY_KEY_ID, 20, &k)
              && !exists_as(dir, FASTSIG_REGISTRY_SEED, 21, &f));
}

static enum fs_state_io_op fail_op;
static int fail_hook(enum fs_state_io_op op)
{
    return op == fail_op ? EIO : 0;
}

/* A failed write or sync leaves no entry (and no temporary file): the key
 * is not registered, and its generation fails. */
static void test_io_failures(void)
{
    char dir[PATH_MAX], found[PATH_MAX], buf[64], cmd[PATH_MAX + 64];
    static const enum fs_state_io_op ops[] = { FS_STATE_IO_OPEN, FS_STATE_IO_WRITE,
                                               FS_STATE_IO_SYNC };
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        fresh_dir(dir, "reg-io");
        CU_ASSERT_EQUAL(mkdir(strcat(strcpy(cmd, dir), "/registry"), 0700), 0);
        fail_op = ops[i];
        fs_state_io_hook = fail_hook;
        CU_ASSERT_EQUAL(claim(dir, 8, "/s/a.state", found), FASTSIG_ERR_STATE_IO);
        CU_ASSERT_EQUAL(claimed.sys_errno, EIO);
        fastsig_registry_kind which; /* a key's two names: neither is left */
        CU_ASSERT_EQUAL(key_claim(dir, 8, 9, "/s/a.state", found, &which), FASTSIG_ERR_STATE_IO);
        CU_ASSERT_EQUAL(claimed.sys_errno, EIO);
        fs_state_io_hook = NULL;
        CU_ASSERT_EQUAL(entry_text(dir, 8, buf, sizeof(buf)), 0);
        snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s/registry')\"", dir);
        CU_ASSERT_EQUAL(system(cmd), 0);
        CU_ASSERT_EQUAL(claim(dir, 8, "/s/a.state", found), FASTSIG_OK);
    }
}

/* The text of seed fingerprint `tag`'s entry into buf ("" when none). */
static void seed_text(const char *dir, unsigned tag, char *buf, size_t cap)
{
    char entry[PATH_MAX];
    uint8_t fp[FASTSIG_REGISTRY_FP_LEN];
    sf_key(fp, tag);
    buf[0] = '\0';
    CU_ASSERT_EQUAL_FATAL(fastsig_registry_path_as(FASTSIG_REGISTRY_SEED, dir, fp, entry,
                                                   sizeof(entry)), FASTSIG_OK);
    FILE *f = fopen(entry, "r");
    if (f == NULL)
        return;
    buf[fread(buf, 1, cap - 1, f)] = '\0';
    fclose(f);
}

/* A shard's state added to its key's entry (fastsig_registry_add_state):
 * one line after the last whole one (a torn line written over), not twice,
 * under both names of a key's entry; no entry: nothing made. */
/* fastsig_registry_add_state of state into dir's entry for id; *added */
static int add(const char *dir, const uint8_t *id, const char *state, int *added)
{
    return fastsig_registry_add_state(dir, id, state, added, NULL);
}

static void test_add_state(void)
{
    char dir[PATH_MAX], found[PATH_MAX], entry[PATH_MAX], buf[256];
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_registry_kind which;
    struct stat k;
    int added = -1;
    fresh_dir(dir, "reg-add");
    sf_key(id, 30);
    CU_ASSERT_EQUAL(add(dir, id, "/s/shard.state", &added), FASTSIG_OK);
    CU_ASSERT_EQUAL(added, 0); /* no entry */
    CU_ASSERT(!exists_as(dir, FASTSIG_REGISTRY_KEY_ID, 30, &k));
    CU_ASSERT_EQUAL(key_claim(dir, 30, 31, "/s/a.state", found, &which), FASTSIG_OK);
    CU_ASSERT_EQUAL(add(dir, id, "/s/shard.state", &added), FASTSIG_OK);
    CU_ASSERT_EQUAL(added, 1);
    CU_ASSERT_EQUAL(add(dir, id, "/s/shard.state", &added), FASTSIG_OK);
    CU_ASSERT_EQUAL(added, 0); /* there already */
    CU_ASSERT(entry_text(dir, 30, buf, sizeof(buf)) > 0
              && strcmp(buf, "/s/a.state\n/s/shard.state\n") == 0);
    seed_text(dir, 31, buf, sizeof(buf)); /* the seed's name: the same file */
    CU_ASSERT_STRING_EQUAL(buf, "/s/a.state\n/s/shard.state\n");
    /* a torn append is written over */
    CU_ASSERT_EQUAL_FATAL(fastsig_registry_entry_path(dir, id, entry, sizeof(entry)), FASTSIG_OK);
    FILE *f = fopen(entry, "a");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("/s/to", f);
    fclose(f);
    CU_ASSERT_EQUAL(add(dir, id, "/s/two.state", &added), FASTSIG_OK);
    CU_ASSERT(entry_text(dir, 30, buf, sizeof(buf)) > 0
              && strcmp(buf, "/s/a.state\n/s/shard.state\n/s/two.state\n") == 0);
    /* a relative path or one with a newline is no line */
    CU_ASSERT_EQUAL(add(dir, id, "s/x.state", &added),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(add(dir, id, "/s/x\n.state", &added),
                    FASTSIG_ERR_BAD_PARAM);
    /* after a move the line goes to the entry at the path */
    int moved = 0;
    CU_ASSERT_EQUAL(fastsig_registry_move_state(dir, id, "/s/a.state", "/t/a.state", &moved, NULL),
                    FASTSIG_OK);
    CU_ASSERT_EQUAL(add(dir, id, "/s/three.state", &added), FASTSIG_OK);
    seed_text(dir, 31, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "/t/a.state\n/s/shard.state\n/s/two.state\n/s/three.state\n");
}

int main(void)
{
    static const fs_test tests[] = {
        { "claim once, refuse a second state naming the first", test_claim_once },
        { "bad state paths, missing state directory", test_refusals },
        { "entries of several lines, a torn line, an empty entry", test_several_lines },
        { "withdraw only our own claim", test_unclaim },
        { "links, FIFOs, directories and files refused", test_special_files },
        { "a lock held elsewhere: bounded wait", test_locked_entry },
        { "injected I/O failures leave no entry", test_io_failures },
        { "a key's id and seed entries are claimed as one file, or not at all",
          test_key_and_seed_claimed_as_one_file },
        { "one seed under another parameter set is refused: seed fingerprint entries",
          test_seed_fingerprint },
        { "a registry entry writable by others is refused",
          test_entry_writable_by_others_refused },
        { "a registry entry owned by another user is refused",
          test_entry_owned_by_another_user_refused },
        { "a registry directory writable by others without the sticky bit is refused",
          test_registry_dir_writable_without_sticky_refused },
        { "a shard's state added to its key's entry, once", test_add_state },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "key-id registry", tests }, { NULL, NULL } };
    sf_dir();
    return fs_cu_main(suites);
}
