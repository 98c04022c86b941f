/* secmem.c - secret key memory out of core dumps (see secmem.h). */
#define _GNU_SOURCE /* MADV_DONTDUMP */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "secmem.h"

/* The mapping's length sits in a header the size of the alignment. */
#define HEADER 64

static size_t page_size(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    return ps > 0 ? (size_t)ps : 4096;
}

void *fs_secmem_alloc(size_t len)
{
    size_t ps = page_size(), total;
    uint8_t *base;

    if (len > SIZE_MAX - HEADER - ps)
        return NULL;
    total = (len + HEADER + ps - 1) / ps * ps;
    base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
    /* before anything secret is written; a kernel without it dumps them */
    (void)madvise(base, total, MADV_DONTDUMP);
    (void)mlock(base, total); /* fails past RLIMIT_MEMLOCK: swap possible then */
    memcpy(base, &total, sizeof(total));
    return base + HEADER; /* fresh anonymous pages are zero */
}

void fs_secmem_free(void *p)
{
    uint8_t *base;
    size_t total;

    if (p == NULL)
        return;
    base = (uint8_t *)p - HEADER;
    memcpy(&total, base, sizeof(total));
    explicit_bzero(base, total);
    (void)munlock(base, total);
    munmap(base, total);
}
