"""Tantrix: a CP-SAT model with a circuit constraint for the loop, side by side with quandary.

    python3 bench/tantrix.py [--limit SECS] [--workers K] [--free 20,30,40] [--table]
    python3 bench/tantrix.py --make-cpsat-boards [--limit SECS]   # data/tantrix/cpsat-boards
    python3 bench/tantrix.py --cpsat-set [--limit SECS] [--json FILE]

Boards made by another tool (--make-cpsat-boards): for each n, a random blob-shaped window of
1.2-1.4 n cells grown from one cell, and CP-SAT's free-shape search (the model below, without the
hexagon's symmetry-breaking tile) for a loop of tiles 1..n inside it; a board with a hole is
ruled out inside the model (every unused cell of the window reaches its edge through unused
cells) and checked again after; a window with no loop is dropped for the next seed. Each board
is stored with CP-SAT's solution and checked by `quandary tantrix check`. --cpsat-set solves those boards from their cells alone with quandary
and with CP-SAT at 8 and at 2 workers, one board after the other in one run.

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


def solve_cpsat(n, cells, free, limit, workers, anchor=True, hole_free=False):
    """CP-SAT on `cells` (all used if not free). Returns (status, seconds, {cell: (t, k)}).
    A free search in a hexagon puts tile 1 unturned at its centre (`anchor`); `hole_free`
    makes every unused cell reach the window's edge through unused cells."""
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
        if anchor:
            o = index[(0, 0)]
            m.Add(x[o, 1, 0] == 1)
        if hole_free:
            # Each unused cell off the window's edge has an unused neighbour one step nearer
            # the edge (levels strictly fall along the way, so the way ends at the edge).
            level = [m.NewIntVar(0, len(cells), f"d{i}") for i in range(len(cells))]
            for c, (q, r) in enumerate(cells):
                nbs = [index.get((q + dq, r + dr)) for dq, dr in DIRS]
                if None in nbs:
                    continue
                steps = []
                for d in nbs:
                    b = m.NewBoolVar("")
                    m.AddImplication(b, used[d].Not())
                    m.Add(level[d] < level[c]).OnlyEnforceIf(b)
                    steps.append(b)
                m.AddBoolOr(steps).OnlyEnforceIf(used[c].Not())

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


def boards(dirs=("boards", "large"), pattern=r"(?:free|discovery)-0?(\d+)(-r\d+)?\.txt$"):
    """(n, name, path, cells) of every board file under data/tantrix/DIR whose name matches
    `pattern` (its first group is n)."""
    out = []
    for d, name in [(os.path.join(DATA, d), f) for d in dirs for f in os.listdir(os.path.join(DATA, d))]:
        m = re.match(pattern, name)
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


CPSAT_DIR = os.path.join(DATA, "cpsat-boards")
# 32 boards n = 15..60 (two each of 15, 18, ..., 60) and three large ones.
CPSAT_NS = [n for n in range(15, 61, 3) for _ in range(2)] + [80, 90, 100]


def blob(size, rng):
    """A random blob of `size` cells grown from (0, 0): each step adds a random cell of its
    border (cells next to the blob), so the blob stays compact but irregular. Cells it
    encloses are added (a window without holes, so its edge is its outside)."""
    cells = {(0, 0)}
    border = {(dq, dr) for dq, dr in DIRS}
    while len(cells) < size:
        c = rng.choice(sorted(border))
        border.discard(c)
        cells.add(c)
        for dq, dr in DIRS:
            d = (c[0] + dq, c[1] + dr)
            if d not in cells:
                border.add(d)
    return sorted(set(cells) | enclosed(cells))


def has_hole(cells):
    """Whether some cell outside `cells` is enclosed by them."""
    return bool(enclosed(cells))


