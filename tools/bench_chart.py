#!/usr/bin/python3
"""bench_chart.py - the README's speed chart from `fastsig-bench --json` output.

    build/bench/fastsig-bench --json > bench.json
    tools/bench_chart.py bench.json doc/bench.svg [--png /tmp/bench.png]

Draws the headline rows (HEADLINES below) as "x times OpenSSL's built-in",
each ratio taken from one bench row: fastsig and its OpenSSL baseline were
timed in the same process, interleaved, so the ratio holds across machines
and load better than either time alone. A headline row that the input lacks
is an error (a chart that silently lost a bar would mislead); --partial
draws what is there. Needs matplotlib from Debian's python3-matplotlib, hence
the shebang /usr/bin/python3 (a pyenv or venv python3 first on PATH lacks
it). The SVG is deterministic: fixed hash salt, no date, so an unchanged
input gives an unchanged file.
"""
import argparse
import json
import sys

# (op, variant, baseline, label): the rows the README quotes.
HEADLINES = [
    ("tz-digest", "64KiB", "SHA-256", "TZ digest, 64 KiB (throughput) vs SHA-256"),
    ("wots-verify", "WOTSP-SHA2_256 W16", "Ed25519", "WOTS+ W16 SHA-256 verify vs Ed25519"),
    ("xmss-sign", "XMSS-SHA2_10_256 b64", "Ed25519", "XMSS-SHA2_10_256 sign vs Ed25519"),
    ("xmss-verify", "XMSS-SHA2_10_256", "Ed25519", "XMSS-SHA2_10_256 verify vs Ed25519"),
    ("xmssmt-verify", "XMSSMT-SHA2_20/4_256", "Ed25519", "XMSS^MT-SHA2_20/4_256 verify vs Ed25519"),
    ("rw-sign", "RW-2048", "RSA-2048", "RW-2048 sign vs RSA-2048"),
    ("rw-sign", "RW-3072", "RSA-3072", "RW-3072 sign vs RSA-3072"),
    ("rw-verify-compact", "RW-2048", "RSA-2048", "RW-2048 verify vs RSA-2048"),
    ("rw-verify-expanded", "RW-2048", "RSA-2048", "RW-2048 verify, expanded vs RSA-2048"),
    ("rw-verify-exp-prob", "RW-2048", "RSA-2048", "RW-2048 verify, probabilistic vs RSA-2048"),
]


def read_rows(path):
    rows = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("{"):
                continue  # progress or a header line
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{n}: not a JSON row: {e}")
            rows[(r["op"], r["variant"], r["baseline"])] = r
    return rows


def pick(rows, partial):
    bars, missing = [], []
    for op, variant, base, label in HEADLINES:
        r = rows.get((op, variant, base))
        if r is None:
            missing.append(f"{op} {variant} (baseline {base})")
        else:
            bars.append((label, float(r["speedup"])))
    if missing and not partial:
        sys.exit("bench_chart.py: rows missing from the input (--partial to draw the rest):\n  "
                 + "\n  ".join(missing))
    if not bars:
        sys.exit("bench_chart.py: no headline row in the input")
    return bars


def draw(bars, svg, png):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "fastsig-bench-chart"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small, searchable
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    labels = [b[0] for b in reversed(bars)]
    ratios = [b[1] for b in reversed(bars)]
    fig, ax = plt.subplots(figsize=(8, 0.42 * len(bars) + 1.2))
    colors = ["#2b7bba" if r >= 1 else "#c0504d" for r in ratios]
    # bars grow from 1x (parity) so that slower rows point left on the log axis
    ax.barh(labels, [r - 1 for r in ratios], left=1, color=colors, height=0.6)
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
    for y, r in enumerate(ratios):
        text = f"{r:.2f}x" if r < 10 else f"{r:.0f}x"
        if r >= 1:
            ax.text(r * 1.06, y, text, va="center", ha="left", fontsize=9)
        else:
            ax.text(r / 1.06, y, text, va="center", ha="right", fontsize=9)
    ax.set_xlim(min(0.5, min(ratios) / 2), max(2.0, max(ratios) * 2.5))
    ax.set_xlabel("fastsig's speed relative to OpenSSL's built-in, same run\n"
                  "(log scale; right of 1x: fastsig faster)")
    ax.tick_params(axis="y", labelsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(svg, format="svg", metadata={"Date": None})
    if png:
        fig.savefig(png, format="png", dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", help="fastsig-bench --json output")
    ap.add_argument("svg", help="the SVG to write")
    ap.add_argument("--png", help="also write a PNG (to look at the chart)")
    ap.add_argument("--partial", action="store_true", help="skip headline rows the input lacks")
    a = ap.parse_args()
    draw(pick(read_rows(a.json), a.partial), a.svg, a.png)


if __name__ == "__main__":
    main()
