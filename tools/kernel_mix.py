#!/usr/bin/env python3
"""kernel_mix.py - each asm kernel's instruction mix, from the code itself.

    kernel_mix.py KERNEL_TRACE --write bench/kernel_mix.c
    kernel_mix.py KERNEL_TRACE --check bench/kernel_mix.c
    kernel_mix.py KERNEL_TRACE --show

KERNEL_TRACE is the built bench/kernel-trace: it single-steps one call of every
asm kernel this CPU runs and prints the addresses executed. This tool maps them
to instructions with `objdump -d` of the same binary, sorts each into a class
(vector ALU, ternlog, rotate, shift, shuffle, move, SHA-NI rounds and message,
load, store (zmm stores apart), scalar; vector classes by width), and follows register dataflow to
find the longest dependency path (with nominal latencies, which only choose the
path: the bench weighs its classes with the latencies it measures; a ternlog on
the path through an operand other than its destination counts as VTERNS, its
slower edge, VTERNR when that operand came from a rotate; VTERNX counts the
ternlogs whose result another ternlog reads through such an operand, the form
Zen 5 runs at half rate). Chain kernels are
traced at 4 and 6 steps and the difference kept (two steps of 16 lanes: what
long calls cost per step); when a kernel carries its chains from step to step
through memory, which the path does not follow, the path of two steps is twice
that of one.

--write makes bench/kernel_mix.c (the table fastsig-bench's bounds use), keeping
the rows of an existing file whose kernels this CPU cannot run;
--check compares that file with the kernels as built, one line `ok - ...` or
`FAIL - ...` per traced row (a row missing from the table fails: new kernel
rows need `--write`), then `kernel_mix: N passed, N failed`. Rows the CPU
cannot run are not traced, so not checked. Memory dependencies are left out of
the path (a lower bound, as a bound should be).
"""
import re
import subprocess
import sys

WIDTHS = ("X", "Y", "Z")
VEC_CLASSES = ("VALU", "VTERN", "VROT", "VSHIFT", "VSHUF", "VMOV")
CLASSES = [f"{c}_{w}" for c in VEC_CLASSES for w in WIDTHS] + [
    "SHA_RNDS", "SHA_MSG", "LOAD", "STORE", "SCALAR"] + [f"VTERNS_{w}" for w in WIDTHS] + [
    f"VTERNR_{w}" for w in WIDTHS] + [f"VTERNX_{w}" for w in WIDTHS] + ["STORE_Z", "INSN"]
# Nominal latencies (cycles), only to choose the critical path.
NOMINAL = {"VALU": (1, 1, 2), "VTERN": (1, 1, 2), "VTERNS": (2, 2, 3), "VTERNR": (2, 2, 4),
           "VROT": (1, 1, 2), "VSHIFT": (1, 1, 2), "VSHUF": (1, 2, 3), "VMOV": (0, 0, 0)}
NOMINAL_OTHER = {"SHA_RNDS": 4, "SHA_MSG": 2, "LOAD": 0, "STORE": 0, "STORE_Z": 0, "SCALAR": 1,
                 "INSN": 0}

PREFIXES = ("cs", "ds", "ss", "es", "data16", "addr32", "rex", "rex.W", "notrack", "bnd", "lock",
            "rep", "repz", "repnz")
VEC_REG = re.compile(r"%([xyz])mm(\d+)")
GPR = re.compile(r"%(r\d+|[re]?[abcd]x|[abcd]l|[re]?[sd]il?|[re]?[sb]pl?|[re]?ip)\b")
# Legacy SSE forms that write their destination without reading it.
NO_READ_DEST = re.compile(
    r"^(v?mov|lea|pshuf[dlh]|vpshuf[dlh]|set|cmov|pop|vpbroadcast|vbroadcast)")


