"""Battleship: a CP-SAT ship-based model (the paper's eqs. 26-31) side by side with quandary.

    python3 bench/battleship.py [--limit SECS] [--formulations runs,ship-cells,cell,ship]
    python3 bench/battleship.py --seeds 1..10 [--limit SECS]

For each instance: time to a first solution and to the uniqueness answer (a second solution
or a proof there is none), CP-SAT with 2 workers against quandary's default (runs)
formulation, as ratios CP-SAT / quandary. Then quandary's formulations against each other.
Instances are converted to quandary's own format with `quandary battleship convert`.

--seeds: 30×20 puzzles with the paper's Example-2 fleet (23/29/12/9/7), one per seed, made by
`quandary battleship generate` (timed; kept in data/battleship/generated/), then `solve` and
`unique` on each by quandary and by CP-SAT's ship model.
"""

import argparse
import os
import subprocess
import time

import common

common.ensure_ortools()

from ortools.sat.python import cp_model  # noqa: E402

DATA = os.path.join(common.ROOT, "data", "battleship")
INSTANCES = [
    ("CSPLib 113 (10×10)", "csplib-prob014.pl", "113"),
    ("CSPLib 200 (10×10)", "csplib-prob014.pl", "200"),
    ("MiniZinc sb_12 (12×12)", "sb_12_12_6_0.dzn", None),
    ("MiniZinc sb_13 (13×13)", "sb_13_13_5_0.dzn", None),
    ("MiniZinc sb_14 (14×14)", "sb_14_14_6_0.dzn", None),
    ("MiniZinc sb_15 (15×15)", "sb_15_15_7_0.dzn", None),
    ("generated 30×20 seed 1", "generated-30x20-seed1.txt", None),
    ("generated 30×20 seed 3", "generated-30x20-seed3.txt", None),
]


def read(name, instance):
    """The puzzle as (rows, cols, fleet, row counts, col counts, clues {(i, j): char})."""
    args = [common.BINARY, "battleship", "convert", os.path.join(DATA, name)]
    if instance:
        args += ["--instance", instance]
    text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    rows = cols = 0
    fleet, rc, cc, grid = [], [], [], []
    in_grid = False
    for line in text.splitlines():
        line = line.split(";")[0].strip()
        if not line:
            continue
        key, *rest = line.split()
        if in_grid:
            grid.append(line.split())
        elif key == "size":
            rows, cols = int(rest[0]), int(rest[1])
        elif key == "fleet":
            fleet = [int(x) for x in rest]
        elif key == "rows":
            rc = [None if x == "?" else int(x) for x in rest]
        elif key == "cols":
            cc = [None if x == "?" else int(x) for x in rest]
        elif key == "grid":
            in_grid = True
    clues = {(i, j): ch for i, r in enumerate(grid) for j, ch in enumerate(r) if ch != "."}
    return rows, cols, fleet, rc, cc, clues


def ship_model(rows, cols, fleet, rc, cc, clues):
    """Eqs. 26-31: one Boolean per position of a ship; '(29)' as one ship per 2×2 window."""
    M = cp_model.CpModel()
    grids = []  # (length, cells [(i, j, symbol)])
    for l in range(1, len(fleet) + 1):
        for horizontal in ([True] if l == 1 else [True, False]):
            h, w = (1, l) if horizontal else (l, 1)
            for i in range(rows - h + 1):
                for j in range(cols - w + 1):
                    cells = []
                    for t in range(l):
                        a, b = (i, j + t) if horizontal else (i + t, j)
                        if l == 1:
                            s = "o"
                        elif t == 0:
                            s = "<" if horizontal else "^"
                        elif t == l - 1:
                            s = ">" if horizontal else "v"
                        else:
                            s = "+"
                        cells.append((a, b, s))
                    grids.append((l, cells))
    y = [M.NewBoolVar(f"y{g}") for g in range(len(grids))]
    for i in range(rows):
        if rc[i] is not None:
            M.Add(sum(sum(1 for c in cells if c[0] == i) * y[g] for g, (_, cells) in enumerate(grids)
                      if any(c[0] == i for c in cells)) == rc[i])
    for j in range(cols):
        if cc[j] is not None:
            M.Add(sum(sum(1 for c in cells if c[1] == j) * y[g] for g, (_, cells) in enumerate(grids)
                      if any(c[1] == j for c in cells)) == cc[j])
    for l, n in enumerate(fleet, start=1):
        M.Add(sum(y[g] for g, (gl, _) in enumerate(grids) if gl == l) == n)
    for wi in range(max(rows - 1, 1)):
        for wj in range(max(cols - 1, 1)):
            meet = [y[g] for g, (_, cells) in enumerate(grids)
                    if any(wi <= a <= wi + 1 and wj <= b <= wj + 1 for a, b, _ in cells)]
            if len(meet) > 1:
                M.AddAtMostOne(meet)
    for (i, j), ch in clues.items():
        if ch == "~":
            M.Add(sum(y[g] for g, (_, cells) in enumerate(grids) if any(c[:2] == (i, j) for c in cells)) == 0)
        else:
            M.Add(sum(y[g] for g, (_, cells) in enumerate(grids) if (i, j, ch) in cells) == 1)
    return M, y


