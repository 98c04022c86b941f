/* statefile.h - persistent signature state of a stateful key (WOTS+, XMSS,
 * XMSS^MT): which one-time indices are spent. POSIX only, no OpenSSL.
 *
 * The contract (doc/state.md sections 1-4):
 *
 * - A state file belongs to one key, identified by a 32-byte key id the
 *   caller computes (a hash of the public key; this code does not hash). It
 *   holds the key's index count `max` (last index + 1: 2^h for XMSS, 1 for a
 *   one-time key, up to 2^63) and `next`, the lowest index never handed out.
 *   Every index below `next` counts as spent, used or not. open() checks the
 *   key id; the caller checks `max` (fastsig_state_query) against the key's
 *   parameter set.
 *
 * - Durability: the file has two checksummed slots with sequence numbers
 *   (layout in stateslot.h). An update reads both under an exclusive OFD lock
 *   (fcntl F_OFD_SETLK: processes AND threads holding separate handles are
 *   serialized; waited for at most the lock timeout, see
 *   fastsig_state_set_lock_timeout), writes the older slot in place with seq + 1 (pwrite) and
 *   fdatasync()s before anything is handed out. One update = one fdatasync.
 *   A SIGKILL cannot tear a 128-byte pwrite (the kernel copies it into the
 *   page cache whole), so a killed signer leaves two valid slots.
 *
 * - Trust: a file is used only when BOTH slots are well formed and agree (key
 *   id, max, seqs one apart). There is no fallback to the older slot: a slot
 *   that fails its checksum may be the newer one, damaged after it was
 *   written, and the older slot's `next` would hand out spent indices again.
 *   The price: a power loss in the middle of an update may leave a torn
 *   slot, and then the key refuses to sign (FASTSIG_ERR_STATE_CORRUPT) until
 *   an operator recovers: fastsig_state_inspect() shows both slots; recreate
 *   with fastsig_state_create(..., FASTSIG_STATE_OVERWRITE) at `next` = the
 *   highest `next` of a valid slot + the largest block any signer reserves
 *   (its batch, or its largest fastsig_state_reserve; the torn update
 *   reserved at most that many beyond it).
 *
 * - Reservations: a handle takes indices from a process-local block
 *   [pool_next, pool_end) that was spent durably in one update. A handle's
 *   first block is one index, every later one the handle's batch size
 *   (default FASTSIG_STATE_DEFAULT_BATCH), so a process that signs once
 *   spends one fdatasync and reserves exactly one index, and a signing loop
 *   pays one fdatasync per `batch` signatures from its second signature on
 *   (a doubling ramp 1, 2, 4, ... would cost six fdatasyncs in a loop's
 *   first 63 signatures). A caller may name its own block size for one
 *   take (fastsig_state_take_batch). Near the end a block is shorter.
 *   fastsig_state_release() (and the last fastsig_state_close()) gives the
 *   unused tail back, in one more update, only if the file's `next` still
 *   equals the block's end, i.e. nobody reserved beyond it. A crash burns the
 *   reserved rest; burnt indices are never reused.
 *
 * - Background reservation: from a process's second block on, the first
 *   take() of a block asks the handle's worker thread (started then, one per
 *   handle and process) to reserve the next block, durably as above, while
 *   this one is used; take() switches to it when this one is empty and waits
 *   only if the worker is not done. Its errors (disk full, lock, exhausted)
 *   are those of the take() that needs the block, their cause included. So a
 *   process holds up to two blocks: a crash burns both; release() gives
 *   back the untouched one too (one update when they are contiguous). A
 *   batch of 1 reserves nothing ahead (one update per index, as asked). Off
 *   with FASTSIG_STATE_PREFETCH=0 in the environment at open, or
 *   fastsig_state_set_prefetch(). close() ends the worker. A forked child
 *   has no worker (threads do not survive fork) and ignores the parent's
 *   blocks, the one reserved ahead too. The worker never holds the handle's
 *   mutex, so a fork() at any instant of its work leaves a usable handle.
 *
 * - Processes: a block belongs to the pid that reserved it. After fork() the
 *   child ignores the parent's block (and reopens the file, so that its lock
 *   is its own) and reserves afresh; the child never gives back the parent's
 *   block. The new process is noticed however it was made (fork, _Fork,
 *   clone; no atfork handler involved) through a MADV_WIPEONFORK page, so a
 *   take() costs no getpid() system call (getpid() on every call where that
 *   flag is unavailable). fork() while another thread is inside a call on the
 *   same handle is not supported (the handle's mutex would be copied locked).
 *
 * - Replacement: every update locks the file the path names at that moment.
 *   If the path was renamed over (e.g. recreated with FASTSIG_STATE_OVERWRITE
 *   by an operator), the handle follows it (key id checked as always); if the
 *   path is gone, it refuses (STATE_MISSING) rather than go on spending from
 *   an unlinked file.
 *
 * - Rollback: a handle remembers the highest index end it reserved (its
 *   mark; after a give-back, what that wrote). A file read with a `next`
 *   below it (an old copy renamed or written over the file) is refused with
 *   STATE_ROLLED_BACK and poisons the handle: every later call fails the
 *   same way, the block in hand included, and nothing is written. A forked
 *   child keeps the mark, lowered to the parent's block start (the parent
 *   may give its unused indices back). Offline (a state restored alone) the
 *   registry's mark catches it: fastsig_state_use_registry.
 *
 * - Threads: a handle is thread-safe. Copies of a key object in one process
 *   share one handle (fastsig_state_ref), hence one block and one counter.
 *
 * The signing rule built on this: idx = take(); sign with idx; return the
 * signature. fastsig_state_take() returns an index only after it is durably
 * spent; when it fails, nothing is handed out.
 *
 * Errors (fastsig_err.h): FASTSIG_ERR_STATE_MISSING (no such file),
 * STATE_WRONG_KEY (another key's state), STATE_CORRUPT (bad size, slot,
 * checksum or disagreement), STATE_IO (cannot open read-write, lock, read,
 * write or sync; cause->sys_errno is errno of the failing call), STATE_LOCKED
 * (another holder kept the lock past the lock timeout), STATE_NOT_FILE
 * (a FIFO, device, symlink, ... at the path: refused without waiting on it),
 * STATE_UNTRUSTED (the file or its directory is open to other users:
 * fileowner.h), STATE_EXISTS, STATE_ROLLED_BACK (see Rollback),
 * STATE_NO_DIR (creation), STATE_RANGE (a shard's range), KEY_EXHAUSTED (no index left), OTS_USED (the same
 * for a key with max == 1), NULL_ARG / BAD_PARAM / NOMEM.
 *
 * Causes: every call that reads or writes a file takes a last argument
 * `fastsig_cause *cause` (statecause.h; NULL when the caller only wants
 * the code). On failure it holds the code, the path ("state file" or
 * "state directory" when the directory was refused), errno of the system
 * call that failed (0 when none says more) and, for STATE_UNTRUSTED, the
 * reason in words. It is filled where the call fails, errno included, so
 * nothing needs to survive in errno or in thread-local storage. */
