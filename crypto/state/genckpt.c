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

#define HEAD 40
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

static size_t image_len(uint32_t n, uint64_t done)
{
    return HEAD + 3 * (size_t)n + (size_t)done * n + 8;
}

static int end(fastsig_cause *c, int rc, const char *path)
{
    return fs_cause_end(c, rc, path, "checkpoint file", "checkpoint directory");
}

/* The header and lengths of an image of len bytes: 1 when they hold. */
static int header_ok(const uint8_t *img, size_t len, fs_genckpt *ck)
{
    if (len < HEAD + 8 || memcmp(img, MAGIC, 8) != 0 || get(img + 8, 4) != 1)
        return 0;
    ck->kind = (uint32_t)get(img + 12, 4);
    ck->oid = (uint32_t)get(img + 16, 4);
    ck->n = (uint32_t)get(img + 20, 4);
    ck->total = get(img + 24, 8);
    ck->done = get(img + 32, 8);
    return ck->n >= 16 && 3 * ck->n <= FS_GENCKPT_SEED_MAX && ck->total >= 1
           && ck->total <= FS_GENCKPT_PIECES_MAX && ck->done <= ck->total
           && len == image_len(ck->n, ck->done)
           && get(img + len - 8, 8) == fs_state_crc64(img, len - 8);
}

int fs_genckpt_load(const char *path, fs_genckpt *ck, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    size_t cap = image_len(64, FS_GENCKPT_PIECES_MAX) + 1;
    uint8_t *img = fs_secmem_alloc(cap);
    int rc = FASTSIG_ERR_NOMEM, fd;
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
    if (rc == FASTSIG_OK && !header_ok(img, (size_t)len, ck))
        rc = fs_cause_set(c, FASTSIG_ERR_STATE_CORRUPT, path, 0);
    if (rc == FASTSIG_OK && (ck->roots = calloc(ck->total, ck->n)) == NULL)
        rc = FASTSIG_ERR_NOMEM;
    if (rc == FASTSIG_OK) {
        memcpy(ck->seed, img + HEAD, 3 * (size_t)ck->n);
        memcpy(ck->roots, img + HEAD + 3 * (size_t)ck->n, (size_t)ck->done * ck->n);
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
    size_t len = image_len(ck->n, ck->done), sl = 3 * (size_t)ck->n;
    uint8_t *img;
    char tmp[4200];
    int rc = FASTSIG_OK;

    if (sl > FS_GENCKPT_SEED_MAX || ck->done > ck->total || ck->total > FS_GENCKPT_PIECES_MAX)
        return FASTSIG_ERR_BAD_PARAM;
    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%u", path, (long)getpid(),
                         __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED)) >= sizeof(tmp))
        return FASTSIG_ERR_BAD_PARAM;
    if ((img = fs_secmem_alloc(len)) == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(img, MAGIC, 8);
    put(img + 8, 1, 4);
    put(img + 12, ck->kind, 4);
    put(img + 16, ck->oid, 4);
    put(img + 20, ck->n, 4);
    put(img + 24, ck->total, 8);
    put(img + 32, ck->done, 8);
    memcpy(img + HEAD, ck->seed, sl);
    memcpy(img + HEAD + sl, ck->roots, (size_t)ck->done * ck->n);
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