def vec_class(m):
    """The class of a vector mnemonic (the 'v' prefix dropped), or None."""
    base = m[1:] if m.startswith("v") else m
    if base.startswith("sha256rnds2"):
        return "SHA_RNDS"
    if base.startswith("sha256msg"):
        return "SHA_MSG"
    if base.startswith("pternlog"):
        return "VTERN"
    if re.match(r"pro[rl]v?[dq]$", base):
        return "VROT"
    if re.match(r"ps[rl]lv?[wdq]$|psrav?[wdq]$|ps[rl]ldq$", base):
        return "VSHIFT"
    if re.match(r"mov|zero", base):
        return "VMOV"
    if re.match(r"pshuf|palignr|align[dq]|shuf|punpck|perm|insert|extract|broadcast|pbroadcast"
                r"|pinsr|pextr|pblend|blend|unpck|pack", base):
        return "VSHUF"
    if re.match(r"p(add|sub|xor|and|or|andn|cmp|min|max|mul)", base):
        return "VALU"
    return None


def canon_gpr(name):
    """rax, eax, ax, al -> rax; r8d -> r8."""
    m = re.match(r"r(\d+)", name)
    if m:
        return "r" + m.group(1)
    core = name.lstrip("re")
    core = {"al": "ax", "bl": "bx", "cl": "cx", "dl": "dx", "sil": "si", "dil": "di",
            "spl": "sp", "bpl": "bp"}.get(core, core)
    return "r" + core


def split_operands(ops):
    """Operands of AT&T text, commas inside parentheses kept."""
    out, depth, cur = [], 0, ""
    for ch in ops:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def regs_of(op):
    """The registers an operand names (vector as v<N>, GPRs canonical)."""
    r = ["v" + m.group(2) for m in VEC_REG.finditer(op)]
    r += [canon_gpr(m.group(1)) for m in GPR.finditer(op)]
    return r


def decode(mnemonic, operands):
    """(classes counted, sources, destinations, path class) of one instruction."""
    ops = split_operands(operands)
    widths = [w.upper() for w, _ in VEC_REG.findall(operands)]
    width = max(widths, key="XYZ".index) if widths else None
    mem = [i for i, o in enumerate(ops) if "(" in o and not mnemonic.startswith(("lea", "nop"))]
    if mnemonic.startswith("nop"):
        ops = []  # a nop's operand is padding: it reads nothing
    is_store = bool(ops) and (len(ops) - 1) in mem
    is_load = any(i != len(ops) - 1 for i in mem) or (mnemonic.startswith(("pop", "ret")))
    cls = vec_class(mnemonic) if width or mnemonic.startswith("sha") else None
    if width and cls is None:
        raise ValueError(f"no class for vector instruction `{mnemonic} {operands}`: "
                         "add it to vec_class() in tools/kernel_mix.py")
    if cls in ("SHA_RNDS", "SHA_MSG"):
        pass
    elif cls is not None:
        cls = f"{cls}_{width}"
    counted = []
    if is_load:
        counted.append("LOAD")
    if is_store:  # zmm stores apart: Zen 5 stores 2 xmm or ymm a cycle, 1 zmm
        counted.append("STORE_Z" if width == "Z" else "STORE")
    pure_move = cls is not None and (cls.startswith("VMOV") or (
        cls.startswith("VSHUF") and "broadcast" in mnemonic))
    if cls is not None and not ((is_load or is_store) and pure_move):
        counted.append(cls)
    elif cls is None and not (is_load or is_store) or mnemonic.startswith(("push", "pop")):
        counted.append("SCALAR")
    # dataflow: AT&T puts the destination last
    srcs, dsts = [], []
    for i, o in enumerate(ops):
        if i in mem:
            srcs += regs_of(o.split("(", 1)[1])  # address registers
        elif i != len(ops) - 1 or len(ops) == 1:
            srcs += regs_of(o)
    if ops and (len(ops) - 1) not in mem:
        dsts = regs_of(ops[-1].split("{")[0])
        reads_dest = (not mnemonic.startswith("v") and len(ops) >= 2
                      and not NO_READ_DEST.match(mnemonic)) or re.match(
                          r"vpternlog|vperm[ti]2|vpdpbusd|vpmadd52", mnemonic) or (
                          "{%k" in ops[-1] and "{z}" not in ops[-1])
        if reads_dest:
            srcs += dsts
    if mnemonic.startswith("sha256rnds2"):
        srcs.append("v0")
    path_cls = cls if cls is not None and not (is_load and pure_move) else (
        "LOAD" if is_load else "SCALAR")
    return counted, srcs, dsts, path_cls


