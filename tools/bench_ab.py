#!/usr/bin/env python3
"""bench_ab.py - A/B of two fastsig builds, interleaved in one run.

    tools/bench_ab.py BUILD_A BUILD_B [--pairs N] [--filter S] [--quick] [--json-out F]
                      [--save-b F] [--env-a VAR=VALUE ...] [--env-b VAR=VALUE ...]

Runs BUILD_A/bench/fastsig-bench --json and BUILD_B/bench/fastsig-bench --json
alternately (A B A B ...; each with FASTSIG_MODULE_DIR set to its own build),
N pairs, and prints per row: A's and B's best time over the pairs, B/A, and the
median over pairs of B's speedup against its same-run OpenSSL baseline divided by
A's (a ratio that a machine whose clock moves with its load leaves alone).
Times: rows in MB/s are turned into time per byte; every other unit is a time.
A row is flagged SLOWER when B is more than --tolerance (default 3%) slower on
both measures. Rows with a tail (fastsig-bench's series rows: p50/p99/max
fields) also print B/A of the median over the pairs of p99 and of max (not
flagged: a tail moves with the machine's load more than a mean). The engine's rows
("sha256-many 64B x32 avx512-x32") are matched by lane count, whatever kernel each
run's plan named. --save-b keeps B's last run as fastsig-bench --json printed it
(input for tools/bench_chart.py). --env-a / --env-b set environment variables
for one side only: one build against itself with a switch, e.g.
    tools/bench_ab.py build build --env-a FASTSIG_STATE_PREFETCH=0 --filter sign
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys


def run(build, args, extra_env):
    env = dict(os.environ, FASTSIG_MODULE_DIR=os.path.abspath(build))
    env.update(v.split("=", 1) for v in extra_env)
    cmd = [os.path.join(build, "bench", "fastsig-bench"), "--json"] + args
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    rows = {"_raw": out}
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            r = json.loads(line)
            rows[row_key(r)] = r
    return rows


def row_key(r):
    """A row's key. The engine's rows name the kernel its plan chose ("x32
    avx512-x32", "SHA2 n=32 avx512-x16"), which the calibration may change
    from run to run or build to build: their key drops it ("x32 (engine)")."""
    m = re.fullmatch(r"(.+) (?:portable|shani|avx2|avx512)-x\d+\S*", r["variant"])
    return (r["op"], f"{m.group(1)} (engine)" if m else r["variant"])


def cost(r):
    """Lower is better: time per unit of work."""
    return 1.0 / r["value"] if r["unit"] == "MB/s" else r["value"]


def tail_ratio(runs, k, field):
    """B/A of the median over the runs of a tail field, None without one."""
    if not all(field in r[k] for r in runs["a"] + runs["b"]):
        return None
    a = statistics.median(r[k][field] for r in runs["a"])
    b = statistics.median(r[k][field] for r in runs["b"])
    return b / a if a > 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--filter")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--json-out")
    ap.add_argument("--save-b")
    ap.add_argument("--env-a", action="append", default=[], metavar="VAR=VALUE")
    ap.add_argument("--env-b", action="append", default=[], metavar="VAR=VALUE")
    o = ap.parse_args()
    args = (["--filter", o.filter] if o.filter else []) + (["--quick"] if o.quick else [])
    runs = {"a": [], "b": []}
    for i in range(o.pairs):
        for side in ("a", "b"):
            print(f"pair {i + 1}/{o.pairs}: {side.upper()}", file=sys.stderr, flush=True)
            runs[side].append(run(getattr(o, side), args, getattr(o, "env_" + side)))
    if o.save_b:
        with open(o.save_b, "w") as f:
            f.write(runs["b"][-1]["_raw"])
    keys = [k for k in runs["a"][0] if k != "_raw" and all(k in r for r in runs["a"] + runs["b"])]
    slower = 0
    result = []
    print(f"{'op':22} {'variant':26} {'A best':>11} {'B best':>11} {'B/A time':>9} {'B/A vs base':>11}"
          f" {'B/A p99':>8} {'B/A max':>8}")
    for k in keys:
        ta = min(cost(r[k]) for r in runs["a"])
        tb = min(cost(r[k]) for r in runs["b"])
        rel = statistics.median(rb[k]["speedup"] / ra[k]["speedup"]
                                for ra, rb in zip(runs["a"], runs["b"]))
        time_ratio = tb / ta
        flag = time_ratio > 1 + o.tolerance and 1 / rel > 1 + o.tolerance
        slower += flag
        unit = runs["a"][0][k]["unit"]
        va = min(runs["a"], key=lambda r: cost(r[k]))[k]["value"]
        vb = min(runs["b"], key=lambda r: cost(r[k]))[k]["value"]
        tails = {f: tail_ratio(runs, k, f) for f in ("p99", "max")}
        shown = "".join(f" {t:8.3f}" if t else f" {'-':>8}" for t in tails.values())
        print(f"{k[0]:22} {k[1]:26} {va:9.4g}{unit:>2} {vb:9.4g}{unit:>2} {time_ratio:9.3f} "
              f"{1 / rel:11.3f}{shown}{'  SLOWER' if flag else ''}")
        row = {"op": k[0], "variant": k[1], "unit": unit, "a": va, "b": vb,
               "time_ratio": time_ratio, "speedup_ratio": rel}
        row.update({f"{f}_ratio": t for f, t in tails.items() if t})
        result.append(row)
    print(f"{len(keys)} rows, {slower} slower by more than {o.tolerance:.0%} on both measures")
    if o.json_out:
        with open(o.json_out, "w") as f:
            json.dump(result, f, indent=1)
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
