/* secmem.h - memory for secret key material (seeds, PRF keys, RW's primes):
 * pages of their own, marked MADV_DONTDUMP so that a core dump leaves them
 * out, locked in RAM when RLIMIT_MEMLOCK allows (best effort: no swap), and
 * wiped before they are unmapped.
 *
 * Page granular (one mmap per allocation): for key objects and what they
 * keep, made per key or per tree, never per signature. Thread-safe (each
 * allocation is a mapping of its own). */
#ifndef FASTSIG_SECMEM_H
#define FASTSIG_SECMEM_H

#include <stddef.h>

/* len zeroed bytes, 64-byte aligned; NULL when no memory. */
void *fs_secmem_alloc(size_t len);
/* Wipes and unmaps p (from fs_secmem_alloc; NULL: nothing). */
void fs_secmem_free(void *p);

#endif