def nominal(c):
    if c in NOMINAL_OTHER:
        return NOMINAL_OTHER[c]
    base, w = c.rsplit("_", 1)
    return NOMINAL[base][WIDTHS.index(w)]


def disassemble(binary):
    """{address: (mnemonic, operands, symbol)} of the binary's text."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], check=True,
                          capture_output=True, text=True).stdout
    out, sym = {}, None
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            sym = m.group(1)
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            mnemonic, ops = m.group(2), m.group(3).split("#")[0].split("<")[0].strip()
            while mnemonic in PREFIXES and ops:  # "cs nopw 0x0(%rax)": the nop
                mnemonic, _, ops = ops.partition(" ")
                ops = ops.strip()
            out[int(m.group(1), 16)] = (mnemonic, ops, sym)
    return out


def analyse(addrs, code):
    """(counts, path composition) of one traced call."""
    counts = dict.fromkeys(CLASSES, 0)
    ready = {}  # register -> (time, composition, the class that wrote it)
    tern_writer = {}  # register -> width of the ternlog that last wrote it, until counted
    longest = (0, {})
    for a in addrs:
        mnemonic, operands, sym = code[a]
        if sym.startswith("trace_"):
            continue
        counted, srcs, dsts, pc = decode(mnemonic, operands)
        counts["INSN"] += 1
        for c in counted:
            counts[c] += 1
        t, comp, pcs = 0, {}, pc
        for src in srcs:  # the latest input, with the latency of its edge
            via = pc
            st, sc, producer = ready.get(src, (0, {}, None))
            if pc.startswith("VTERN_") and src not in dsts:
                if src in tern_writer:  # that ternlog is cross-fed: counted once
                    counts["VTERNX_" + tern_writer.pop(src)] += 1
                # ternlog: slower from its other operands, more so after a rotate
                after_rot = producer is not None and producer.startswith("VROT")
                via = ("VTERNR_" if after_rot else "VTERNS_") + pc[-1]
            if st + nominal(via) > t:
                t, comp, pcs = st + nominal(via), sc, via
        if not srcs:
            t = nominal(pc)
        comp = dict(comp)
        comp[pcs] = comp.get(pcs, 0) + 1
        for d in dsts:
            ready[d] = (t, comp, pc)
            if pc.startswith("VTERN_"):
                tern_writer[d] = pc[-1]
            else:
                tern_writer.pop(d, None)
        if t > longest[0]:
            longest = (t, comp)
    path = dict.fromkeys(CLASSES, 0)
    path.update(longest[1])
    return counts, path


def read_traces(tracer, code):
    """[(table, row, units, counts, path)], chain rows as the 3-step minus the 1-step call."""
    text = subprocess.run([tracer], check=True, capture_output=True, text=True).stdout
    rows, cur, pending = [], None, {}
    for line in text.splitlines():
        if line.startswith("trace "):
            _, table, row, units, steps = line.split()
            cur = (table, row, int(units), int(steps), [])
        elif line == "end":
            table, row, units, steps, addrs = cur
            counts, path = analyse(addrs, code)
            if table.endswith("chain"):
                if row not in pending:
                    pending[row] = (units, counts, path)
                    continue
                u1, c1, p1 = pending.pop(row)
                units -= u1
                counts = {c: counts[c] - c1[c] for c in CLASSES}
                diff = {c: path[c] - p1[c] for c in CLASSES}
                # steps chained through memory: the register path restarts
                # each step, and the two steps are still one after the other
                carried = min(diff.values()) >= 0 and max(diff.values()) > 0
                path = diff if carried else {c: 2 * p1[c] for c in CLASSES}
            rows.append((table, row, units, counts, path))
        else:
            cur[4].append(int(line, 16))
    return rows


def c_row(table, row, units, counts, path):
    def init(d):
        items = [f"[MIX_{c}] = {d[c]}" for c in CLASSES if d[c]]
        return "{ " + ", ".join(items) + " }"
    return (f'    {{ "{table}", "{row}", {units},\n      {init(counts)},\n'
            f"      {init(path)} }},\n")


def kept_rows(path, traced):
    """The rows of an existing table whose kernels this CPU does not run (so
    were not traced here): a table written on a CPU without AVX-512 keeps
    the AVX-512 rows."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return []
    row = r'(    \{ "([^"]+)", "([^"]+)", \d+,\n      \{[^}]*\},\n      \{[^}]*\} \},\n)'
    rows = re.findall(row, text)
    return [r[0] for r in rows if (r[1], r[2]) not in traced]


