/* fileio.c - see fileio.h. */
#define _GNU_SOURCE /* F_OFD_SETLKW, renameat2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "fileio.h"
#include "fileowner.h"
#include "statefile.h"
#include "statefile_hook.h"

int (*fs_state_io_hook)(enum fs_state_io_op op);

static int injected(enum fs_state_io_op op)
{
    int e = fs_state_io_hook ? fs_state_io_hook(op) : 0;
    if (e != 0)
        errno = e;
    return e != 0;
}

/* Notes a failed open of path in c (errno as the failing call set it): a
 * path that is no regular file (or directory, when one was asked for) is
 * STATE_NOT_FILE, a missing one STATE_MISSING, the rest STATE_IO. -1. */
static int open_failed(fastsig_cause *c, const char *path, int not_file)
{
    fs_cause_sys(c, not_file ? FASTSIG_ERR_STATE_NOT_FILE
                    : errno == ENOENT ? FASTSIG_ERR_STATE_MISSING : FASTSIG_ERR_STATE_IO, path);
    return -1;
}

/* The directory holding path ("." or "/" when that is all) into dir. */
static int dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else if ((size_t)(slash - path) < len)
        memcpy(dir, path, (size_t)(slash - path)), dir[slash - path] = 0;
    else
        return errno = ENAMETOOLONG, -1;
    return 0;
}

/* The directory holding path, opened (O_PATH: no read permission needed)
 * and checked, so that the file is opened in the very directory checked
 * (openat): the descriptor, *name = the path's last component; -1 with
 * errno and c filled when it cannot be opened or is not trusted. */
static int open_parent(const char *path, const char **name, fastsig_cause *c)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    *name = slash != NULL ? (slash[1] != '\0' ? slash + 1 : ".") : path;
    if (dir_of(path, dir, sizeof(dir)) != 0)
        return open_failed(c, path, 0);
#ifdef O_PATH
    int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
    struct stat sb;
    if (dfd < 0)
        return open_failed(c, path, 0);
    if (fstat(dfd, &sb) != 0 ? open_failed(c, path, 0) : fs_owner_check(&sb, dir, 1, c)) {
        int saved = errno;
        close(dfd);
        errno = saved;
        return -1;
    }
    return dfd;
}

