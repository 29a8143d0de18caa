"""Tantrix: a CP-SAT model with a circuit constraint for the loop, side by side with quandary.

    python3 bench/tantrix.py [--limit SECS] [--workers K] [--free 20,30,40] [--table]

Fixed boards: every board in data/tantrix/boards (made by `quandary tantrix free`, stored with
a solution) is solved from its cells alone by both; each CP-SAT answer is written as a solution
file and checked by `quandary tantrix check`. Free boards (--free): both search a hexagon of the
same radius for a board and a solution. --table runs quandary's switchable constraint families
(the paper's tables) on the same boards. Ratios are CP-SAT / quandary wall time.
"""

import argparse
import os
import re
import subprocess
import tempfile
import time

import common

common.ensure_ortools()

from ortools.sat.python import cp_model  # noqa: E402

DATA = os.path.join(common.ROOT, "data", "tantrix")
DIRS = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]  # NE, E, SE, SW, W, NW


def tiles():
    out = {}
    for line in open(os.path.join(DATA, "tiles.csv")):
        f = line.strip().split(",")
        if line.startswith("#") or len(f) != 8 or f[0] == "tile":
            continue
        out[int(f[0])] = (f[1], f[2:])
    return out


TILES = tiles()


def challenge(n):
    """(tile counts {tile: copies}, designated colour letter)."""
    counts = {i: (n + 10 - i) // 10 for i in range(1, min(n, 10) + 1)}
    back = 10 if n % 10 == 0 else n % 10
    return counts, TILES[back][0]


def ball(radius):
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if max(abs(q), abs(r), abs(q + r)) <= radius
    ]


def solve_cpsat(n, cells, free, limit, workers):
    """CP-SAT on `cells` (all used if not free). Returns (status, seconds, {cell: (t, k)})."""
    counts, des = challenge(n)
    m = cp_model.CpModel()
    index = {h: i for i, h in enumerate(cells)}
    used = [m.NewBoolVar(f"u{i}") if free else None for i in range(len(cells))]
    x = {}  # (cell, tile, turns) -> var
    side = {}  # (cell, side, colour) -> list of placement vars
    for c, h in enumerate(cells):
        vs = []
        for t in counts:
            for k in range(6):
                v = m.NewBoolVar(f"x{c}_{t}_{k}")
                x[c, t, k] = v
                vs.append(v)
                for s in range(6):
                    side.setdefault((c, s, TILES[t][1][(s - k) % 6]), []).append(v)
        if free:
            m.Add(sum(vs) == used[c])
        else:
            m.AddExactlyOne(vs)
    for t, k in counts.items():
        m.Add(sum(x[c, t, r] for c in range(len(cells)) for r in range(6)) == k)
    if free:
        m.Add(sum(used) == n)
        o = index[(0, 0)]
        m.Add(x[o, 1, 0] == 1)

    def colour(c, s, col):
        return sum(side.get((c, s, col), []))

    arcs = []
    for c, (q, r) in enumerate(cells):
        if free:
            arcs.append((c, c, used[c].Not()))
        for s in range(6):
            d = index.get((q + DIRS[s][0], r + DIRS[s][1]))
            if d is None:
                m.Add(colour(c, s, des) == 0)  # C3
                continue
            if free:
                # A designated line leads to a used cell; touching sides of used cells match.
                m.Add(colour(c, s, des) == 0).OnlyEnforceIf(used[d].Not())
                for col in "RBY":
                    m.Add(colour(c, s, col) == colour(d, (s + 3) % 6, col)).OnlyEnforceIf(
                        [used[c], used[d]]
                    )
            elif s < 3:
                for col in "RBY":
                    m.Add(colour(c, s, col) == colour(d, (s + 3) % 6, col))  # C4
            if s < 3:
                a, b = m.NewBoolVar(""), m.NewBoolVar("")
                arcs += [(c, d, a), (d, c, b)]
                m.Add(a + b == colour(c, s, des))
    m.AddCircuit(arcs)
    solver, st, wall = common.timed_solve(m, limit, workers)
    if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        sol = {
            cells[c]: (t, k) for (c, t, k), v in x.items() if solver.Value(v)
        }
        return "solved", wall, sol
    if st == cp_model.INFEASIBLE:
        return "infeasible", wall, None
    return "unknown", wall, None