#ifndef FASTSIG_STATEFILE_H
#define FASTSIG_STATEFILE_H

#include <stddef.h>
#include <stdint.h>
#include "statecause.h"

#define FASTSIG_STATE_KEY_ID_LEN 32
#define FASTSIG_STATE_DEFAULT_BATCH 64
/* "<64 hex digits>.state" */
#define FASTSIG_STATE_FILE_SUFFIX ".state"

typedef struct fastsig_state fastsig_state;

/* fastsig_state_create flags */
#define FASTSIG_STATE_OVERWRITE 1u /* replace an existing file (dangerous:
                                    * resets the spent count to `next`) */

/* Creates the state file for a key with `max` indices (1..2^63), first free
 * index `next` (0 for a new key; <= max). The file appears atomically
 * (written to a temporary name in the same directory, fsync'd, renamed
 * without replacing, directory fsync'd) with mode 0600. Refuses an existing
 * file (STATE_EXISTS) unless FASTSIG_STATE_OVERWRITE; does not create the
 * directory (STATE_NO_DIR; see fastsig_state_make_dir). */
int fastsig_state_create(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                         uint64_t max, uint64_t next, unsigned flags, fastsig_cause *cause);

/* Opens and validates the state of key `key_id` (read-write, close-on-exec).
 * *out gets a handle with one reference. */
