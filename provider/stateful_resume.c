/* stateful_resume.c - an XMSS / XMSS^MT key generation in pieces with a
 * checkpoint file (`-pkeyopt resume:PATH`; stateful_key.h: STATEFUL_RESUME;
 * the file: crypto/state/genckpt.h; the pieces: xmss_keygen_resume). A set
 * whose top tree is taller than a bottom subtree builds it as 2^(t - 10)
 * subtrees one after another; the checkpoint keeps the seed and the roots
 * of the finished ones, rewritten at most every FASTSIG_CHECKPOINT_INTERVAL
 * seconds (default 10: one fsync'd write of at most 64 KB, nothing against
 * a build of minutes), so that a generation killed after an hour resumes
 * instead of starting over. It holds the seed, i.e. the private key:
 * mode 0600, refused when open to other users (as a state file), removed
 * when the generation succeeds, kept when it fails (run it again). */
#define _GNU_SOURCE /* secure_getenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "prov.h"
#include "stateful_key.h"
#include "fastsig_err.h"

#define DEFAULT_INTERVAL 10.0

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void why(FSP_ERRDETAIL *d, int err, const char *path, const fastsig_cause *c,
                const char *text)
{
    if (err == FASTSIG_ERR_STATE_UNTRUSTED && c != NULL) {
        fsp_detail_untrusted(d, c, "checkpoint file", "checkpoint directory");
        return;
    }
    fsp_detail_file(d, err, "checkpoint file", c != NULL && c->path[0] ? c->path : path,
                    c != NULL ? c->sys_errno : 0, text);
}

/* The core's save: the roots so far, when the interval has passed. */
static int save(void *arg, const uint8_t *roots, uint64_t done, uint64_t total)
{
    STATEFUL_RESUME *rs = arg;
    fs_genckpt ck = rs->ck;
    double t = now();
    if (t - rs->last < rs->interval && done < total)
        return 0;
    ck.roots = (uint8_t *)roots;
    ck.done = done;
    rs->last = t;
    rs->err = fs_genckpt_save(rs->path, &ck, &rs->cause);
    return rs->err != FASTSIG_OK; /* a checkpoint asked for and not kept: stop */
}

int stateful_resume_load(STATEFUL_RESUME *rs, const FSP_GENOPTS *o, const xmss_params *p,
                         uint8_t *seed)
{
    const char *iv = secure_getenv("FASTSIG_CHECKPOINT_INTERVAL");
    size_t sl = 3 * (size_t)p->n;
    char *end = NULL;
    int err;

    memset(rs, 0, sizeof(*rs));
    if (o->resume == NULL)
        return FASTSIG_OK;
    rs->path = o->resume;
    rs->interval = iv != NULL ? strtod(iv, &end) : DEFAULT_INTERVAL;
    if (iv != NULL && (end == iv || *end != '\0' || rs->interval < 0))
        rs->interval = DEFAULT_INTERVAL;
    if ((rs->ck.total = xmss_keygen_pieces(p)) == 0) {
        why(o->detail, FASTSIG_ERR_UNSUPPORTED, rs->path, NULL, "resume is for sets whose top tree "
            "is taller than 10 (XMSS H16, H20; XMSS^MT 40/2, 60/3): this one is built in one piece");
        return FASTSIG_ERR_UNSUPPORTED;
    }
    err = fs_genckpt_load(rs->path, &rs->ck, &rs->cause);
    if (err == FASTSIG_ERR_STATE_MISSING) { /* a new generation: begin makes the file */
        fs_genckpt_free(&rs->ck);
        rs->ck = (fs_genckpt){ .kind = p->kind, .oid = p->oid, .n = p->n,
                               .total = xmss_keygen_pieces(p) };
        memcpy(rs->ck.seed, seed, sl);
        return FASTSIG_OK;
    }
    if (err == FASTSIG_OK && (rs->ck.kind != p->kind || rs->ck.oid != p->oid
                              || rs->ck.total != xmss_keygen_pieces(p)))
        err = FASTSIG_ERR_BAD_PARAM, why(o->detail, err, rs->path, NULL,
                                          "a checkpoint of another parameter set");
    else if (err == FASTSIG_OK && o->seed != NULL && memcmp(rs->ck.seed, seed, sl) != 0)
        err = FASTSIG_ERR_BAD_PARAM, why(o->detail, err, rs->path, NULL,
                                          "holds another seed than the seed: option");
    else if (err != FASTSIG_OK)
        why(o->detail, err, rs->path, &rs->cause, err == FASTSIG_ERR_STATE_CORRUPT
            ? "not a whole checkpoint (damaged, or not one)" : NULL);
    if (err != FASTSIG_OK) {
        fs_genckpt_free(&rs->ck);
        return err;
    }
    memcpy(seed, rs->ck.seed, sl); /* the generation it began goes on */
    rs->loaded = 1;
    return FASTSIG_OK;
}

const xmss_resume *stateful_resume_begin(STATEFUL_RESUME *rs, STATEFUL_PROGRESS *pg, int *err,
                                         FSP_ERRDETAIL *d)
{
    *err = FASTSIG_OK;
    if (rs->path == NULL)
        return NULL;
    if (!rs->loaded && (*err = fs_genckpt_save(rs->path, &rs->ck, &rs->cause)) != FASTSIG_OK) {
        why(d, *err, rs->path, &rs->cause, NULL);
        return NULL;
    }
    rs->r = (xmss_resume){ rs->ck.roots, rs->ck.done, save, rs };
    rs->last = now();
    if (rs->loaded && pg->detail)
        fprintf(stderr, "fastsig: %s key: resumed from %s: %llu of %llu pieces done\n", pg->name,
                rs->path, (unsigned long long)rs->ck.done, (unsigned long long)rs->ck.total);
    return &rs->r;
}

int stateful_resume_end(STATEFUL_RESUME *rs, int err, FSP_ERRDETAIL *d)
{
    if (rs->path != NULL && err == FASTSIG_ERR_INTERNAL && rs->err != FASTSIG_OK) {
        why(d, rs->err, rs->path, &rs->cause, NULL); /* a save failed: that is the error */
        err = rs->err;
    }
    if (rs->path != NULL && err == FASTSIG_OK && fs_genckpt_remove(rs->path, NULL) != FASTSIG_OK)
        fprintf(stderr, "fastsig: warning: checkpoint file %s could not be removed: it holds"
                        " the key's seed, remove it\n", rs->path);
    fs_genckpt_free(&rs->ck);
    return err;
}
