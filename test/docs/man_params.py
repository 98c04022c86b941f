#!/usr/bin/env python3
"""man_params.py - the parameter names of the manual pages against <fastsig/provider.h>.

    man_params.py SOURCE_ROOT [CORE_NAMES_H]

Checks, each a line `ok - ...` or `FAIL - ...`, then `man_params: N passed, N failed`:
- every parameter a page of doc/man/ gives with its macro, `.It Qo NAME Qc Po Dv MACRO Pc`, names
  a macro that include/fastsig/provider.h (FASTSIG_*) or OpenSSL's core_names.h (OSSL_*, when
  given) defines as "NAME": a renamed parameter or a wrong macro fails;
- every parameter name provider.h defines (FASTSIG_*_PARAM_*) is written in some page of
  doc/man/ (quoted, or as a command-line word), so that a new parameter cannot go undocumented;
- every name the C examples pass to OSSL_PARAM_construct_*() is one that provider.h or
  core_names.h defines (a misspelt one would be ignored by the provider, not refused).
"""
import os
import re
import sys

from checklist import Checklist

ITEM = re.compile(r"^\.It Qo (\S+) Qc Po Dv (\S+) Pc", re.M)
CONSTRUCT = re.compile(r'OSSL_PARAM_construct_\w+\(\s*"([^"]+)"')
DEFINE = re.compile(r'^#\s*define\s+(\w+)\s+("[^"]*"|\w+)', re.M)


def defines(path):
    """{macro: string} of the string macros of a header, aliases (#define A B) followed."""
    with open(path, encoding="utf-8") as f:
        raw = dict(DEFINE.findall(f.read()))
    out = {}
    for macro, value in raw.items():
        for _ in range(8):
            if value.startswith('"') or value not in raw:
                break
            value = raw[value]
        if value.startswith('"'):
            out[macro] = value[1:-1]
    return out


def pages(root):
    """{file name: text} of the manual pages of doc/man."""
    d = os.path.join(root, "doc", "man")
    out = {}
    for name in sorted(os.listdir(d)):
        if re.search(r"\.[1-9]$", name):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                out[name] = f.read()
    return out


def written(name, text):
    """The name appears as a parameter: "name", Qo name Qc, Qq name, Cm name (optionally name:)."""
    n = re.escape(name)
    return re.search(rf'("{n}"|Qo {n} Qc|Qq {n}\b|Cm {n}(\s|$| :| ,))', text, re.M) is not None


def main(root, core_names=None):
    known = defines(os.path.join(root, "include", "fastsig", "provider.h"))
    ours = {m: v for m, v in known.items() if re.match(r"FASTSIG_\w*PARAM_", m)}
    if core_names:
        known.update({m: v for m, v in defines(core_names).items() if m.startswith("OSSL_")})
    checks = Checklist("man_params")
    check = checks.check

    texts = pages(root)
    for page, text in texts.items():
        for name, macro in ITEM.findall(text):
            if macro.startswith("OSSL_") and not core_names:
                continue
            check(known.get(macro) == name,
                  f'{page}: "{name}" is {macro}' + ("" if known.get(macro) == name else
                  f" (that macro is {known.get(macro)!r})"))
        if core_names:
            for name in CONSTRUCT.findall(text):
                check(name in known.values(), f'{page}: its example\'s parameter "{name}" is defined')
    everything = "\n".join(texts.values())
    for macro, name in sorted(ours.items()):
        check(written(name, everything), f'{macro} ("{name}") is documented in doc/man')
    return checks.summary()


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None))
