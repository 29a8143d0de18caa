"""Battleship's setter loop: unique, forced and redundant on every puzzle of a set, and
generate of minimal 30×20 puzzles, each timed as a whole process, several runs.

    python3 bench/setter.py [--runs 3] [--limit 60] [--baseline OLD_BINARY]
    python3 bench/setter.py --generate 11..20 [--limit 60]

The sets: the ten 30×20 puzzles in data/battleship/generated/ (seeds 1-10 and, when they are
there, 11-20), the CSPLib 10×10 puzzles 113 and 200, and the MiniZinc 12×12 to 15×15 ones.
Per puzzle and command: min / median / max of --runs runs, in seconds. With --baseline, the
same for another build (an older one, say), and the ratio of medians baseline / this.

--generate A..B: runs `generate` for those seeds at the paper's Example-2 fleet
(23/29/12/9/7), times each, and keeps the puzzles as data/battleship/generated/30x20-seedN.txt.
"""

import argparse
import glob
import os
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BINARY = os.path.join(ROOT, "target", "release", "quandary")
DATA = os.path.join(ROOT, "data", "battleship")
FLEET = "23 29 12 9 7"


def timed(binary, args, limit):
    """Wall seconds of one run, and whether it answered (exit status 0)."""
    start = time.perf_counter()
    out = subprocess.run(
        [binary] + args + ["--time-limit", str(limit)],
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - start, out.returncode == 0


def spread(binary, args, limit, runs):
    times, done = [], True
    for _ in range(runs):
        t, ok = timed(binary, args, limit)
        times.append(t)
        done = done and ok
    return min(times), statistics.median(times), max(times), done


def puzzles():
    out = [
        ("CSPLib 113 (10×10)", ["csplib-prob014.pl", "--instance", "113"]),
        ("CSPLib 200 (10×10)", ["csplib-prob014.pl", "--instance", "200"]),
        ("MiniZinc sb_15 (15×15)", ["sb_15_15_7_0.dzn"]),
    ]
    for path in sorted(
        glob.glob(os.path.join(DATA, "generated", "30x20-seed*.txt")),
        key=lambda p: int(p.rsplit("seed", 1)[1].split(".")[0]),
    ):
        seed = path.rsplit("seed", 1)[1].split(".")[0]
        out.append((f"30×20 seed {seed}", [os.path.relpath(path, DATA)]))
    return out


def fmt(s):
    lo, med, hi, done = s
    mark = "" if done else " (limit)"
    return f"{lo:.2f} / {med:.2f} / {hi:.2f}{mark}"


def generate(seeds, limit):
    print("| seed | time | clues |")
    print("|---|---|---|")
    times = []
    for seed in seeds:
        path = os.path.join(DATA, "generated", f"30x20-seed{seed}.txt")
        args = ["battleship", "generate", "--rows", "30", "--cols", "20", "--fleet", FLEET]
        args += ["--seed", str(seed), "-o", path]
        t, ok = timed(BINARY, args, limit)
        times.append(t)
        kept = "?"
        if os.path.exists(path):
            with open(path) as f:
                second = f.read().splitlines()[1]
            kept = second.split("(")[-1].rstrip(")")
        print(f"| {seed} | {t:.2f} s{'' if ok else ' (limit)'} | {kept} |", flush=True)
    print(
        f"\nmedian {statistics.median(times):.2f} s, worst {max(times):.2f} s "
        f"over {len(times)} seeds"
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--baseline")
    ap.add_argument("--generate")
    ap.add_argument("--verbs", default="unique,forced,redundant")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    if a.generate:
        lo, hi = (int(x) for x in a.generate.split(".."))
        generate(range(lo, hi + 1), a.limit)
        return
    verbs = a.verbs.split(",")
    head = "| puzzle | " + " | ".join(verbs) + " |"
    if a.baseline:
        head = "| puzzle | " + " | ".join(f"{v} | baseline | ratio" for v in verbs) + " |"
    print("min / median / max seconds of", a.runs, "runs, whole process")
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    os.chdir(DATA)
    for name, args in puzzles():
        cells = []
        for verb in verbs:
            ours = spread(BINARY, ["battleship", verb] + args, a.limit, a.runs)
            cells.append(fmt(ours))
            if a.baseline:
                base = spread(a.baseline, ["battleship", verb] + args, a.limit, a.runs)
                cells.append(fmt(base))
                cells.append(f"{base[1] / max(ours[1], 1e-3):.1f}x")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