HEADER = """/* kernel_mix.c - GENERATED by tools/kernel_mix.py from a single-stepped
 * call of each asm kernel (bench/kernel-trace): per row, the instructions of
 * one call by class, and the classes on its longest dependency path. The
 * kernel_mix test fails when this file and the kernels disagree; regenerate:
 *   tools/kernel_mix.py build/bench/kernel-trace --write bench/kernel_mix.c */
#include <stddef.h>
#include "kernel_mix.h"

const bench_mix bench_mixes[] = {
"""


# The classifier on instructions of the kernels, and what it must give.
DECODE_CASES = [
    ("vpaddd", "0x40(%rsp),%zmm1,%zmm2", ["LOAD", "VALU_Z"], ["rsp", "v1"], ["v2"]),
    ("vpternlogd", "$0x96,%zmm3,%zmm4,%zmm5", ["VTERN_Z"], ["v3", "v4", "v5"], ["v5"]),
    ("vprord", "$0x6,%ymm1,%ymm7", ["VROT_Y"], ["v1"], ["v7"]),
    ("paddd", "%xmm1,%xmm2", ["VALU_X"], ["v1", "v2"], ["v2"]),
    ("pshufd", "$0x1b,%xmm1,%xmm2", ["VSHUF_X"], ["v1"], ["v2"]),
    ("sha256rnds2", "%xmm0,%xmm1,%xmm2", ["SHA_RNDS"], ["v0", "v1", "v2", "v0"], ["v2"]),
    ("vmovdqu64", "(%rdi,%rax,1),%zmm3", ["LOAD"], ["rdi", "rax"], ["v3"]),
    ("vmovdqa32", "%zmm3,0x80(%rsp)", ["STORE_Z"], ["v3", "rsp"], []),
    ("movdqu", "%xmm3,0x10(%rdi)", ["STORE"], ["v3", "rdi"], []),
    ("vmovdqa64", "%zmm3,%zmm4", ["VMOV_Z"], ["v3"], ["v4"]),
    ("vpbroadcastd", "(%rax),%zmm1", ["LOAD"], ["rax"], ["v1"]),
    ("add", "$0x40,%rdi", ["SCALAR"], ["rdi"], ["rdi"]),
    ("nopw", "0x0(%rax,%rax,1)", ["SCALAR"], [], []),
]


T1 = ("vpternlogq", "$0x96,%zmm3,%zmm4,%zmm1")  # zmm1 = f(zmm1, zmm4, zmm3)
# (name, instructions, VTERNX count): a ternlog is cross-fed when a later one
# reads its result through an operand other than its destination, once.
CROSS_FED_CASES = [
    ("read through the destination only", [T1, ("vpternlogq", "$0x96,%zmm3,%zmm4,%zmm1")], 0),
    ("read through another operand", [T1, ("vpternlogq", "$0x96,%zmm1,%zmm4,%zmm2")], 1),
    ("read twice, counted once", [T1, ("vpternlogq", "$0x96,%zmm1,%zmm4,%zmm2"),
                                  ("vpternlogq", "$0xd2,%zmm5,%zmm1,%zmm6")], 1),
    ("read by an xor", [T1, ("vpxorq", "%zmm1,%zmm4,%zmm2")], 0),
    ("overwritten first", [T1, ("vpxorq", "%zmm3,%zmm4,%zmm1"),
                           ("vpternlogq", "$0x96,%zmm1,%zmm4,%zmm2")], 0),
]


