/* dumpscan.c - copies of a secret in dumpable memory (see dumpscan.h). */
#define _GNU_SOURCE /* memmem, MADV_DONTDUMP */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "dumpscan.h"

#define MAX_MAPS 16384
#define CHUNK (1u << 20)

typedef struct {
    uintptr_t lo, hi;
    int readable, dd;
    unsigned long kb; /* resident or swapped: 0 = nothing there to read */
} mapping;

/* A sanitizer's shadow (terabytes, marked dd) is not read: the secrets the
 * tests look for in dd memory sit in secmem.h pages, a page or a few. */
#define MAX_DD_SCAN ((uintptr_t)256 << 20)

static mapping maps[MAX_MAPS];

/* The mappings now, read before any is scanned (scanning maps no memory). */
static int read_maps(size_t *n)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512], perms[8];
    unsigned long lo, hi, kb;

    *n = 0;
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && *n < MAX_MAPS) {
            maps[*n] = (mapping){ lo, hi, perms[0] == 'r', 0, 0 };
            (*n)++;
        } else if (*n > 0 && (sscanf(line, "Rss: %lu kB", &kb) == 1
                              || sscanf(line, "Swap: %lu kB", &kb) == 1)) {
            maps[*n - 1].kb += kb;
        } else if (strncmp(line, "VmFlags:", 8) == 0 && *n > 0) {
            maps[*n - 1].dd = strstr(line, " dd") != NULL;
        }
    }
    fclose(f);
    return *n > 0 && *n < MAX_MAPS;
}

int mapping_is_dontdump(const void *addr)
{
    size_t n;
    if (!read_maps(&n))
        return -1;
    for (size_t i = 0; i < n; i++)
        if ((uintptr_t)addr >= maps[i].lo && (uintptr_t)addr < maps[i].hi)
            return maps[i].dd;
    return -1;
}

/* Copies of pat in [lo, hi), read in chunks that overlap by len - 1. */
static size_t count_in(int fd, uint8_t *buf, uintptr_t lo, uintptr_t hi, const void *pat,
                       size_t len)
{
    size_t found = 0;
    for (uintptr_t at = lo; at < hi;) {
        size_t want = hi - at < CHUNK ? hi - at : CHUNK;
        ssize_t got = pread(fd, buf, want, (off_t)at);
        if (got <= 0) { /* not readable here (a guard, an I/O mapping) */
            at += want;
            continue;
        }
        for (uint8_t *p = buf, *end = buf + got; (p = memmem(p, (size_t)(end - p), pat, len)) != NULL; p++)
            found++;
        explicit_bzero(buf, (size_t)got);
        at += (size_t)got > len ? (size_t)got - len + 1 : (size_t)got;
    }
    return found;
}

size_t dumpable_copies(const void *pat, size_t len, size_t *dd)
{
    size_t n, out = 0, in_dd = 0;
    int fd = open("/proc/self/mem", O_RDONLY);
    uint8_t *buf = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (fd < 0 || buf == MAP_FAILED || len < 16 || !read_maps(&n)) {
        if (fd >= 0)
            close(fd);
        if (buf != MAP_FAILED)
            munmap(buf, CHUNK);
        return (size_t)-1;
    }
    uintptr_t b0 = (uintptr_t)buf, b1 = b0 + CHUNK;
    for (size_t i = 0; i < n; i++) {
        if (!maps[i].readable || maps[i].kb == 0
            || (maps[i].dd && maps[i].hi - maps[i].lo > MAX_DD_SCAN))
            continue;
        size_t c; /* the buffer's own pages left out (merged with a neighbour or not) */
        if (maps[i].lo <= b0 && b1 <= maps[i].hi)
            c = count_in(fd, buf, maps[i].lo, b0, pat, len)
                + count_in(fd, buf, b1, maps[i].hi, pat, len);
        else
            c = count_in(fd, buf, maps[i].lo, maps[i].hi, pat, len);
        if (maps[i].dd)
            in_dd += c;
        else
            out += c;
    }
    close(fd);
    munmap(buf, CHUNK);
    if (dd != NULL)
        *dd = in_dd;
    return out;
}

void assert_undumped(const char *what, const void *secret, size_t len, size_t least)
{
    size_t dd = 0, out = dumpable_copies(secret, len, &dd);
    CU_ASSERT_EQUAL(out, 0);
    CU_ASSERT(dd >= least);
    if (out != 0 || dd < least)
        fprintf(stderr, "    %s: %zu dumpable copies, %zu not dumped (want >= %zu)\n", what, out,
                dd, least);
}

void known_bytes(void *out, size_t len, uint64_t x)
{
    uint8_t *o = out;
    for (size_t i = 0; i < len; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        o[i] = (uint8_t)(z ^ (z >> 31));
    }
}