def check(n, sol):
    """Runs the independent checker on a CP-SAT solution; returns True if it passes."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for (q, r), (t, k) in sorted(sol.items()):
            f.write(f"{q},{r} {t}@{k}\n")
        path = f.name
    out = subprocess.run(
        [common.BINARY, "tantrix", "check", path, "--challenge", str(n)],
        capture_output=True,
        text=True,
    )
    os.unlink(path)
    return out.returncode == 0


def boards(dirs=("boards", "large")):
    out = []
    for d, name in [(os.path.join(DATA, d), f) for d in dirs for f in os.listdir(os.path.join(DATA, d))]:
        m = re.match(r"(?:free|discovery)-0?(\d+)(-r\d+)?\.txt$", name)
        if m:
            path = os.path.join(d, name)
            cells = []
            for line in open(path):
                line = line.split("#")[0].strip()
                if line:
                    q, r = line.split()[0].split(",")
                    cells.append((int(q), int(r)))
            out.append((int(m.group(1)), name[:-4], path, cells))
    return sorted(out)


def fixed(limit, workers):
    print(f"## Fixed boards (CP-SAT {workers} workers, limit {limit} s)\n")
    print("| board | n | quandary s | lazy rounds | CP-SAT s | ratio |")
    print("|---|--:|--:|--:|--:|--:|")
    for n, name, path, cells in boards():
        st, wall, data = common.quandary(["tantrix", "solve", path], limit)
        rounds = data.get("stats", {}).get("lazy_rounds", "?")
        cst, cwall, sol = solve_cpsat(n, cells, False, limit, workers)
        if sol is not None and not check(n, sol):
            cst = "WRONG"
        r = common.ratio(cwall, wall, cst == "solved", st == "solved")
        print(
            f"| {name} | {n} | {wall:.3f} ({st}) | {rounds} | {cwall:.3f} ({cst}) | {r} |",
            flush=True,
        )


def radius(n):
    r = 1
    while 3 * r * (r + 1) + 1 < 2 * n:
        r += 1
    return r


def free(ns, limit, workers):
    print(f"\n## Free boards (hexagon of ~2n cells; CP-SAT {workers} workers, limit {limit} s)\n")
    print("| n | radius | quandary s | CP-SAT s | ratio |")
    print("|--:|--:|--:|--:|--:|")
    for n in ns:
        rad = radius(n)
        st, wall, _ = common.quandary(
            ["tantrix", "free", "--challenge", str(n), "--radius", str(rad)], limit
        )
        cst, cwall, sol = solve_cpsat(n, ball(rad), True, limit, workers)
        if sol is not None and not check(n, sol):
            cst = "WRONG"
        r = common.ratio(cwall, wall, cst == "solved", st == "solved")
        print(f"| {n} | {rad} | {wall:.2f} ({st}) | {cwall:.2f} ({cst}) | {r} |", flush=True)


PAPER = ["--no-degree", "--engines", "1"]
VARIANTS = [
    ("C1-C4 + C5 (§4)", ["--copies", "--no-c6", "--short-loops", "none"] + PAPER),
    ("C2' + C5 (§5.1)", ["--no-c6", "--short-loops", "none"] + PAPER),
    ("+ C6 (§5.2)", ["--short-loops", "none"] + PAPER),
    ("+ C7-C9 (§5.3)", PAPER),
    ("+ degree rows, 1 engine", ["--engines", "1"]),
    ("default (2 engines)", []),
]


def table(limit):
    print(f"\n## quandary's constraint families (limit {limit} s): seconds (lazy rounds)\n")
    print("| board | n | " + " | ".join(v[0] for v in VARIANTS) + " |")
    print("|---|--:|" + "--:|" * len(VARIANTS))
    # The paper's challenge numbers (multiples of 5 up to 60), one board each.
    for n, name, path, _ in boards():
        if n % 5 or n > 60 or "-r" in name:
            continue
        row = []
        for _, args in VARIANTS:
            st, wall, data = common.quandary(["tantrix", "solve", path] + args, limit)
            rounds = data.get("stats", {}).get("lazy_rounds", "?")
            row.append(f"{wall:.2f} ({rounds})" if st == "solved" else f"{st} {wall:.0f}")
        print(f"| {name} | {n} | " + " | ".join(row) + " |", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--limit", type=float, default=60)
    p.add_argument("--workers", type=int, default=8)
    p.add_argument("--free", default="", help="challenge numbers for the board search, e.g. 20,30,40")
    p.add_argument("--table", action="store_true")
    p.add_argument("--no-fixed", action="store_true")
    a = p.parse_args()
    common.build()
    if not a.no_fixed:
        fixed(a.limit, a.workers)
    if a.free:
        free([int(t) for t in a.free.split(",")], a.limit, a.workers)
    if a.table:
        table(a.limit)


if __name__ == "__main__":
    main()
