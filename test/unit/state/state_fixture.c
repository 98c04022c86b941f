/* state_fixture.c - scratch directory, key ids and child helpers for the
 * state tests. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "state_fixture.h"
#include "state/fileowner.h"

static char scratch[PATH_MAX];
static pid_t scratch_owner;

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    chmod(path, 0700); /* read-only test directories */
    return remove(path);
}

static void remove_scratch(void)
{
    if (scratch[0] && getpid() == scratch_owner) {
        chmod(scratch, 0700);
        nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
}

const char *sf_dir(void)
{
    if (scratch[0] == 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch, sizeof(scratch), "%s/fastsig-state-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(scratch) == NULL) {
            perror("mkdtemp");
            exit(2);
        }
        chmod(scratch, 0711); /* the unprivileged children must reach files */
        scratch_owner = getpid();
        atexit(remove_scratch);
    }
    return scratch;
}

char *sf_path(char *out, const char *name)
{
    if ((size_t)snprintf(out, PATH_MAX, "%s/%s", sf_dir(), name) >= PATH_MAX)
        abort(); /* test names are short */
    return out;
}

void sf_key(uint8_t id[FASTSIG_STATE_KEY_ID_LEN], unsigned tag)
{
    for (unsigned i = 0; i < FASTSIG_STATE_KEY_ID_LEN; i++)
        id[i] = (uint8_t)(tag * 131u + i * 7u + (tag >> 8));
}

int sf_create(char *out, const char *name, unsigned tag, uint64_t max, uint64_t next)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    sf_key(id, tag);
    sf_path(out, name);
    unlink(out);
    return fastsig_state_create(out, id, max, next, 0, NULL);
}

fastsig_state *sf_open(const char *path, unsigned tag, int *rc)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    fastsig_state *st = NULL;
    sf_key(id, tag);
    int r = fastsig_state_open(path, id, &st, NULL);
    if (rc != NULL)
        *rc = r;
    return st;
}

uint64_t sf_file_next(const char *path, unsigned tag)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t next;
    sf_key(id, tag);
    return fastsig_state_peek(path, id, &next, NULL, NULL, NULL) == FASTSIG_OK ? next : UINT64_MAX;
}

int sf_read_file(const char *path, uint8_t *buf, size_t len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = pread(fd, buf, len, 0);
    close(fd);
    return n == (ssize_t)len ? 0 : -1;
}

int sf_write_file(const char *path, const uint8_t *buf, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, buf, len);
    close(fd);
    return n == (ssize_t)len ? 0 : -1;
}

int sf_in_child(int (*fn)(void *), void *arg, int drop_root)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (drop_root && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(100);
        _exit(fn(arg));
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

int sf_refused(const fastsig_cause *cause, const char *path, int is_dir, const char *why)
{
    if (cause->code == FASTSIG_ERR_STATE_UNTRUSTED && cause->sys_errno == EPERM
        && strcmp(cause->path, path) == 0 && cause->is_dir == is_dir
        && strstr(cause->why, why) != NULL)
        return 1;
    fprintf(stderr, "\n  refused (code %d) %s %s: %s (expected %s: %s) ", cause->code,
            cause->is_dir ? "directory" : "file", cause->path, cause->why, path, why);
    return 0;
}

int sf_can_chown(const char *what)
{
    if (geteuid() == 0)
        return 1;
    fprintf(stderr, "\n  [skip: %s owned by another user (needs root to chown)] ", what);
    return 0;
}

int sf_soak(void)
{
    const char *s = getenv("FASTSIG_SOAK");
    return s != NULL && strcmp(s, "1") == 0;
}
