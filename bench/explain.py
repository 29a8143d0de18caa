"""Explanations timed: `quandary battleship explain` on published puzzles (the 20 CSPLib prob014
instances, 10x10, made by another tool), the MiniZinc benchmarks' 12x12 to 15x15 and generated
30x20 boards, several runs each (min / median / max), and side by side the baseline
`explain --plain` (one deletion-based minimal reason per open decision over every element,
one decision a step) on the instances where it ends.

    python3 bench/explain.py                     # CSPLib, 3 runs each, 60 s a run
    python3 bench/explain.py --runs 1 --plain    # also the baseline (slow: minutes each)
    python3 bench/explain.py --set large         # sb_12..sb_15 and two generated 30x20
    python3 bench/explain.py --set cpsat15       # 15x15 puzzles made with CP-SAT (cpsat_puzzles.py)
    python3 bench/explain.py --set published15   # the published 15x15 puzzles at hand (two)
    python3 bench/explain.py --set demystify     # the published puzzles Demystify explains
                                                 # (conceptis and others; 6x6 to 10x10)
    python3 bench/explain.py --set krazydad      # twelve published KrazyDad 10x10 puzzles
    python3 bench/explain.py --set paper30       # 30x20, the paper's fleet, made with CP-SAT,
                                                 # clues not minimised (as the paper's Example 2)
    python3 bench/explain.py --set boats10       # made by Boats, a generator for people
    python3 bench/explain.py --set boats15       # (Tatham's collection, unreleased part):
    python3 bench/explain.py --set boats30       # 10x10, 15x15, and 30x20 with the paper's fleet

Writes a markdown table on standard output; nothing else is changed.
"""

import argparse
import glob
import os
import statistics

from common import ROOT, build, quandary

CSPLIB = "data/battleship/csplib-prob014.pl"
IDS = [113, 123, 200, 239, 312, 352, 411, 530, 558, 628,
       697, 698, 769, 850, 957, 1044, 1109, 1202, 1233, 1234]
LARGE = [
    "data/battleship/sb_12_12_6_0.dzn",
    "data/battleship/sb_13_13_5_0.dzn",
    "data/battleship/sb_14_14_6_0.dzn",
    "data/battleship/sb_15_15_7_0.dzn",
    "data/battleship/generated/30x20-seed11.txt",
    "data/battleship/generated/30x20-seed16.txt",
]

def by_seed(pattern):
    """The files under data/battleship matching `pattern` (with `seed*`), in the order of their seeds."""
    return sorted(glob.glob(os.path.join(ROOT, "data/battleship", pattern)),
                  key=lambda p: int(p.split("seed")[1].split(".")[0]))


# The paper's size and fleet (Meuffels and den Hertog's Example 2: 30x20, 23 29 12 9 7),
# made with CP-SAT and, like that example, unique with clues it does not need.
PAPER30 = by_seed("cpsat/30x20-redundant-seed*.txt")

# Published for people to solve (puzzle sites: puzzle-battleships.com, BrainBashers), 15x15.
PUBLISHED15 = ["data/battleship/puzzle-battleships-15x15.txt", "data/battleship/brainbashers-15x15.txt"]

# Published for people (conceptis, dkmgames, puzzler.com, tectonicpuzzel; one of the Savile Row
# distribution), as Demystify's repository gives them.
DEMYSTIFY = sorted(glob.glob(os.path.join(ROOT, "data/battleship/demystify/*.param")))

# Published for people (KrazyDad, volume 1, books 1, 50 and 100), 10x10, 4 to 8 clues.
KRAZYDAD = sorted(glob.glob(os.path.join(ROOT, "data/battleship/krazydad/*.txt")))

# Made without quandary: a random fleet, clues until CP-SAT finds one solution, minimised.
CPSAT15 = by_seed("cpsat/15x15-seed*.txt")

# Made by Boats (Lennard Sprong's Battleship generator for Simon Tatham's Portable Puzzle
# Collection), level "hard": puzzles for people, each solvable by Boats' own step-by-step
# solver. 10x10 and 15x15 with the usual fleets, 30x20 with the paper's fleet.
def boats(size):
    return by_seed(f"boats/{size}-hard-seed*.txt")


def one(args, limit):
    status, wall, data = quandary(["battleship", "explain"] + args, limit)
    d = data.get("difficulty", {})
    return {
        "status": status,
        "wall": wall,
        "steps": d.get("steps"),
        "hardest": d.get("hardest"),
        "total": d.get("total"),
        "complete": data.get("complete"),
        "open": data.get("open"),
        "won": won(data.get("stats", {}).get("method", "")),
    }


def won(method):
    """Which of the two racing engines gave the explanation ('-' when one ran alone)."""
    if "every row in clauses won" in method:
        return "clauses"
    if "rows won" in method:
        return "counting"
    return "-"


def summary(runs):
    walls = [r["wall"] for r in runs]
    return f"{min(walls):.2f} / {statistics.median(walls):.2f} / {max(walls):.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--plain", action="store_true", help="also run the baseline, once")
    ap.add_argument("--plain-limit", type=float, default=600)
    ap.add_argument("--set", choices=["csplib", "large", "cpsat15", "published15", "paper30", "demystify",
                                      "krazydad", "boats10", "boats15", "boats30"], default="csplib")
    ap.add_argument("--ids", help="CSPLib ids, comma-separated (default: all 20)")
    ap.add_argument("--no-build", action="store_true", help="time the binary as it is")
    ap.add_argument("--threads", type=int,
                    help="explain --threads N (1: one engine; default: two engines race)")
    a = ap.parse_args()
    if not a.no_build:
        build()
    cases = (
        [(f"CSPLib {i}", [CSPLIB, "--instance", str(i)])
         for i in (map(int, a.ids.split(",")) if a.ids else IDS)]
        if a.set == "csplib"
        else [(os.path.basename(p), [p])
              for p in {"large": LARGE, "cpsat15": CPSAT15, "published15": PUBLISHED15,
                        "paper30": PAPER30, "demystify": DEMYSTIFY,
                        "krazydad": KRAZYDAD, "boats10": boats("10x10"),
                        "boats15": boats("15x15"), "boats30": boats("30x20")}[a.set]]
    )
    # The baseline runs on one engine and takes no --threads.
    threads = ["--threads", str(a.threads)] if a.threads else []
    print(f"runs: {a.runs}, limit {a.limit} s a run; times min / median / max (s)\n")
    head = "| instance | explain (s) | steps | hardest | total | complete | open | won |"
    if a.plain:
        head += " --plain (s) | steps | hardest | total | time ratio |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    medians = []
    for name, args in cases:
        runs = [one(args + threads, a.limit) for _ in range(a.runs)]
        last = runs[-1]
        med = statistics.median(r["wall"] for r in runs)
        medians.append(med)
        row = (f"| {name} | {summary(runs)} | {last['steps']} | {last['hardest']} | "
               f"{last['total']} | {last['complete']} | {last['open']} | "
               f"{', '.join(r['won'] for r in runs)} |")
        if a.plain:
            p = one(args + ["--plain"], a.plain_limit)
            done = p["status"] == "solved"
            ratio = f"{p['wall'] / max(med, 1e-3):.0f}x" if done else f">{p['wall'] / max(med, 1e-3):.0f}x"
            row += (f" {p['wall']:.1f}{'' if done else ' (limit)'} | {p['steps']} | "
                    f"{p['hardest']} | {p['total']} | {ratio} |")
        print(row, flush=True)
    print(f"\nmedian of the medians: {statistics.median(medians):.2f} s over {len(medians)} instances")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
