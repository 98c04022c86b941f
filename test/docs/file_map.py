#!/usr/bin/env python3
"""file_map.py - doc/design.md's map of the code against the tree, so that it cannot drift.

    file_map.py SOURCE_ROOT

Checks, each a line `ok - ...` or `FAIL - ...`, then `file_map: N passed, N failed`:
- the diagram of section 1 names every folder of crypto/ (`hash/`, `lms/`, ...);
- section 2 (the file map) names every source file of provider/, crypto/, asm/ and tools/ (by its
  file name: `xmss.c`, `hash_internal.h`, `sha256_ni.S`, `bench_ab.py`); a header whose .c of the
  same name is named counts as named (it states that file's contract); meson.build files are the
  build's;
- every file name section 2 gives (`*.c`, `*.h`, `*.S`, `*.py`, `*.sh`) exists in the tree;
- section 2's `**`folder/`**` headings and table rows name folders that exist.
"""
import os
import re
import sys

from checklist import Checklist

SOURCE_DIRS = ("provider", "crypto", "asm", "tools")
SOURCE_EXT = (".c", ".h", ".S", ".py")
NAME = re.compile(r"[A-Za-z0-9_.\-]+\.(?:c|h|S|py|sh)\b")


def sections(text):
    """{number: body} of the '## N. Title' sections."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"## (\d+)\. ", line)
        if m:
            cur = int(m.group(1))
            out[cur] = []
        elif line.startswith("## "):
            cur = None
        elif cur is not None:
            out[cur].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def tree_files(root, dirs):
    """{file name: [relative paths]} under dirs, build folders and hidden ones left out."""
    found = {}
    for d in dirs:
        for base, subdirs, files in os.walk(os.path.join(root, d)):
            subdirs[:] = [s for s in subdirs if not s.startswith((".", "build"))]
            for f in files:
                found.setdefault(f, []).append(os.path.relpath(os.path.join(base, f), root))
    return found


def main(root):
    text = open(os.path.join(root, "doc", "design.md"), encoding="utf-8").read()
    secs = sections(text)
    checks = Checklist("file_map")
    check = checks.check

    diagram = secs.get(1, "")
    check("```" in diagram, "section 1 has its diagram")
    crypto_dirs = sorted(d for d in os.listdir(os.path.join(root, "crypto"))
                         if os.path.isdir(os.path.join(root, "crypto", d)))
    for d in crypto_dirs:
        check(re.search(r"(^|\s)" + re.escape(d) + r"/", diagram) is not None,
              f"the diagram of section 1 names crypto/{d}/")

    fmap = secs.get(2, "")
    check(len(fmap) > 0, "section 2 (the file map) is there")
    named = set(NAME.findall(fmap))
    sources = tree_files(root, SOURCE_DIRS)
    for name in sorted(sources):
        if not name.endswith(SOURCE_EXT):
            continue
        for path in sorted(sources[name]):
            # a header states the contract of the .c of its name: naming the .c names both
            twin = path[:-2] + ".c" if path.endswith(".h") else None
            covered = name in named or (twin is not None and os.path.exists(os.path.join(root, twin))
                                        and os.path.basename(twin) in named)
            check(covered, f"the file map names {path}")
    everything = tree_files(root, ("provider", "crypto", "asm", "tools", "test", "bench",
                                   "include", "scripts", "examples"))
    for name in sorted(named):
        check(name in everything, f"{name}, named by the file map, exists")
    for folder in sorted(set(re.findall(r"\*\*`([A-Za-z0-9_/]+)/`\*\*", fmap))
                         | set(re.findall(r"^\| `([a-z0-9_]+)/` \|", fmap, re.M))):
        candidates = [folder, os.path.join("crypto", folder), os.path.join("test", folder)]
        check(any(os.path.isdir(os.path.join(root, c)) for c in candidates),
              f"folder {folder}/ of the file map exists")

    return checks.summary()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