def derivations(table, row, units, counts, path):
    """The counts the algorithm fixes, per unit: (what, holds) pairs.
    SHA-256 with SHA-NI: 64 rounds, two per sha256rnds2 -> 32. SHA-256 on
    rotates: BSIG0, BSIG1 3 each in 64 rounds, SSIG0, SSIG1 2 each in 48 ->
    576 per block; SHA-512 the same in 80 and 64 rounds -> 736. Keccak-f: 24
    rounds of 5 theta and 24 rho rotates -> 696 per permutation (a Keccak
    rotate may be two shifts and an or: the x8 row moves some rho rotates to
    the shift pipes; Keccak has no other shifts). Rotate counts are checked
    on the rows that rotate with vprord/vprorq, per register holding a word
    of its lanes (SHA-256 avx512-x32 and SHA-512 avx512-x16, two states
    interleaved: two)."""
    out = []
    if table == "sha256" and counts["SHA_RNDS"]:
        out.append(("32 sha256rnds2 per lane-block", counts["SHA_RNDS"] == 32 * units))
    rot = sum(counts[f"VROT_{w}"] for w in WIDTHS)
    if table == "keccak" and rot:
        rot += sum(counts[f"VSHIFT_{w}"] for w in WIDTHS) // 2
    per = {"sha256": 576, "sha512": 736, "keccak": 696}.get(table)
    calls = 1 if table == "keccak" else 2  # kernel-trace: 2 blocks, 1 permutation
    if rot and per:  # a word of all lanes is one register, or (two states) several
        width = max(WIDTHS, key=lambda w: counts[f"VROT_{w}"])
        per_reg = {"X": 128, "Y": 256, "Z": 512}[width] // (32 if table == "sha256" else 64)
        regs = max(1, units // calls // per_reg)
        out.append((f"{per} rotates per block or permutation per register of lanes",
                    rot == per * calls * regs))
    return out


def selftest():
    """The decode cases, then the traced table's counts against the algorithms'."""
    failed = 0
    for m, ops, counted, srcs, dsts in DECODE_CASES:
        got = decode(m, ops)
        ok = (sorted(got[0]), sorted(got[1]), got[2]) == (sorted(counted), sorted(srcs), dsts)
        failed += not ok
        print(f"{'ok' if ok else 'FAIL'} - {m} {ops}: {got[0]} from {got[1]} to {got[2]}")
    try:
        decode("vfoo", "%zmm1,%zmm2")
        failed += 1
        print("FAIL - an unknown vector instruction was classified")
    except ValueError:
        print("ok - an unknown vector instruction is refused")
    for name, seq, want in CROSS_FED_CASES:
        code = {i: (m, ops, "k") for i, (m, ops) in enumerate(seq)}
        got = analyse(range(len(seq)), code)[0]["VTERNX_Z"]
        failed += got != want
        print(f"{'ok' if got == want else 'FAIL'} - {name}: {got} cross-fed ternlogs, {want} expected")
    total = len(DECODE_CASES) + 1 + len(CROSS_FED_CASES)
    print(f"kernel_mix selftest: {total - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--selftest":
        return selftest()
    if len(argv) < 3 or argv[2] not in ("--write", "--check", "--show"):
        sys.stderr.write(__doc__)
        return 2
    code = disassemble(argv[1])
    rows = read_traces(argv[1], code)
    if argv[2] == "--show":
        for table, row, units, counts, path in rows:
            print(table, row, units, {c: v for c, v in counts.items() if v},
                  "path", {c: v for c, v in path.items() if v})
        return 0
    if argv[2] == "--write":
        kept = kept_rows(argv[3], {(r[0], r[1]) for r in rows})
        with open(argv[3], "w") as f:
            f.write(HEADER + "".join(c_row(*r) for r in rows) + "".join(kept)
                    + "    { NULL },\n};\n")
        print(f"kernel_mix: wrote {len(rows)} rows to {argv[3]}, kept {len(kept)} not traced here")
        return 0
    with open(argv[3]) as f:
        table_text = f.read()
    passed = failed = 0
    for r in rows:
        if c_row(*r) in table_text:
            passed += 1
            print(f"ok - {r[0]} {r[1]}: {argv[3]} holds its mix")
        else:
            failed += 1
            print(f"FAIL - {r[0]} {r[1]}: {argv[3]} does not hold the mix of the kernel as built"
                  f" (run tools/kernel_mix.py {argv[1]} --write {argv[3]}); as built:\n"
                  + c_row(*r).rstrip())
    for r in rows:
        for what, ok in derivations(*r):
            passed += ok
            failed += not ok
            print(f"{'ok' if ok else 'FAIL'} - {r[0]} {r[1]}: {what}")
    print(f"kernel_mix: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
