#!/usr/bin/env python3
"""verify_size.py - code size of libfastsig-verify per scheme subset, as a device links it.

    tools/verify_size.py [CC [FLAGS...]]     default: cc -Os

Compiles the library's sources (the verify_src list of crypto/verify/meson.build, with its
-DFASTSIG_SMALL_STACK) three times: both families, LMS/HSS only (-DFASTSIG_VERIFY_NO_XMSS),
XMSS/XMSS^MT only (-DFASTSIG_VERIFY_NO_LMS); links each into a minimal program (its own
_start calling the one-shot and streaming API, memcpy/memset/memcmp of its own, -nostdlib
-static -Wl,--gc-sections, libgcc) and prints `size`'s text, data and bss of it, and of the
same program without the library (the difference is the library's part). The figures of
doc/performance.md come from this script."""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

START = r"""
#include <stddef.h>
#include <stdint.h>
#include "fastsig/verify.h"
void *memcpy(void *d, const void *s, size_t n) { uint8_t *a = d; const uint8_t *b = s; while (n--) *a++ = *b++; return d; }
void *memset(void *d, int c, size_t n) { uint8_t *a = d; while (n--) *a++ = (uint8_t)c; return d; }
int memcmp(const void *x, const void *y, size_t n) { const uint8_t *a = x, *b = y; for (; n; n--, a++, b++) if (*a != *b) return *a - *b; return 0; }
int raise(int sig);
int raise(int sig) { (void)sig; for (;;); }
volatile const uint8_t *input; volatile size_t inlen; volatile int result;
static void check(int scheme)
{
#ifndef NO_LIBRARY
    const uint8_t *p = (const uint8_t *)input;
    size_t n = inlen;
    fastsig_verify_ctx ctx;
    result = fastsig_verify(scheme, p, n, p, n, p, n);
    if (fastsig_verify_init(&ctx, scheme, p, n, p, n) == 0) {
        fastsig_verify_update(&ctx, p, n);
        result |= fastsig_verify_final(&ctx);
    }
#else
    result = scheme;
#endif
}
void _start(void)
{
#ifndef FASTSIG_VERIFY_NO_XMSS
    check(FASTSIG_VERIFY_XMSS);
    check(FASTSIG_VERIFY_XMSSMT);
#endif
#ifndef FASTSIG_VERIFY_NO_LMS
    check(FASTSIG_VERIFY_HSS);
    check(FASTSIG_VERIFY_LMS);
#endif
    for (;;)
        ;
}
"""


def sources():
    text = open(os.path.join(ROOT, "crypto", "verify", "meson.build")).read()
    block = text[text.index("verify_src = files("):]
    block = block[:block.index(")")]
    return [os.path.normpath(os.path.join(ROOT, "crypto", "verify", f))
            for f in re.findall(r"'([^']+\.c)'", block)]


def build(cc, flags, defines, tmp, tag, with_library=True):
    inc = ["-I" + os.path.join(ROOT, d) for d in ("crypto", "include", "include/fastsig")]
    common = flags + ["-std=gnu11", "-DFASTSIG_SMALL_STACK", "-fno-stack-protector",
                      "-ffunction-sections", "-fdata-sections"] + defines + inc
    objs = []
    if with_library:
        for src in sources():
            obj = os.path.join(tmp, tag + "-" + os.path.basename(src) + ".o")
            subprocess.run(cc + common + ["-c", src, "-o", obj], check=True)
            objs.append(obj)
    start = os.path.join(tmp, "start.c")
    with open(start, "w") as f:
        f.write(START)
    exe = os.path.join(tmp, tag)
    extra = [] if with_library else ["-DNO_LIBRARY"]
    subprocess.run(cc + common + extra + ["-ffreestanding", "-nostdlib", "-static",
                                          "-Wl,--gc-sections", "-o", exe, start] + objs + ["-lgcc"],
                   check=True)
    size = cc[0].replace("gcc", "size") if cc[0].endswith("gcc") else "size"
    out = subprocess.run([size, exe], check=True, capture_output=True, text=True).stdout
    text, data, bss = (int(x) for x in out.splitlines()[1].split()[:3])
    return text, data, bss


def main():
    cc = sys.argv[1:2] or ["cc"]
    flags = sys.argv[2:] or ["-Os"]
    version = subprocess.run(cc + ["-dumpmachine"], capture_output=True, text=True).stdout.strip()
    print("compiler: %s (%s), flags: %s" % (cc[0], version, " ".join(flags)))
    print("| subset | text | data | bss | library's text |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for tag, defines in (("both", []), ("lms-hss", ["-DFASTSIG_VERIFY_NO_XMSS"]),
                             ("xmss", ["-DFASTSIG_VERIFY_NO_LMS"])):
            t, d, b = build(cc, flags, defines, tmp, tag)
            t0, _, _ = build(cc, flags, defines, tmp, tag + "-bare", with_library=False)
            name = {"both": "XMSS, XMSS^MT, LMS, HSS", "lms-hss": "LMS, HSS only",
                    "xmss": "XMSS, XMSS^MT only"}[tag]
            print("| %s | %d | %d | %d | %d |" % (name, t, d, b, t - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
