/* genckpt.c - the checkpoint file of a key generation in pieces (genckpt.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "genckpt.h"
#include "fileio.h"
#include "secmem.h"
#include "stateslot.h" /* fs_state_crc64 */

#define HEAD1 40 /* version 1: XMSS only, no per, seedlen, setlen */
#define HEAD 48
static const uint8_t MAGIC[8] = { 'F', 'S', 'I', 'G', 'C', 'K', 'P', 'T' };

static void put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Bytes of the nodes of done pieces. */
static size_t nodes_len(const fs_resume_plan *p, uint64_t done)
{
    return (size_t)done * p->per * p->n;
}

static size_t image_len(const fs_resume_plan *p, uint64_t done, size_t head)
{
    return head + p->setlen + p->seedlen + nodes_len(p, done) + 8;
}

static int end(fastsig_cause *c, int rc, const char *path)
{
    return fs_cause_end(c, rc, path, "checkpoint file", "checkpoint directory");
}

/* Sizes a file may hold (so that their products cannot overflow). */
static int plan_ok(const fs_resume_plan *p)
{
    return p->n >= 16 && p->n <= 64 && p->per >= 1 && p->per <= FS_GENCKPT_NODES_MAX
           && p->total >= 1 && p->total <= FS_GENCKPT_PIECES_MAX
           && p->total * p->per * p->n <= FS_GENCKPT_NODES_MAX
           && p->seedlen >= p->n && p->seedlen <= FS_GENCKPT_SEED_MAX
           && p->setlen <= FS_RESUME_SET_MAX;
}

/* The header and lengths of an image of len bytes: its head's length
 * (the set and seed follow it), 0 when they do not hold. */
static size_t header_ok(const uint8_t *img, size_t len, fs_genckpt *ck)
{
    fs_resume_plan *p = &ck->plan;
    uint64_t version = len >= HEAD1 ? get(img + 8, 4) : 0;
    size_t head = version == 1 ? HEAD1 : HEAD;
    if (len < head + 8 || memcmp(img, MAGIC, 8) != 0 || (version != 1 && version != 2))
        return 0;
    p->kind = (uint32_t)get(img + 12, 4);
    p->oid = (uint32_t)get(img + 16, 4);
    p->n = (uint32_t)get(img + 20, 4);
    p->total = get(img + 24, 8);
    ck->done = get(img + 32, 8);
    p->per = version == 1 ? 1 : (uint32_t)get(img + 40, 4);
    p->seedlen = version == 1 ? 3 * (size_t)p->n : (size_t)get(img + 44, 2);
    p->setlen = version == 1 ? 0 : (size_t)get(img + 46, 2);
    if (!plan_ok(p) || ck->done > p->total || len != image_len(p, ck->done, head)
        || get(img + len - 8, 8) != fs_state_crc64(img, len - 8))
        return 0;
    memcpy(p->set, img + head, p->setlen);
    return head;
}

int fs_genckpt_load(const char *path, fs_genckpt *ck, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    size_t cap = HEAD + FS_RESUME_SET_MAX + FS_GENCKPT_SEED_MAX + FS_GENCKPT_NODES_MAX + 8 + 1;
    uint8_t *img = fs_secmem_alloc(cap);
    int rc = FASTSIG_ERR_NOMEM, fd;
    size_t head = 0;
    ssize_t len;

    memset(ck, 0, sizeof(*ck));
    if (img == NULL)
        return rc;
    if ((fd = fs_file_open(path, O_RDONLY, 0, c)) < 0) {
        fs_secmem_free(img);
        return end(c, c->code, path);
    }
    len = fs_file_read_all(fd, img, cap, 0);
    rc = len < 0 ? fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path) : FASTSIG_OK;
    close(fd);
    if (rc == FASTSIG_OK && (head = header_ok(img, (size_t)len, ck)) == 0)
        rc = fs_cause_set(c, FASTSIG_ERR_STATE_CORRUPT, path, 0);
    if (rc == FASTSIG_OK && (ck->roots = calloc(1, nodes_len(&ck->plan, ck->plan.total))) == NULL)
        rc = FASTSIG_ERR_NOMEM;
    if (rc == FASTSIG_OK) {
        const uint8_t *seed = img + head + ck->plan.setlen;
        memcpy(ck->seed, seed, ck->plan.seedlen);
        memcpy(ck->roots, seed + ck->plan.seedlen, nodes_len(&ck->plan, ck->done));
    }
    fs_secmem_free(img); /* wiped: it held the seed */
    if (rc != FASTSIG_OK)
        fs_genckpt_free(ck);
    return end(c, rc, path);
}

int fs_genckpt_save(const char *path, const fs_genckpt *ck, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    static unsigned counter; /* atomic: temporary names unique per process */
    const fs_resume_plan *p = &ck->plan;
    size_t len, sl = p->seedlen;
    uint8_t *img;
    char tmp[4200];
    int rc = FASTSIG_OK;

    if (!plan_ok(p) || ck->done > p->total)
        return FASTSIG_ERR_BAD_PARAM;
    len = image_len(p, ck->done, HEAD);
    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%u", path, (long)getpid(),
                         __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED)) >= sizeof(tmp))
        return FASTSIG_ERR_BAD_PARAM;
    if ((img = fs_secmem_alloc(len)) == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(img, MAGIC, 8);
    put(img + 8, 2, 4);
    put(img + 12, p->kind, 4);
    put(img + 16, p->oid, 4);
    put(img + 20, p->n, 4);
    put(img + 24, p->total, 8);
    put(img + 32, ck->done, 8);
    put(img + 40, p->per, 4);
    put(img + 44, sl, 2);
    put(img + 46, p->setlen, 2);
    memcpy(img + HEAD, p->set, p->setlen);
    memcpy(img + HEAD + p->setlen, ck->seed, sl);
    memcpy(img + HEAD + p->setlen + sl, ck->roots, nodes_len(p, ck->done));
    put(img + len - 8, fs_state_crc64(img, len - 8), 8);
    if (fs_file_write_new(tmp, img, len, c) != 0)
        rc = c->code;
    else if (fs_file_install(tmp, path, 1) != 0) {
        rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path);
        unlink(tmp);
    } else if (fs_file_sync_dir_of(path, c) != 0) {
        rc = c->code ? c->code : FASTSIG_ERR_STATE_IO;
    }
    fs_secmem_free(img);
    return end(c, rc, path);
}

int fs_genckpt_plan_same(const fs_resume_plan *a, const fs_resume_plan *b)
{
    return a->kind == b->kind && a->oid == b->oid && a->n == b->n && a->per == b->per
           && a->total == b->total && a->seedlen == b->seedlen && a->setlen == b->setlen
           && memcmp(a->set, b->set, a->setlen) == 0;
}

int fs_genckpt_remove(const char *path, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    int rc = FASTSIG_OK;
    if (unlink(path) != 0 && errno != ENOENT)
        rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path);
    else if (fs_file_sync_dir_of(path, c) != 0)
        rc = c->code ? c->code : FASTSIG_ERR_STATE_IO;
    return end(c, rc, path);
}

void fs_genckpt_free(fs_genckpt *ck)
{
    free(ck->roots);
    explicit_bzero(ck->seed, sizeof(ck->seed));
    ck->roots = NULL;
}
