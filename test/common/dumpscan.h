/* dumpscan.h - where copies of a secret sit in this process's memory: in
 * mappings a core dump would hold, or in those marked MADV_DONTDUMP (the
 * `dd` VmFlag of /proc/self/smaps). Reads through /proc/self/mem, so that
 * mappings that cannot be read are skipped, not faulted on. */
#ifndef FASTSIG_DUMPSCAN_H
#define FASTSIG_DUMPSCAN_H

#include <stddef.h>
#include <stdint.h>

/* Copies of pat (len bytes, len >= 16) in readable mappings without `dd`
 * (returned) and with it (*dd, when dd != NULL); (size_t)-1 when smaps or
 * mem cannot be read. The scanner's own buffer is not counted. */
size_t dumpable_copies(const void *pat, size_t len, size_t *dd);
/* Whether the mapping holding addr has the `dd` VmFlag (-1: not found). */
int mapping_is_dontdump(const void *addr);
/* Asserts no dumpable copy of secret[0..len) and at least `least` in dd
 * mappings (the test's own, the key's), saying what failed. */
void assert_undumped(const char *what, const void *secret, size_t len, size_t least);
/* len bytes of a fixed sequence (splitmix64 from x) written straight into
 * out: a known secret with no other copy (no table, no stack buffer). */
void known_bytes(void *out, size_t len, uint64_t x);

#endif