def cpsat(puzzle, limit):
    """(seconds to a first solution, seconds to the uniqueness answer, answer)."""
    M, y = ship_model(*puzzle)
    start = time.perf_counter()
    s, st, first = common.timed_solve(M, limit)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return first, None, "no answer" if st == cp_model.UNKNOWN else "infeasible"
    ones = [v for v in y if s.Value(v)]
    zeros = [v for v in y if not s.Value(v)]
    M.AddBoolOr([v.Not() for v in ones] + zeros)
    s.parameters.max_time_in_seconds = max(limit - first, 1)
    st = s.Solve(M)
    both = time.perf_counter() - start
    answer = {cp_model.INFEASIBLE: "unique", cp_model.OPTIMAL: "not unique",
              cp_model.FEASIBLE: "not unique"}.get(st, "no answer")
    return first, both, answer


def ours(name, instance, verb, formulation, limit):
    args = ["battleship", verb, os.path.join(DATA, name), "--formulation", formulation]
    if instance:
        args += ["--instance", instance]
    status, wall, data = common.quandary(args, limit)
    return status, wall, data


def fmt(t, done, limit):
    return f"{t:.3f} s" if done else f">{limit:g} s"


FLEET = "23 29 12 9 7"


def seeds(ks, limit):
    import statistics

    out = os.path.join(DATA, "generated")
    os.makedirs(out, exist_ok=True)
    print(f"Time limit {limit:g} s per run; quandary times are whole processes.\n")
    print("| seed | clues | generate | quandary solve | quandary unique | CP-SAT solve | CP-SAT solve + unique | ratio (unique) |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|")
    gens, uniq = [], []
    for k in ks:
        name = f"generated/30x20-seed{k}.txt"
        path = os.path.join(DATA, name)
        start = time.perf_counter()
        made = subprocess.run(
            [common.BINARY, "battleship", "generate", "--rows", "30", "--cols", "20", "--fleet", FLEET,
             "--seed", str(k), "--out", path, "--time-limit", str(limit)],
            capture_output=True,
        )
        gen = time.perf_counter() - start
        # Exit 1: stopped by the limit; the puzzle written is unique but not shown minimal.
        if made.returncode not in (0, 1) or not os.path.exists(path):
            raise SystemExit(f"seed {k}: generate failed: {made.stderr.decode()}")
        stopped = made.returncode == 1
        puzzle = read(name, None)
        st1, t1, _ = ours(name, None, "solve", "runs", limit)
        st2, t2, data = ours(name, None, "unique", "runs", limit)
        ref1, ref2, answer = cpsat(puzzle, limit)
        answer_ours = {True: "unique", False: "not unique"}.get(data.get("unique"), st2)
        gens.append(gen)
        uniq.append(t2)
        print(f"| {k} | {len(puzzle[5])} | {gen:.1f} s{' (stopped: not minimal)' if stopped else ''} | {t1:.3f} s | {t2:.3f} s ({answer_ours}) | "
              f"{fmt(ref1, ref2 is not None, limit)} | {fmt(ref2 or limit, ref2 is not None, limit)} ({answer}) | "
              f"{common.ratio(ref2 or limit, t2, ref2 is not None, st2 == 'solved')} |", flush=True)
    print(f"\ngenerate: median {statistics.median(gens):.1f} s, max {max(gens):.1f} s; "
          f"unique: median {statistics.median(uniq):.2f} s, max {max(uniq):.2f} s, "
          f"{sum(1 for t in uniq if t < 0.5)} of {len(uniq)} under 0.5 s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=120.0)
    ap.add_argument("--formulations", default="runs,ship-cells,cell,ship")
    ap.add_argument("--seeds", default="", help="e.g. 1..10: generated 30×20 puzzles")
    args = ap.parse_args()
    common.build()
    if args.seeds:
        a, b = args.seeds.split("..")
        return seeds(range(int(a), int(b) + 1), args.limit)
    print(f"Time limit {args.limit:g} s per run. quandary times are wall-clock per process "
          "(start, read, build, solve).\n")
    print("| instance | CP-SAT solve | quandary solve | ratio | CP-SAT solve + unique | "
          "quandary unique | ratio | answer |")
    print("|---|---|---|---|---|---|---|---|")
    for label, name, inst in INSTANCES:
        ref1, ref2, answer = cpsat(read(name, inst), args.limit)
        st1, t1, _ = ours(name, inst, "solve", "runs", args.limit)
        st2, t2, data = ours(name, inst, "unique", "runs", args.limit)
        ok1 = st1 in ("solved", "infeasible")
        ok2 = st2 in ("infeasible", "solved")
        ref_ok = ref2 is not None and answer != "no answer"
        ours_answer = {True: "unique", False: "not unique"}.get(data.get("unique"), st2)
        print(f"| {label} | {fmt(ref1, ref2 is not None, args.limit)} | {fmt(t1, ok1, args.limit)} | "
              f"{common.ratio(ref1, t1, ref2 is not None, ok1)} | "
              f"{fmt(ref2 or args.limit, ref_ok, args.limit)} | {fmt(t2, ok2, args.limit)} | "
              f"{common.ratio(ref2 or args.limit, t2, ref_ok, ok2)} | CP-SAT {answer}, quandary {ours_answer} |",
              flush=True)
    forms = args.formulations.split(",")
    print("\nquandary's formulations, time to the uniqueness answer:\n")
    print("| instance | " + " | ".join(forms) + " |")
    print("|---|" + "---|" * len(forms))
    for label, name, inst in INSTANCES:
        cells = []
        for f in forms:
            st, t, _ = ours(name, inst, "unique", f, args.limit)
            cells.append(fmt(t, st not in ("unknown", "error"), args.limit))
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
