"""The setter's loop as the page's workbench runs it: one engine per board kept between edits.

    python3 bench/workbench.py [--runs 3] [--edits 5] [--limit 120] [--only 30x20-seed3,...]

For each puzzle: the puzzle itself (the first check: engines built, unique, forced, spare
clues), then `--edits` of its clues taken away one at a time and each put back (a clue taken
away: several solutions, or still one when it was spare; put back: unique again), all through
`quandary battleship workbench EDIT...` in one process, as the server keeps a board. Each
edit's seconds are the command's own (`details.edits[].seconds`). The clues edited are spread
over the puzzle (every k-th clue in reading order), the same in every run.

Puzzles: the 30×20 ones in data/battleship/generated/ (made by `generate`), the CSPLib 10×10
puzzles 113 and 200 and the MiniZinc 12×12 to 15×15 ones (made by other tools).
Per puzzle: min / median / max over runs of the first check, of the slowest edit that takes a
clue away, and of the slowest that puts one back.
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile

import setter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BINARY = os.path.join(ROOT, "target", "release", "quandary")
DATA = os.path.join(ROOT, "data", "battleship")


def puzzles():
    """setter.py's puzzles, with the MiniZinc 12×12 to 14×14 ones beside its 15×15."""
    out = []
    for name, args in setter.puzzles():
        if name.startswith("MiniZinc"):
            for n, k in ((12, 6), (13, 5), (14, 6)):
                out.append((f"MiniZinc sb_{n} ({n}×{n})", [f"sb_{n}_{n}_{k}_0.dzn"]))
        out.append((name.replace("30×20 seed ", "30x20-seed"), args))
    return out


def as_text(args):
    """The puzzle in quandary's text format (`battleship convert`)."""
    path = os.path.join(DATA, args[0])
    out = subprocess.run(
        [BINARY, "battleship", "convert", path] + args[1:], capture_output=True, text=True, check=True
    )
    return out.stdout


def edit_files(text, edits, folder):
    lines = text.rstrip("\n").split("\n")
    g = lines.index("grid")
    head, grid = lines[: g + 1], [l.split() for l in lines[g + 1 :] if l.strip()]
    clues = [(i, j) for i in range(len(grid)) for j in range(len(grid[0])) if grid[i][j] != "."]
    step = max(1, len(clues) // max(1, edits))
    chosen = clues[::step][:edits]
    files, kinds = [], []

    def write(rows, kind):
        name = os.path.join(folder, f"edit{len(files):03d}.txt")
        with open(name, "w") as f:
            f.write("\n".join(head + [" ".join(r) for r in rows]) + "\n")
        files.append(name)
        kinds.append(kind)

    write(grid, "load")
    for i, j in chosen:
        s = grid[i][j]
        grid[i][j] = "."
        write(grid, "away")
        grid[i][j] = s
        write(grid, "back")
    return files, kinds


def run_once(files, limit):
    out = subprocess.run(
        [BINARY, "battleship", "workbench"] + files + ["--json", "--time-limit", str(limit)],
        capture_output=True,
        text=True,
    )
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        return None
    return report["details"]["edits"]


def fmt(xs):
    if not xs:
        return "—"
    return f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--limit", type=float, default=120)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    print(f"`python3 bench/workbench.py --runs {a.runs} --edits {a.edits}`: seconds, min / median / max over runs\n")
    print("| puzzle | clues | first check | slowest clue taken away | slowest put back | answers (away) |")
    print("|---|---:|---|---|---|---|")
    for name, args in puzzles():
        if only and name not in only:
            continue
        text = as_text(args)
        with tempfile.TemporaryDirectory() as folder:
            files, kinds = edit_files(text, a.edits, folder)
            first, away, back, answers, done = [], [], [], set(), True
            for _ in range(a.runs):
                edits = run_once(files, a.limit)
                if edits is None or len(edits) < len(files):
                    done = False
                    continue
                if not all(e.get("complete", True) for e in edits):
                    # A limit left a question open: the times are lower bounds.
                    done = False
                first.append(edits[0]["seconds"])
                if "away" in kinds:
                    away.append(max(e["seconds"] for e, k in zip(edits, kinds) if k == "away"))
                    back.append(max(e["seconds"] for e, k in zip(edits, kinds) if k == "back"))
                for e, k in zip(edits, kinds):
                    if k == "away":
                        answers.add("unique" if e["unique"] else "several" if e["unique"] is False else e["status"])
            clues = sum(1 for l in text.split("grid", 1)[1].split() if l != ".")
            note = ", ".join(sorted(answers)) + ("" if done else "; stopped by the limit in some runs (times are lower bounds)")
            print(f"| {name} | {clues} | {fmt(first)} | {fmt(away)} | {fmt(back)} | {note} |", flush=True)


if __name__ == "__main__":
    main()
