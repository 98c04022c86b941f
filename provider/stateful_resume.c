/* stateful_resume.c - a key generation in pieces with a checkpoint file
 * (`-pkeyopt resume:PATH`; stateful_key.h: STATEFUL_RESUME; the file:
 * crypto/state/genckpt.h; the pieces: keygen_resume.h), one code for XMSS,
 * XMSS^MT and HSS. A set whose top tree is taller than 10 builds it in
 * pieces of 2^10 leaves or more, in order; the checkpoint keeps the seed
 * and the nodes the finished pieces left (XMSS: subtree roots; HSS: the
 * tree's kept node row), rewritten at most every FASTSIG_CHECKPOINT_INTERVAL
 * seconds (default 10: one fsync'd write of at most 64 KB for XMSS, 1 MB
 * for HSS, nothing against a build of minutes), so that a generation
 * killed after an hour resumes instead of starting over. It holds the seed, i.e. the private key:
 * mode 0600, refused when open to other users (as a state file), removed
 * when the generation succeeds, kept when it fails (run it again). */
#define _GNU_SOURCE /* secure_getenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/crypto.h>
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

/* The core's save: the nodes so far, when the interval has passed (also
 * after the last piece: what is left, an HSS key's lower levels, may take
 * as long; a generation that ends first removes the file anyway). */
static int save(void *arg, const uint8_t *roots, uint64_t done, uint64_t total)
{
    STATEFUL_RESUME *rs = arg;
    fs_genckpt ck = rs->ck;
    double t = now();
    (void)total;
    if (t - rs->last < rs->interval)
        return 0;
    ck.roots = (uint8_t *)roots;
    ck.done = done;
    rs->last = t;
    rs->err = fs_genckpt_save(rs->path, &ck, &rs->cause);
    return rs->err != FASTSIG_OK; /* a checkpoint asked for and not kept: stop */
}

/* Before the outputs are checked: o->resume's file, if it exists, gives
 * the seed (plan.seedlen bytes). */
static int resume_load(STATEFUL_RESUME *rs, const FSP_GENOPTS *o,
                         int (*plan_of)(const void *core, fs_resume_plan *plan),
                         const void *core, uint8_t *seed)
{
    const char *iv = secure_getenv("FASTSIG_CHECKPOINT_INTERVAL");
    fs_resume_plan plan;
    char *end = NULL;
    int err;

    memset(rs, 0, sizeof(*rs));
    if (o->resume == NULL)
        return FASTSIG_OK;
    rs->path = o->resume;
    rs->interval = iv != NULL ? strtod(iv, &end) : DEFAULT_INTERVAL;
    if (iv != NULL && (end == iv || *end != '\0' || rs->interval < 0))
        rs->interval = DEFAULT_INTERVAL;
    if (plan_of(core, &plan) != FASTSIG_OK) {
        why(o->detail, FASTSIG_ERR_UNSUPPORTED, rs->path, NULL, "resume is for sets whose top "
            "tree is taller than 10 (XMSS H16, H20; XMSS^MT 40/2, 60/3; LMS and HSS with a top "
            "level of H15, H20, H25): this one is built in one piece");
        return FASTSIG_ERR_UNSUPPORTED;
    }
    err = fs_genckpt_load(rs->path, &rs->ck, &rs->cause);
    if (err == FASTSIG_ERR_STATE_MISSING) { /* a new generation: begin makes the file */
        fs_genckpt_free(&rs->ck);
        rs->ck = (fs_genckpt){ .plan = plan };
        memcpy(rs->ck.seed, seed, plan.seedlen);
        return FASTSIG_OK;
    }
    if (err == FASTSIG_OK && !fs_genckpt_plan_same(&rs->ck.plan, &plan))
        err = FASTSIG_ERR_BAD_PARAM, why(o->detail, err, rs->path, NULL,
                                          "a checkpoint of another parameter set");
    else if (err == FASTSIG_OK && o->seed != NULL && memcmp(rs->ck.seed, seed, plan.seedlen) != 0)
        err = FASTSIG_ERR_BAD_PARAM, why(o->detail, err, rs->path, NULL,
                                          "holds another seed than the seed: option");
    else if (err != FASTSIG_OK)
        why(o->detail, err, rs->path, &rs->cause, err == FASTSIG_ERR_STATE_CORRUPT
            ? "not a whole checkpoint (damaged, or not one)" : NULL);
    if (err != FASTSIG_OK) {
        fs_genckpt_free(&rs->ck);
        return err;
    }
    memcpy(seed, rs->ck.seed, plan.seedlen); /* the generation it began goes on */
    rs->loaded = 1;
    return FASTSIG_OK;
}

/* After the checks: the file made (a new generation), the core's resume
 * (NULL: none, or *err). */
static const fs_keygen_resume *resume_begin(STATEFUL_RESUME *rs, STATEFUL_PROGRESS *pg, int *err,
                                            FSP_ERRDETAIL *d)
{
    *err = FASTSIG_OK;
    if (rs->path == NULL)
        return NULL;
    if (!rs->loaded && (*err = fs_genckpt_save(rs->path, &rs->ck, &rs->cause)) != FASTSIG_OK) {
        why(d, *err, rs->path, &rs->cause, NULL);
        return NULL;
    }
    rs->r = (fs_keygen_resume){ rs->ck.roots, rs->ck.done, save, rs };
    rs->last = now();
    if (rs->loaded) {
        pg->resumed = rs->ck.done;
        pg->pieces = rs->ck.plan.total;
    }
    if (rs->loaded && pg->detail)
        fprintf(stderr, "fastsig: %s key: resumed from %s: %llu of %llu pieces done\n", pg->name,
                rs->path, (unsigned long long)rs->ck.done, (unsigned long long)rs->ck.plan.total);
    return &rs->r;
}

/* The generation's end (err its result, returned, or a failed save's): the
 * file removed on success, kept otherwise. */
static int resume_end(STATEFUL_RESUME *rs, int err, FSP_ERRDETAIL *d)
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

int stateful_gen_resumable(STATEFUL_KEY *x, const FSP_GENOPTS *o, uint8_t *seed, size_t seedlen,
                           int (*plan_of)(const void *core, fs_resume_plan *plan),
                           stateful_keygen_fn keygen, void **key)
{
    STATEFUL_PROGRESS pg;
    STATEFUL_RESUME rs;
    const fs_keygen_resume *r;
    int err;

    if ((err = resume_load(&rs, o, plan_of, x->core, seed)) != FASTSIG_OK) {
        OPENSSL_cleanse(seed, seedlen);
        stateful_free(x);
        return err;
    }
    stateful_progress_init(&pg, o, x->ops->name(x->core));
    /* a bad output or a seed some key has is refused before the trees are built */
    if ((err = stateful_gen_check(x, o, seed, seedlen)) == FASTSIG_OK
        && ((r = resume_begin(&rs, &pg, &err, o->detail)) != NULL || err == FASTSIG_OK)) {
        err = keygen(x->core, seed, seedlen, o->threads ? o->threads : stateful_default_threads(),
                     stateful_progress, &pg, r);
        stateful_progress_end(&pg, err);
    }
    OPENSSL_cleanse(seed, seedlen);
    err = stateful_gen_done(x, err, o, key);
    return resume_end(&rs, err, o->detail);
}
