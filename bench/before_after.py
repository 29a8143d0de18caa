"""Two builds side by side on the figures a change must not make worse: `explain` on the
CSPLib, Boats 10x10 and Boats 15x15 sets (bench/explain.py, 3 runs each) and
`battleship generate` at 30x20 with the paper's fleet, seeds 1, 2 and 5 (the setter's clue
shrink), the two builds' runs interleaved so that the machine's drift falls on both.

    python3 bench/before_after.py --before /tmp/before-target/release/quandary \\
        --after target/release/quandary [--runs 3] [--out DIR] [--sets csplib,boats10] [--seeds 1,2]

Writes a markdown table on standard output (and the explain tables of each build to DIR).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SETS = ["csplib", "boats10", "boats15"]
SEEDS = [1, 2, 5]
FLEET = "23 29 12 9 7"


def explain_set(binary, name, runs):
    """bench/explain.py's table for one set on one build, and its median of medians."""
    env = dict(os.environ, QUANDARY_BIN=binary)
    out = subprocess.run([sys.executable, os.path.join(HERE, "explain.py"), "--set", name,
                          "--runs", str(runs), "--no-build"],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    m = re.search(r"median of the medians: ([0-9.]+) s", out)
    return out, float(m.group(1)) if m else float("nan")


def generate(binary, seed):
    started = time.monotonic()
    r = subprocess.run([binary, "battleship", "generate", "--rows", "30", "--cols", "20",
                        "--fleet", FLEET, "--seed", str(seed), "--json",
                        "--time-limit", "600"], cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - started
    clues = re.search(r'"clues":\s*(\d+)', r.stdout)
    return seconds, clues.group(1) if clues else "?"


def spread(xs):
    return f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", help="a directory for each build's explain tables")
    ap.add_argument("--sets", default=",".join(SETS), help="explain sets (comma-separated; empty: none)")
    ap.add_argument("--seeds", default=",".join(map(str, SEEDS)), help="generate seeds (empty: none)")
    args = ap.parse_args()
    builds = [("before", args.before), ("after", args.after)]
    print("| figure | before: min / median / max | after: min / median / max | after / before (medians) |")
    print("|---|---|---|---:|")
    for name in filter(None, args.sets.split(",")):
        medians = {}
        for label, binary in builds:
            table, medians[label] = explain_set(binary, name, args.runs)
            if args.out:
                with open(os.path.join(args.out, f"{name}-{label}.md"), "w") as f:
                    f.write(table)
        print(f"| explain {name}: median of the instances' medians | {medians['before']:.2f} s | "
              f"{medians['after']:.2f} s | {medians['after'] / medians['before']:.2f} |", flush=True)
    for seed in [int(x) for x in filter(None, args.seeds.split(","))]:
        times = {"before": [], "after": []}
        kept = {}
        for _ in range(args.runs):
            for label, binary in builds:
                t, k = generate(binary, seed)
                times[label].append(t)
                kept.setdefault(label, set()).add(k)
        ratio = statistics.median(times["after"]) / statistics.median(times["before"])
        print(f"| generate 30x20 seed {seed} (clues kept {'/'.join(sorted(kept['before']))} vs "
              f"{'/'.join(sorted(kept['after']))}) | {spread(times['before'])} s | "
              f"{spread(times['after'])} s | {ratio:.2f} |", flush=True)


if __name__ == "__main__":
    main()
