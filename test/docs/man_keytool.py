#!/usr/bin/env python3
"""man_keytool.py - doc/man/fastsig-keytool.1 against the commands of tools/fastsig-keytool.c.

    man_keytool.py SOURCE_ROOT [FASTSIG_KEYTOOL]

Checks, each a line `ok - ...` or `FAIL - ...`, then `man_keytool: N passed, N failed`:
- every command of the command table in tools/fastsig-keytool.c has a `.Ss COMMAND` subsection
  and a `.Cm COMMAND` in the SYNOPSIS; a command whose source dispatches subcommands
  (`strcmp(sub, "x")`) has a `.Ss COMMAND x` for each;
- every option the command's source parses (`strcmp(a, "-x")`, or a `{ "-x", ...}` row of a
  KT_OPT table; -h / -help aside, under COMMON OPTIONS) is written `Fl x` or `Fl -x` in the
  command's subsections, so that a new option cannot go undocumented;
- every environment variable the tool reads (getenv) or its usage names (`$NAME`, and the
  `environment:` lines of `fastsig-keytool -h`) has an `.It Ev` under ENVIRONMENT;
- with FASTSIG_KEYTOOL (the built binary): `fastsig-keytool -h` exits 0 and lists every command,
  and `fastsig-keytool COMMAND -h` (and `COMMAND SUB -h`) exits 0 printing its usage.
"""
import glob
import os
import re
import subprocess
import sys

from checklist import Checklist

TABLE = re.compile(r'\{\s*"([\w-]+)",\s*(kt_cmd_\w+),\s*"')
OPTION = re.compile(r'strcmp\(a, "(-[\w-]+)"\)|\{\s*"(-[\w-]+)",\s*&')
SUBCOMMAND = re.compile(r'strcmp\(sub, "(\w[\w-]*)"\)')
GETENV = re.compile(r'getenv\("(\w+)"\)')
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
GENERIC = {"-h", "-help"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def commands(root):
    """[(command, source text of the file defining its kt_cmd_ function)] in table order."""
    sources = {p: read(p) for p in glob.glob(os.path.join(root, "tools", "*.c"))}
    out = []
    for name, fn in TABLE.findall(read(os.path.join(root, "tools", "fastsig-keytool.c"))):
        where = [t for t in sources.values() if re.search(rf"^int {fn}\(", t, re.M)]
        out.append((name, fn, where[0] if where else None))
    return out


def sections(page, macro):
    """{title: body} of the page's `.Sh` or `.Ss` sections (a body ends at the next .Sh/.Ss)."""
    out = {}
    parts = re.split(r"^(\.S[hs] .*)$", page, flags=re.M)
    for head, body in zip(parts[1::2], parts[2::2]):
        if head.startswith(macro + " "):
            out[head[len(macro) + 1:].strip()] = body
    return out


def documented(option, text):
    """-x is written `Fl x` or `Fl -x` (a word of its own)."""
    o = re.escape(option[1:])
    return re.search(rf"\bFl -?{o}(?=[\s,.;:)|]|$)", text, re.M) is not None


def env_names(root):
    """The variables the tool reads or its usage texts name."""
    names = set()
    for path in glob.glob(os.path.join(root, "tools", "*keytool*.c")):
        text = read(path)
        names.update(GETENV.findall(text))
        for s in STRING.findall(text):
            names.update(re.findall(r"\$([A-Z][A-Z0-9_]+)", s))
    main = read(os.path.join(root, "tools", "fastsig-keytool.c"))
    env = re.search(r'"environment:(.*?)"exit status', main, re.S)
    if env:
        names.update(re.findall(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b", env.group(1)))
    return names


def run(argv):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout


def main(root, keytool=None):
    page = read(os.path.join(root, "doc", "man", "fastsig-keytool.1"))
    subs = sections(page, ".Ss")
    synopsis = sections(page, ".Sh").get("SYNOPSIS", "")
    envsec = sections(page, ".Sh").get("ENVIRONMENT", "")
    checks = Checklist("man_keytool")
    check = checks.check

    table = commands(root)
    check(len(table) > 0, f"tools/fastsig-keytool.c has a command table ({len(table)} commands)")
    if keytool:
        rc, out = run([keytool, "-h"])
        check(rc == 0, f"fastsig-keytool -h exits 0 (got {rc})")
    for name, fn, src in table:
        mine = {t: b for t, b in subs.items() if t.split()[0] == name}
        check(name in subs, f".Ss {name} in the page")
        check(re.search(rf"^\.Cm {re.escape(name)}$", synopsis, re.M),
              f".Cm {name} in the SYNOPSIS")
        check(src is not None, f"{fn}() is defined in tools/*.c")
        if src is None:
            continue
        text = "\n".join(mine.values())
        for opt in sorted({a or b for a, b in OPTION.findall(src)} - GENERIC):
            check(documented(opt, text), f"{name}: option {opt} is in its .Ss")
        subcommands = sorted(set(SUBCOMMAND.findall(src)))
        for sub in subcommands:
            check(f"{name} {sub}" in subs, f".Ss {name} {sub} in the page")
        if keytool:
            check(re.search(rf"^  {re.escape(name)}\s", out, re.M),
                  f"fastsig-keytool -h lists {name}")
            for argv in [[name]] + [[name, s] for s in subcommands]:
                rc, usage = run([keytool] + argv + ["-h"])
                check(rc == 0 and usage.startswith("usage: fastsig-keytool " + name),
                      f"fastsig-keytool {' '.join(argv)} -h exits 0 with its usage (got {rc})")
    for var in sorted(env_names(root)):
        check(re.search(rf"^\.It Ev .*\b{var}\b", envsec, re.M),
              f"ENVIRONMENT has .It Ev {var}")
    return checks.summary()


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None))
