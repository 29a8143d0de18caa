"""The figures the README and the docs quote for single commands, measured as sets: each
command run N times in turn (default 3) on the release binary, wall-clock seconds as min /
median / max, with the machine's state (cores, load average before and after). The docs
quote these sets, each in one place, with this command.

    python3 bench/figures.py [--runs 3] [--only NAME] [--out bench/results/figures/figures-DATE.md]

No OR-Tools needed: these are quandary's own figures (the side-by-side ratios are in the
other scripts).
"""

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BINARY, ROOT  # noqa: E402

# (name, the command's words after `quandary`): the figures the README and the docs quote.
FIGURES = [
    ("tank-count-6", ["tank", "count", "6"]),
    ("tank-forced-6", ["tank", "forced", "6"]),
    ("tank-explain-5", ["tank", "explain", "5", "--time-limit", "600"]),
    ("gunport-solve-19", ["gunport", "solve", "19", "19"]),
    ("gunport-reach-19-117-half-turn",
     ["gunport", "reach", "19", "19", "--holes", "117", "--symmetry", "half-turn"]),
    ("gunport-reach-19-119-budget",
     ["gunport", "reach", "19", "19", "--holes", "119", "--method", "budget"]),
    # The headline figures of each puzzle's page (docs/*.md, "Figures of this build").
    ("tank-count-5", ["tank", "count", "5"]),
    ("tank-solve-8", ["tank", "solve", "8"]),
    ("gunport-optimum-10", ["gunport", "optimum", "10", "10"]),
    ("gunport-optimum-12", ["gunport", "optimum", "12", "12"]),
    ("chess-unique-friedman", ["chess", "unique", "data/chess/friedman-b4n2.txt"]),
    ("chess-count-8-queens", ["chess", "count", "8", "--army", "Q8"]),
    ("chess-count-10-queens", ["chess", "count", "10", "--army", "Q10"]),
    ("chess-count-7x7-K2Q2B2N", ["chess", "count", "7x7", "--army", "K2Q2B2N"]),
    ("chess-peaceable-8", ["chess", "peaceable", "8"]),
    ("tantrix-count-10-red", ["tantrix", "count", "-n", "10", "--colour", "red"]),
    ("tantrix-count-10-yellow", ["tantrix", "count", "-n", "10", "--colour", "yellow"]),
    ("tantrix-count-10-blue", ["tantrix", "count", "-n", "10", "--colour", "blue"]),
    ("tantrix-solve-free-100", ["tantrix", "solve", "data/tantrix/boards/free-100.txt"]),
    ("tantrix-solve-free-200",
     ["tantrix", "solve", "data/tantrix/large/free-200.txt", "--time-limit", "120"]),
    ("tantrix-free-60", ["tantrix", "free", "-n", "60", "--time-limit", "120"]),
    ("tantrix-free-100", ["tantrix", "free", "-n", "100", "--time-limit", "120"]),
    ("battleship-unique-30x20-seed1",
     ["battleship", "unique", "data/battleship/generated-30x20-seed1.txt"]),
    ("battleship-unique-30x20-seed3",
     ["battleship", "unique", "data/battleship/generated-30x20-seed3.txt"]),
    ("battleship-unique-sb15", ["battleship", "unique", "data/battleship/sb_15_15_7_0.dzn"]),
    ("battleship-generate-10x10-seed3",
     ["battleship", "generate", "--rows", "10", "--cols", "10", "--fleet", "4 3 2 1",
      "--seed", "3"]),
    ("battleship-generate-30x20-seed1",
     ["battleship", "generate", "--rows", "30", "--cols", "20", "--fleet", "23 29 12 9 7",
      "--seed", "1", "--time-limit", "300"]),
]


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", action="append", help="a figure's name (repeatable)")
    ap.add_argument("--out", help="write the table (markdown) here too")
    args = ap.parse_args()
    chosen = [f for f in FIGURES if not args.only or f[0] in args.only]
    lines = [
        f"# quandary figures, {datetime.date.today()}",
        "",
        f"`python3 bench/figures.py {' '.join(sys.argv[1:])}`, {os.cpu_count()} cores, "
        f"load average before: {load()}.",
        "",
        "| figure | command | min | median | max | status |",
        "|---|---|---:|---:|---:|---|",
    ]
    for name, words in chosen:
        times, statuses = [], set()
        for _ in range(args.runs):
            started = time.monotonic()
            out = subprocess.run([BINARY, *words, "--json"], cwd=ROOT, capture_output=True,
                                 text=True)
            times.append(time.monotonic() - started)
            try:
                import json
                statuses.add(json.loads(out.stdout).get("status", "?"))
            except ValueError:
                statuses.add(f"exit {out.returncode}")
        row = (f"| {name} | `quandary {' '.join(words)}` | {min(times):.2f} s | "
               f"{statistics.median(times):.2f} s | {max(times):.2f} s | "
               f"{', '.join(sorted(statuses))} |")
        print(row, flush=True)
        lines.append(row)
    lines += ["", f"Load average after: {load()}."]
    print(lines[-1])
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
