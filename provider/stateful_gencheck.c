/* stateful_gencheck.c - a stateful key generation's outputs checked before
 * its trees are built (stateful_key.h: stateful_gen_check): the state
 * file's directory (exists, a directory, takes new files, not open to
 * other users), no file at the state path, and the default state
 * directory's registry (made, writable), so that a bad path is refused at once instead of after
 * minutes of tree building (XMSS-SHA2_16_256 built 16.7 s before it was
 * told its state directory was missing). The registry claim and the state
 * creation after the build still decide: these checks only fail early.
 * The node cache's path is not checked: its write is best effort
 * (doc/state.md section 5; a FIFO or directory there leaves the key with
 * `node cache: not written`, and the key signs). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "prov.h"
#include "stateful_key.h"
#include "state/shard.h" /* fastsig_state_dir_writable, fastsig_state_dir_of */
#include "state/fileowner.h"
#include "state/registry.h"
#include "fastsig_err.h"

/* dir takes new files and is not open to other users; what names it in a
 * refusal ("state directory", "registry directory"), or file when given:
 * the state file that cannot be made in it, as the creation would say
 * (`state file PATH: No such file or directory`). */
static int dir_usable(const char *dir, const char *what, const char *file, FSP_ERRDETAIL *d)
{
    fastsig_cause cause = { 0 };
    struct stat sb;
    int err = fastsig_state_dir_writable(dir, &cause), fd;

    if (err != FASTSIG_OK && file != NULL)
        fsp_detail_state(d, err, file, cause.sys_errno);
    else if (err != FASTSIG_OK)
        fsp_detail_file(d, err, what, dir, cause.sys_errno, NULL);
    if (err != FASTSIG_OK)
        return err;
    if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return FASTSIG_OK; /* writable yet not readable: the creation says */
    if (fstat(fd, &sb) == 0 && fs_owner_check(&sb, dir, 1, &cause) != 0) {
        close(fd);
        cause.code = FASTSIG_ERR_STATE_UNTRUSTED;
        fsp_detail_untrusted(d, &cause, what, what);
        return FASTSIG_ERR_STATE_UNTRUSTED;
    }
    close(fd);
    return FASTSIG_OK;
}

/* An explicit state path (absolute, or from the working directory, as
 * stateful_state_new takes it): its directory and the file. */
static int state_path_free(const char *opt, char path_out[4096], int *exists,
                           FSP_ERRDETAIL *d)
{
    char path[4096], dir[4096];
    struct stat sb;
    int err;

    if (opt[0] == '/') {
        if (strlen(opt) >= sizeof(path))
            return FASTSIG_ERR_BAD_PARAM;
        strcpy(path, opt);
    } else if (getcwd(dir, sizeof(dir)) == NULL
               || (size_t)snprintf(path, sizeof(path), "%s/%s", dir, opt) >= sizeof(path)) {
        return FASTSIG_ERR_BAD_PARAM;
    }
    if (fastsig_state_dir_of(path, dir, sizeof(dir)) != FASTSIG_OK)
        return FASTSIG_ERR_BAD_PARAM;
    if ((err = dir_usable(dir, "state directory", path, d)) != FASTSIG_OK)
        return err;
    *exists = lstat(path, &sb) == 0;
    strcpy(path_out, path);
    return FASTSIG_OK;
}

/* The default state directory (made if missing) and its registry/: a
 * directory that takes the key's entries. */
static int registry_usable(char *def, size_t len, FSP_ERRDETAIL *d)
{
    char reg[4200];
    struct stat sb;
    int err = stateful_default_state_dir(def, len, d);

    if (err != FASTSIG_OK)
        return err;
    snprintf(reg, sizeof(reg), "%s/%s", def, FASTSIG_REGISTRY_SUBDIR);
    if (lstat(reg, &sb) != 0) /* made at the claim, in def */
        return dir_usable(def, "state directory", NULL, d);
    if (!S_ISDIR(sb.st_mode)) {
        fsp_detail_file(d, FASTSIG_ERR_STATE_NOT_FILE, "registry directory", reg, ENOTDIR, NULL);
        return FASTSIG_ERR_STATE_NOT_FILE;
    }
    return dir_usable(reg, "registry directory", NULL, d);
}

int stateful_gen_check(STATEFUL_KEY *x, const FSP_GENOPTS *o, const uint8_t *seed,
                       size_t seedlen)
{
    char def[4096], path[4096];
    int exists = 0, regen = 0, err = registry_usable(def, sizeof(def), o->detail);

    if (err == FASTSIG_OK)
        err = o->state != NULL && o->state[0] != '\0'
              ? state_path_free(o->state, path, &exists, o->detail)
              : dir_usable(def, "state directory", NULL, o->detail);
    if (err == FASTSIG_OK)
        err = stateful_seed_check(x, seed, seedlen, o->state, &regen, o->detail);
    /* a file at the path: refused now, unless it may be this same key's
     * registered state (stateful_regen.c decides once the key id is known) */
    if (err == FASTSIG_OK && exists && !regen)
        err = stateful_regen_exists_at(path, o->detail);
    return err;
}