def enclosed(cells):
    """The cells outside `cells` that they enclose."""
    cells = set(cells)
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    lo_q, hi_q, lo_r, hi_r = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    box = {(q, r) for q in range(lo_q, hi_q + 1) for r in range(lo_r, hi_r + 1)}
    start = (lo_q, lo_r)
    seen, todo = {start}, [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRS:
            d = (q + dq, r + dr)
            if d in box and d not in cells and d not in seen:
                seen.add(d)
                todo.append(d)
    return box - cells - seen


def make_cpsat_boards(limit):
    """Writes data/tantrix/cpsat-boards/cpsat-N-K.txt (see the module's text)."""
    import random

    os.makedirs(CPSAT_DIR, exist_ok=True)
    import ortools

    seen_n = {}
    for n in CPSAT_NS:
        seen_n[n] = seen_n.get(n, 0) + 1
        name = f"cpsat-{n:03d}-{seen_n[n]}"
        path = os.path.join(CPSAT_DIR, name + ".txt")
        if os.path.exists(path):
            continue
        seed = 1000 * n + 100 * seen_n[n]
        while True:
            rng = random.Random(seed)
            window = blob(round(n * rng.uniform(1.2, 1.4)), rng)
            st, wall, sol = solve_cpsat(n, window, True, limit, 8, anchor=False, hole_free=True)
            if sol is None or has_hole(sol):
                print(f"{name}: seed {seed}: {st if sol is None else 'a hole'} ({wall:.1f} s), next seed", flush=True)
                seed += 1
                continue
            break
        _, colour = challenge(n)
        with open(path, "w") as f:
            f.write(
                f"# Tantrix challenge {n} ({ {'R': 'red', 'B': 'blue', 'Y': 'yellow', 'G': 'green'}[colour]} loop), "
                f"found by CP-SAT (OR-Tools {ortools.__version__}, 8 workers) searching a random blob of "
                f"{len(window)} cells (bench/tantrix.py --make-cpsat-boards, seed {seed}) in {wall:.1f} s\n"
            )
            for (q, r), (t, k) in sorted(sol.items(), key=lambda e: (e[0][1], e[0][0])):
                f.write(f"{q},{r} {t}@{k}\n")
        ok = subprocess.run(
            [common.BINARY, "tantrix", "check", path, "--challenge", str(n)], capture_output=True
        ).returncode == 0
        if not ok:
            os.unlink(path)
            raise SystemExit(f"{name}: CP-SAT's solution fails quandary tantrix check")
        print(f"{name}: seed {seed}, window {len(window)} cells, CP-SAT {wall:.1f} s, checked", flush=True)


def cpsat_set(limit, out):
    """quandary and CP-SAT (8 and 2 workers) on every board of data/tantrix/cpsat-boards."""
    import json
    import statistics

    print(f"## Boards made by CP-SAT (limit {limit} s)\n")
    print("| board | n | quandary s | lazy rounds | CP-SAT 8w s | CP-SAT 2w s | ratio (best CP-SAT / quandary) |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    rows = []
    for n, name, path, cells in sorted(cpsat_boards()):
        st, wall, data = common.quandary(["tantrix", "solve", path], limit)
        rounds = data.get("stats", {}).get("lazy_rounds", 0)  # absent: none
        runs = []
        for w in (8, 2):
            cst, cwall, sol = solve_cpsat(n, cells, False, limit, w)
            if sol is not None and not check(n, sol):
                cst = "WRONG"
            runs.append((cst, cwall))
        best = min((c for c in runs if c[0] == "solved"), key=lambda c: c[1], default=("unknown", limit))
        r = common.ratio(best[1], wall, best[0] == "solved", st == "solved")
        rows.append({"board": name, "n": n, "quandary": wall, "status": st, "lazy_rounds": rounds,
                     "cpsat8": runs[0][1], "cpsat8_status": runs[0][0],
                     "cpsat2": runs[1][1], "cpsat2_status": runs[1][0], "best_cpsat": best[1]})
        print(
            f"| {name} | {n} | {wall:.3f} ({st}) | {rounds} | {runs[0][1]:.3f} ({runs[0][0]}) | "
            f"{runs[1][1]:.3f} ({runs[1][0]}) | {r} |",
            flush=True,
        )
    for label, sel in [("n <= 60", [r for r in rows if r["n"] <= 60]), ("n > 60", [r for r in rows if r["n"] > 60])]:
        if not sel:
            continue
        q = [r["quandary"] for r in sel]
        ratios = sorted(r["best_cpsat"] / max(r["quandary"], 1e-3) for r in sel)
        print(
            f"\n{label}: {len(sel)} boards; quandary median {statistics.median(q):.3f} s, max {max(q):.3f} s, "
            f"{sum(1 for t in q if t < 0.5)} under 0.5 s; ratio best-CP-SAT/quandary min {ratios[0]:.2f}x, "
            f"median {statistics.median(ratios):.2f}x; slower than CP-SAT on {sum(1 for x in ratios if x < 1)}, "
            f"under 2x on {sum(1 for x in ratios if x < 2)}"
        )
    if out:
        with open(out, "w") as f:
            json.dump(rows, f, indent=1)


def cpsat_boards():
    return boards(("cpsat-boards",), r"cpsat-(\d+)-\d+\.txt$")


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
    p.add_argument("--make-cpsat-boards", action="store_true")
    p.add_argument("--cpsat-set", action="store_true")
    p.add_argument("--json", default="", help="--cpsat-set: raw figures to this file")
    a = p.parse_args()
    common.build()
    if a.make_cpsat_boards:
        return make_cpsat_boards(a.limit)
    if a.cpsat_set:
        return cpsat_set(a.limit, a.json)
    if not a.no_fixed:
        fixed(a.limit, a.workers)
    if a.free:
        free([int(t) for t in a.free.split(",")], a.limit, a.workers)
    if a.table:
        table(a.limit)


if __name__ == "__main__":
    main()