int fs_file_open(const char *path, int flags, mode_t mode, fastsig_cause *c)
{
    if (injected(FS_STATE_IO_OPEN))
        return open_failed(c, path, 0);
    int want_dir = (flags & O_DIRECTORY) != 0;
    /* O_NONBLOCK: opening a FIFO must not wait for its other end.
     * O_NOFOLLOW: a link's target (a device, another key's file) is not ours;
     * a directory may be a link (e.g. a symlinked home). */
    flags |= O_CLOEXEC | O_NONBLOCK | (want_dir ? 0 : O_NOFOLLOW);
    const char *name = path;
    int dfd = want_dir ? AT_FDCWD : open_parent(path, &name, c);
    if (dfd == -1)
        return -1;
    int fd;
    while ((fd = openat(dfd, name, flags, mode)) < 0 && errno == EINTR)
        ;
    if (dfd != AT_FDCWD) {
        int saved = errno;
        close(dfd);
        errno = saved;
    }
    if (fd < 0) {
        /* ELOOP: a symlink; ENXIO: a FIFO without reader opened for
         * writing, or a device without its driver (never a regular file).
         * A directory opened for writing stays STATE_IO with EISDIR. */
        return open_failed(c, path, (errno == ELOOP && !want_dir) || errno == ENXIO);
    }
    struct stat sb;
    int fl;
    if (fstat(fd, &sb) != 0 || (fl = fcntl(fd, F_GETFL)) < 0
        || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        open_failed(c, path, 0);
        close(fd);
        errno = c->sys_errno;
        return -1;
    }
    if (want_dir ? !S_ISDIR(sb.st_mode) : !S_ISREG(sb.st_mode)) {
        close(fd);
        errno = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
        return open_failed(c, path, 1);
    }
    /* the descriptor's own owner and mode: what was opened is what counts */
    if (!want_dir && fs_owner_check(&sb, path, 0, c) != 0) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

#ifdef F_OFD_SETLKW
static int use_ofd = 1;
#else
static const int use_ofd = 0;
#endif
/* Classic POSIX locks do not exclude threads of one process: without OFD
 * locks, this mutex does while the lock is held. */
static pthread_mutex_t posix_lock_mu = PTHREAD_MUTEX_INITIALIZER;

static int set_lock(int fd, int cmd, short type)
{
    struct flock fl;
    int r;
    memset(&fl, 0, sizeof(fl));
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    while ((r = fcntl(fd, cmd, &fl)) != 0 && errno == EINTR)
        ;
    return r;
}

/* One attempt that does not wait: 0, or -1 with errno (EAGAIN or EACCES
 * while another holder has the lock). */
static int try_lock(int fd, short type)
{
#ifdef F_OFD_SETLKW
    if (use_ofd) {
        int r = set_lock(fd, F_OFD_SETLK, type);
        if (r == 0 || errno != EINVAL)
            return r;
        use_ofd = 0; /* kernel without OFD locks */
    }
#endif
    if (pthread_mutex_trylock(&posix_lock_mu) != 0)
        return errno = EAGAIN, -1;
    int r = set_lock(fd, F_SETLK, type);
    if (r != 0) {
        int saved = errno;
        pthread_mutex_unlock(&posix_lock_mu);
        errno = saved;
    }
    return r;
}

static int lock_busy(int e)
{
    return e == EAGAIN || e == EACCES;
}

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The file's last change: holders that write it are making progress. */
static int64_t changed_ns(int fd)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return 0;
    return (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
}

/* Waiting polls: F_OFD_SETLKW cannot be bounded without a signal, and a
 * library must not take SIGALRM from its application. Retries come at most
 * 0.2 ms apart (a holder keeps the lock for one fdatasync; longer naps would
 * leave the lock idle between turns under contention). The timeout counts time in which the file does not change: a
 * holder that is stuck (stopped, hung) makes the wait fail, while signers
 * that take turns writing it are waited for, as a blocking lock would (a
 * poller can lose many turns to a holder that locks again at once). */
int fs_file_lock(int fd, short type, int wait)
{
    if (injected(FS_STATE_IO_LOCK))
        return -1;
    uint64_t deadline = 0, pause_us = 10;
    int64_t seen = 0;
    for (;;) {
        if (try_lock(fd, type) == 0)
            return 0;
        if (!wait || !lock_busy(errno))
            return -1;
        uint64_t now = now_us();
        int64_t changed = changed_ns(fd);
        if (deadline == 0 || changed != seen) {
            deadline = now + (uint64_t)fastsig_state_lock_timeout() * 1000u;
            seen = changed;
        }
        if (now >= deadline)
            return errno = EAGAIN, -1;
        uint64_t nap = deadline - now < pause_us ? deadline - now : pause_us;
        struct timespec ts = { (time_t)(nap / 1000000u), (long)(nap % 1000000u) * 1000 };
        nanosleep(&ts, NULL);
        pause_us = pause_us * 2 > 200 ? 200 : pause_us * 2;
    }
}

int fs_file_lock_failed(fastsig_cause *c, const char *path)
{
    return fs_cause_sys(c, lock_busy(errno) ? FASTSIG_ERR_STATE_LOCKED : FASTSIG_ERR_STATE_IO,
                        path);
}

void fs_file_unlock(int fd)
{
    int saved = errno;
#ifdef F_OFD_SETLKW
    if (use_ofd) {
        set_lock(fd, F_OFD_SETLK, F_UNLCK);
        errno = saved;
        return;
    }
#endif
    set_lock(fd, F_SETLK, F_UNLCK);
    pthread_mutex_unlock(&posix_lock_mu);
    errno = saved;
}

int fs_file_write_all(int fd, const uint8_t *buf, size_t len, off_t off)
{
    if (injected(FS_STATE_IO_WRITE))
        return -1;
    while (len > 0) {
        ssize_t n = pwrite(fd, buf, len, off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
        off += n;
    }
    return 0;
}

ssize_t fs_file_read_all(int fd, uint8_t *buf, size_t len, off_t off)
{
    if (injected(FS_STATE_IO_READ))
        return -1;
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, buf + got, len - got, off + (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

int fs_file_sync(int fd, int data_only)
{
    if (injected(FS_STATE_IO_SYNC))
        return -1;
    return data_only ? fdatasync(fd) : fsync(fd);
}

int fs_file_write_new(const char *tmp, const uint8_t *buf, size_t len, fastsig_cause *c)
{
    int fd = fs_file_open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600, c);
    if (fd < 0)
        return -1;
    int ok = fs_file_write_all(fd, buf, len, 0) == 0 && fs_file_sync(fd, 0) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok)
        ok = 0, saved = errno;
    if (!ok) {
        unlink(tmp);
        errno = saved;
        fs_cause_sys(c, FASTSIG_ERR_STATE_IO, tmp);
        return -2;
    }
    return 0;
}

/* Moves tmp to path; without replace, fails with EEXIST if path exists. */
int fs_file_install(const char *tmp, const char *path, int replace)
{
    if (replace)
        return rename(tmp, path);
#ifdef RENAME_NOREPLACE
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
#endif
    if (link(tmp, path) != 0) /* filesystems without RENAME_NOREPLACE */
        return -1;
    unlink(tmp);
    return 0;
}

int fs_file_sync_dir_of(const char *path, fastsig_cause *c)
{
    char dir[PATH_MAX];
    if (dir_of(path, dir, sizeof(dir)) != 0)
        return open_failed(c, path, 0);
    int dfd = fs_file_open(dir, O_RDONLY | O_DIRECTORY, 0, c);
    if (dfd < 0)
        return -1;
    int r = fs_file_sync(dfd, 0);
    if (r != 0)
        fs_cause_sys(c, FASTSIG_ERR_STATE_IO, dir);
    int saved = errno;
    close(dfd);
    errno = saved;
    return r;
}