int fastsig_state_open(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                       fastsig_state **out, fastsig_cause *cause);

/* Keeps the high-water mark of this state in the registry under state_dir
 * (the default state directory; statemark.h, doc/state.md section 11) and
 * checks the file against it now: a file whose next is below the mark (a
 * backup restored alone) poisons the handle, STATE_ROLLED_BACK. From then on
 * every reservation raises the mark, every release lowers it first. A
 * missing or unreadable mark is none (no error). Once per handle, right
 * after open, before any take. */
int fastsig_state_use_registry(fastsig_state *st, const char *state_dir, fastsig_cause *cause);

/* 1 when the handle was poisoned by a rollback (STATE_ROLLED_BACK): next is
 * the file's next seen then, mark what it was below; mark_file the
 * registry's mark file when that mark refused it, NULL when it was this
 * handle's own reservations. 0 otherwise (outputs untouched). */
int fastsig_state_rollback(fastsig_state *st, uint64_t *next, uint64_t *mark,
                           const char **mark_file);

/* One more reference to the same handle (for a copied key object). */
fastsig_state *fastsig_state_ref(fastsig_state *st);

/* Drops a reference; the last one releases the unused tail (see
 * fastsig_state_release) and frees the handle. Returns the release's result
 * (the handle is gone either way). NULL is ignored. */
int fastsig_state_close(fastsig_state *st);

/* Sets the largest block fastsig_state_take reserves at once (>= 1). */
int fastsig_state_set_batch(fastsig_state *st, uint64_t batch);

/* Background reservation of the next block on (default, unless
 * FASTSIG_STATE_PREFETCH=0 at open) or off, for this handle. */
int fastsig_state_set_prefetch(fastsig_state *st, int on);

/* Hands out one durably spent index: from this process's block, or after
 * reserving a new block. Thread-safe. On error *idx is untouched. */
int fastsig_state_take(fastsig_state *st, uint64_t *idx, fastsig_cause *cause);

/* The same with `batch` (>= 1; 0: the handle's) as the size of a block this
 * call reserves, for this call only: the handle's batch is left as it is
 * (e.g. a signature context's own block size over a shared key). */
int fastsig_state_take_batch(fastsig_state *st, uint64_t batch, uint64_t *idx,
                             fastsig_cause *cause);

/* Durably spends up to `want` (>= 1) more indices for this process now:
 * [*first, *first + *count), *count <= want (less only near the end). The
 * block is appended to the process's block when it is contiguous with it,
 * else it replaces it (the old remainder is burnt). take() hands them out. */
int fastsig_state_reserve(fastsig_state *st, uint64_t want, uint64_t *first,
                          uint64_t *count, fastsig_cause *cause);

/* Spends [first, first + count) (count >= 1) durably in one update, for a
 * shard (shard.h): first = FASTSIG_STATE_FROM_NEXT takes it from the file's
 * `next`; otherwise it must lie inside the unspent [next, max) and the
 * indices between next and first are burnt. The file's next becomes
 * first + count. STATE_RANGE when the range is not inside [next, max).
 * *got_first gets first. This process's block is left as it is (it lies
 * below the range; it is not given back later since the file moved on). */
#define FASTSIG_STATE_FROM_NEXT UINT64_MAX
int fastsig_state_spend_range(fastsig_state *st, uint64_t first, uint64_t count,
                              uint64_t *got_first, fastsig_cause *cause);

/* Gives back the unused tail of this process's block if nobody reserved
 * beyond it (one durable update), else burns it. The block is empty after. */
int fastsig_state_release(fastsig_state *st, fastsig_cause *cause);

/* Reads the file (shared lock). next: the index take() would return next
 * (this process's block first), remaining: indices this holder can still
 * hand out (unreserved ones plus its own block), max: the key's count. Any
 * output may be NULL. */
int fastsig_state_query(fastsig_state *st, uint64_t *next, uint64_t *remaining,
                        uint64_t *max, fastsig_cause *cause);

