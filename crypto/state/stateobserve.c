/* stateobserve.c - fastsig_state_observe: a state file read without any
 * lock, for monitors (fastsig-keytool status) that must never make a signer
 * wait. Both slots come from one pread; a signer's update rewrites the older
 * slot meanwhile, so a read that catches it half written (a bad checksum)
 * or between two updates (seqs not one apart) is no view at all: it is
 * read again, and only a view whose two slots agree is reported, the one a
 * locked reader could have seen at some instant. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "state/fileio.h"
#include "state/statefile.h"
#include "state/stateslot.h"
#include "statefile_internal.h"

#define OBSERVE_TRIES 50       /* a reader meets a writer mid-update rarely */
#define OBSERVE_PAUSE_NS 200000 /* between tries: an update's fdatasync is ~ms */

int fastsig_state_observe(const char *path, fastsig_state_view *view, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    uint8_t img[FS_STATE_FILE_SIZE + 1];
    struct timespec pause = { 0, OBSERVE_PAUSE_NS };
    struct stat sb;
    fs_state_slot s;
    int pos, rc = FASTSIG_ERR_STATE_CORRUPT;

    if (path == NULL || view == NULL)
        return FASTSIG_ERR_NULL_ARG;
    memset(view, 0, sizeof(*view));
    int fd = fs_file_open(path, O_RDONLY, 0, c); /* owner checks as for every open */
    if (fd < 0)
        return fs_state_end(c, c->code, path);
    for (int i = 0; i < OBSERVE_TRIES && rc == FASTSIG_ERR_STATE_CORRUPT; i++) {
        if (i > 0)
            nanosleep(&pause, NULL);
        rc = fs_state_read_image(fd, img, path, c);
        if (rc == FASTSIG_OK && fs_state_image_decode(img, &s, &pos) != 0)
            rc = fs_cause_set(c, FASTSIG_ERR_STATE_CORRUPT, path, 0);
    }
    if (rc == FASTSIG_OK && fstat(fd, &sb) != 0)
        rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path);
    close(fd);
    if (rc != FASTSIG_OK)
        return fs_state_end(c, rc, path);
    view->seq = s.seq;
    view->max = s.max;
    view->next = s.next;
    memcpy(view->key_id, s.key_id, FASTSIG_STATE_KEY_ID_LEN);
    view->mtime_sec = (int64_t)sb.st_mtim.tv_sec;
    view->mtime_nsec = (long)sb.st_mtim.tv_nsec;
    view->dev = (uint64_t)sb.st_dev;
    view->ino = (uint64_t)sb.st_ino;
    return FASTSIG_OK;
}
