/* statefile_internal.h - the state handle's struct and the calls its parts
 * (statefile.c, stateupdate.c, stateworker.c, statefork.c,
 * staterollback.c) share. Private to crypto/state; the contract is in
 * statefile.h. */
#ifndef FASTSIG_STATEFILE_INTERNAL_H
#define FASTSIG_STATEFILE_INTERNAL_H

/* cpu_set_t: every includer defines _GNU_SOURCE first */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/types.h>
#include "statefile.h"
#include "stateslot.h"
#include "statecause.h"

struct fastsig_state {
    pthread_mutex_t mu;    /* guards everything below */
    unsigned refs;         /* atomic */
    int fd;                /* opened by fd_pid (a forked child reopens) */
    pid_t fd_pid;
    char *path;            /* absolute when it could be resolved */
    uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN];
    uint64_t max;
    uint64_t batch;        /* largest block take() reserves */
    int first_block;       /* take()'s next block is this process's first: one index */
    pid_t pool_pid;        /* the block [pool_next, pool_end) is this pid's */
    uint64_t pool_next, pool_end;
    /* The next block, reserved ahead by a worker thread while this one is
     * used, so that a steady signer does not wait for fdatasync. The worker
     * has a file description of its own (wfd: its OFD lock excludes st->fd's
     * like any other holder's) and touches nothing else but the ahead_*
     * fields, under wmu, never under mu: a fork() while it holds wmu leaves
     * a child that takes mu and makes wmu anew. Callers hold mu, then wmu.
     * Like the block, all of it belongs to pool_pid. */
    int prefetch;          /* reserve ahead at all (FASTSIG_STATE_PREFETCH) */
    pthread_mutex_t wmu;   /* guards ahead* and stop */
    pthread_cond_t cv;     /* ahead changed, or stop */
    pthread_t worker;
    pid_t worker_pid;      /* the worker runs in this pid; 0: none */
    int wfd;               /* the worker's description; -1: none */
    int stop;              /* tells the worker to end */
    enum { AHEAD_NONE, AHEAD_ASKED, AHEAD_DONE } ahead;
    uint64_t ahead_want, ahead_first, ahead_count;
    int ahead_rc;          /* the worker's result */
    fastsig_cause ahead_cause; /* and why it failed, for the message */
    cpu_set_t wmask;       /* the CPUs the worker may use (inherited) */
    int wmask_ok;          /* wmask was read: the worker can be steered */
    int wcpu;              /* the CPU the worker is kept off; -1: none */
    int wpoll;             /* the worker polls for requests: no need to wake it */
    /* Rollback (doc/state.md section 7): mark is the highest index end this
     * handle reserved (the worker raises it too); a file whose next is below
     * it was rolled back under us, and the handle is poisoned for good: no
     * take hands out anything again. rb_* say what was seen (set once,
     * under wmu, before poisoned). */
    uint64_t mark;         /* atomic */
    int poisoned;          /* atomic */
    uint64_t rb_next, rb_mark;
    int rb_registry;       /* the registry's mark refused it (at open) */
    char *mark_path;       /* the registry's mark file (statemark.h), atomic; NULL: none */
};

/* statefork.c: this process's pid (no system call while no fork happened) */
pid_t fs_state_current_pid(void);
/* In a forked child: forget the parent's blocks and worker (st->mu held). */
void fs_state_drop_parents_blocks(fastsig_state *st, pid_t pid);
/* That, and a file description of the child's own (st->mu held). */
int fs_state_own_process(fastsig_state *st, pid_t pid, fastsig_cause *c);

/* stateupdate.c. Every call that fails fills c (never NULL here) where it
 * fails: the code, the path, errno when a system call failed.
 * Reading: img holds FS_STATE_FILE_SIZE + 1 bytes. */
int fs_state_read_image(int fd, uint8_t *img, const char *path, fastsig_cause *c);
/* Reads and validates the file, checks the key id (and max unless 0). */
int fs_state_read_checked(int fd, const uint8_t *key_id, uint64_t max, fs_state_slot *cur,
                          const char *path, fastsig_cause *c);
/* Opens path and reads its state under a shared lock; *fd open on success. */
int fs_state_open_checked(const char *path, int flags, const uint8_t *key_id, int *fd,
                          fs_state_slot *cur, fastsig_cause *c);
/* A new description of st->path under the number *fd. */
int fs_state_reopen(fastsig_state *st, int *fd, fastsig_cause *c);
/* Locks the file st->path names now, following a rename (st->mu held). */
int fs_state_lock_path_file(fastsig_state *st, int *fd, short type, fastsig_cause *c);

/* A step of an update: inspects the current slot and sets *next to the new
 * value; returns 0 to write it, 1 to leave the file as it is, or an error. */
typedef int (*fs_state_update_step)(const fs_state_slot *cur, uint64_t *next, void *arg);
/* The locked durable update (stateupdate.c). */
int fs_state_update(fastsig_state *st, int *fd, fs_state_update_step step, void *arg,
                    fastsig_cause *c);

/* Reserving up to want indices: the step, and the whole of it for the
 * handle's block (st->mu held, own_process done). */
struct fs_state_reserve_arg {
    uint64_t want, first, count;
};
int fs_state_reserve_step(const fs_state_slot *cur, uint64_t *next, void *arg);
int fs_state_reserve_locked(fastsig_state *st, uint64_t want, uint64_t *first,
                            uint64_t *count, fastsig_cause *c);

/* staterollback.c: poisons the handle (STATE_ROLLED_BACK); the verdict on a
 * slot read; the marks raised after a durable reservation ending at end. */
int fs_state_poison(fastsig_state *st, uint64_t next, uint64_t mark, int registry);
int fs_state_check_rollback(fastsig_state *st, const fs_state_slot *cur);
void fs_state_raise_marks(fastsig_state *st, uint64_t end);

/* stateworker.c (st->mu held, but stop_worker: not held) */
void fs_state_ask_ahead(fastsig_state *st, uint64_t want);
int fs_state_settle_ahead(fastsig_state *st, int take);
int fs_state_collect_ahead(fastsig_state *st, fastsig_cause *c);
void fs_state_stop_worker(fastsig_state *st);

/* The end of a public call on a state file (fs_cause_end). */
static inline int fs_state_end(fastsig_cause *c, int rc, const char *path)
{
    return fs_cause_end(c, rc, path, "state file", "state directory");
}

#endif