/* The same for a file that is only readable (e.g. `openssl pkey -text`):
 * opens read-only, validates against key_id, closes. next is the file's. */
int fastsig_state_peek(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                       uint64_t *next, uint64_t *remaining, uint64_t *max,
                       fastsig_cause *cause);

/* What a state file holds, slot by slot, whether or not it can be trusted:
 * for tools and recovery. */
typedef struct {
    int file_ok;  /* open() would accept it (for its own key id) */
    int valid[2]; /* slot i is well formed on its own */
    uint64_t seq[2], max[2], next[2];
    uint8_t key_id[2][FASTSIG_STATE_KEY_ID_LEN];
} fastsig_state_info;

/* Reads path (shared lock, read-only) into *info. Returns FASTSIG_OK whenever
 * the file could be read, corrupt or not (see info->file_ok); STATE_MISSING,
 * STATE_LOCKED or STATE_IO otherwise. */
int fastsig_state_inspect(const char *path, fastsig_state_info *info, fastsig_cause *cause);

/* A state file's current slot as a monitor sees it, without any lock
 * (stateobserve.c): a signer is never made to wait. The view is one whose
 * two slots agree (key id, max, seqs one apart), read again while an update
 * shows half done; STATE_CORRUPT when none comes (a torn file, or 50 tries
 * each meeting an update), else as fastsig_state_inspect. No key id is
 * checked: view->key_id says whose it is. mtime: the file's last update
 * (reservation, give-back, creation); dev, ino: which file was read. */
typedef struct {
    uint64_t seq, max, next;
    uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN];
    int64_t mtime_sec;
    long mtime_nsec;
    uint64_t dev, ino;
} fastsig_state_view;
int fastsig_state_observe(const char *path, fastsig_state_view *view, fastsig_cause *cause);

/* The default state directory: $FASTSIG_STATE_DIR if set and non-empty, else
 * config_dir if non-NULL and non-empty (e.g. from provider.cnf), else
 * $XDG_STATE_HOME/fastsig if XDG_STATE_HOME is an absolute path, else
 * $HOME/.local/state/fastsig (HOME from the environment, else the password
 * database). Writes it to out; BAD_PARAM if it does not fit or no home
 * directory is known. */
int fastsig_state_default_dir(const char *config_dir, char *out, size_t outlen);

/* <default dir>/<key id as 64 lowercase hex digits>.state */
int fastsig_state_default_path(const char *config_dir,
                               const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN], char *out,
                               size_t outlen);

/* <dir>/<key id as 64 lowercase hex digits>.state (dir may be out). */
int fastsig_state_key_path(const char *dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                           char *out, size_t outlen);

/* The absolute path of an existing directory, every symlink, "." and ".."
 * resolved (realpath): what a key stores, so that it names one file from
 * any working directory. STATE_NO_DIR when it does not exist. */
int fastsig_state_resolve_dir(const char *dir, char *out, size_t outlen, fastsig_cause *cause);

/* How long a lock held by another process (or another handle) is waited
 * for, while the file does not change, before a call gives up with
 * FASTSIG_ERR_STATE_LOCKED: one setting for the whole process,
 * FASTSIG_STATE_LOCK_TIMEOUT_MS by default; 0 tries once. Waiting polls (no
 * signals); a change of the file (others' updates) starts the time again. */
#define FASTSIG_STATE_LOCK_TIMEOUT_MS 5000u
#define FASTSIG_STATE_LOCK_TIMEOUT_MAX_S 86400u
void fastsig_state_set_lock_timeout(unsigned ms);
unsigned fastsig_state_lock_timeout(void);
/* A timeout in seconds as text ("5", "0.25": at most three decimals, at
 * most FASTSIG_STATE_LOCK_TIMEOUT_MAX_S) to milliseconds; BAD_PARAM else. */
int fastsig_state_parse_timeout(const char *text, unsigned *ms);

/* Creates dir and its missing parents with mode 0700 (like mkdir -p);
 * existing directories are left as they are. STATE_IO on failure (errno
 * ENOTDIR in cause->sys_errno where a path component is no directory). */
int fastsig_state_make_dir(const char *dir, fastsig_cause *cause);

#endif
