#!/usr/bin/env python3
"""freestanding.py NM ARCHIVE CC... - libfastsig-verify calls nothing outside itself
but memcpy, memset, memcmp and the compiler's own runtime (libgcc).

1. The archive's undefined symbols, less those its members define, must be among
   memcpy/memset/memcmp and the symbols libgcc.a defines (`CC
   -print-libgcc-file-name`): anything else (malloc, printf, pthread_*,
   explicit_bzero, __stack_chk_fail ...) fails the test, named.
2. A program with its own _start and the three functions, linked with -nostdlib
   -static against the archive and libgcc only, must link.
Prints what it checked and a summary line; exit status 1 on failure."""
import os
import subprocess
import sys
import tempfile

ALLOWED = {"memcpy", "memset", "memcmp"}
# Defined by the linker for position-independent code, not a library call.
LINKER = {"_GLOBAL_OFFSET_TABLE_"}


def symbols(nm, path, defined):
    args = [nm, "--defined-only" if defined else "-u", path]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.endswith(":"):
            names.add(parts[-1])
    return names


PROGRAM = r"""
#include <stddef.h>
#include <stdint.h>
#include "fastsig/verify.h"
void *memcpy(void *d, const void *s, size_t n) { uint8_t *a = d; const uint8_t *b = s; while (n--) *a++ = *b++; return d; }
void *memset(void *d, int c, size_t n) { uint8_t *a = d; while (n--) *a++ = (uint8_t)c; return d; }
int memcmp(const void *x, const void *y, size_t n) { const uint8_t *a = x, *b = y; for (; n; n--, a++, b++) if (*a != *b) return *a - *b; return 0; }
/* Linux's libgcc (32-bit ARM) reports a division by zero with raise(): the
   device supplies it, as it supplies the three above. */
int raise(int sig);
int raise(int sig) { (void)sig; for (;;); }
volatile int result;
void _start(void)
{
    static const uint8_t pk[64], sig[64];
    fastsig_verify_ctx ctx;
    result = fastsig_verify(FASTSIG_VERIFY_HSS, pk, sizeof(pk), pk, 1, sig, sizeof(sig));
    if (fastsig_verify_init(&ctx, FASTSIG_VERIFY_XMSS, pk, sizeof(pk), sig, sizeof(sig)) == 0) {
        fastsig_verify_update(&ctx, pk, 1);
        result |= fastsig_verify_final(&ctx);
    }
    for (;;)
        ;
}
"""


def main():
    nm, archive, include, cc = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    libgcc = subprocess.run(cc + ["-print-libgcc-file-name"], check=True, capture_output=True,
                            text=True).stdout.strip()
    runtime = symbols(nm, libgcc, True) if os.path.exists(libgcc) else set()
    undefined = symbols(nm, archive, False) - symbols(nm, archive, True)
    bad = sorted(undefined - ALLOWED - runtime - LINKER)
    print("libc symbols called:", " ".join(sorted(undefined & ALLOWED)) or "none")
    print("compiler runtime (libgcc):", " ".join(sorted(undefined & runtime)) or "none")
    failures = 0
    if bad:
        failures += 1
        print("FAIL: calls outside memcpy/memset/memcmp and libgcc:", " ".join(bad))
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "start.c"), os.path.join(tmp, "start")
        with open(src, "w") as f:
            f.write(PROGRAM)
        link = cc + ["-O2", "-ffreestanding", "-nostdlib", "-static", "-I", include, "-o", exe,
                     src, archive, "-lgcc"]
        r = subprocess.run(link, capture_output=True, text=True)
        if r.returncode != 0:
            failures += 1
            print("FAIL: -nostdlib link:", " ".join(link))
            print(r.stderr.strip())
        else:
            print("ok: linked with -nostdlib -static, its own memcpy/memset/memcmp and libgcc only")
    print("verify-freestanding: 2 checks, %d passed, %d failed" % (2 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
