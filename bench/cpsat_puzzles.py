"""Battleship puzzles made without quandary: a random fleet placed by this script, every row and
column count given, clues added until CP-SAT (the ship model of bench/battleship.py) finds no
second solution, then clues taken away while it still finds none. They are a test set that
quandary's own generator did not make (explain and the setter's loop are measured on them).

    python3 bench/cpsat_puzzles.py --size 15x15 --fleet "5 4 3 2 1" --seeds 1..10
    python3 bench/cpsat_puzzles.py --size 30x20 --fleet "23 29 12 9 7" --seeds 1..5
    python3 bench/cpsat_puzzles.py --size 30x20 --fleet "23 29 12 9 7" --seeds 1..5 --keep-redundant

Writes data/battleship/cpsat/RxC-seedN.txt (quandary's text format) and prints one line per
puzzle: clues kept, CP-SAT calls and seconds. With --keep-redundant the clues are not taken
away again (RxC-redundant-seedN.txt): the puzzle is unique but keeps clues it does not need,
as Meuffels and den Hertog's own 30x20 Example 2 does ("The puzzle has a unique solution, but
still contains redundant information", battleship.txt, section 5).
"""

import argparse
import os
import random
import time

import common

common.ensure_ortools()

from ortools.sat.python import cp_model  # noqa: E402

from battleship import ship_model  # noqa: E402

OUT = os.path.join(common.ROOT, "data", "battleship", "cpsat")


def place(rows, cols, fleet, rng):
    """A random placement of the fleet (longest ships first, no two touching, not even at a
    corner): {(i, j): symbol} over ship cells, or None after too many tries."""
    for _ in range(1000):
        taken = set()
        symbols = {}
        ok = True
        for length in range(len(fleet), 0, -1):
            for _ in range(fleet[length - 1]):
                spots = []
                for i in range(rows):
                    for j in range(cols):
                        for horizontal in ([True] if length == 1 else [True, False]):
                            cells = [(i, j + t) if horizontal else (i + t, j) for t in range(length)]
                            if all(a < rows and b < cols for a, b in cells) and not any(
                                (a + da, b + db) in taken
                                for a, b in cells
                                for da in (-1, 0, 1)
                                for db in (-1, 0, 1)
                            ):
                                spots.append((cells, horizontal))
                if not spots:
                    ok = False
                    break
                cells, horizontal = rng.choice(spots)
                for t, c in enumerate(cells):
                    taken.add(c)
                    if length == 1:
                        symbols[c] = "o"
                    elif t == 0:
                        symbols[c] = "<" if horizontal else "^"
                    elif t == length - 1:
                        symbols[c] = ">" if horizontal else "v"
                    else:
                        symbols[c] = "+"
            if not ok:
                break
        if ok:
            return symbols
    return None


def other_solution(rows, cols, fleet, rc, cc, clues, symbols, limit):
    """A solution other than `symbols` (its ship cells), None if CP-SAT proves there is none."""
    M, y = ship_model(rows, cols, fleet, rc, cc, clues)
    # y's positions in the order ship_model made them: rebuilt here to read cells back.
    positions = []
    for length in range(1, len(fleet) + 1):
        for horizontal in ([True] if length == 1 else [True, False]):
            h, w = (1, length) if horizontal else (length, 1)
            for i in range(rows - h + 1):
                for j in range(cols - w + 1):
                    positions.append(
                        [(i, j + t) if horizontal else (i + t, j) for t in range(length)]
                    )
    assert len(positions) == len(y)
    # Not this solution: some ship cell of it is water, or some water cell a ship.
    cover = {}
    for g, cells in enumerate(positions):
        for c in cells:
            cover.setdefault(c, []).append(y[g])
    differ = []
    for i in range(rows):
        for j in range(cols):
            b = M.NewBoolVar("")
            ship = sum(cover.get((i, j), []))
            if (i, j) in symbols:
                M.Add(ship == 0).OnlyEnforceIf(b)
            else:
                M.Add(ship >= 1).OnlyEnforceIf(b)
            differ.append(b)
    M.AddBoolOr(differ)
    s, status, _ = common.timed_solve(M, limit)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError("CP-SAT gave no answer within the limit")
    ships = set()
    for g, cells in enumerate(positions):
        if s.Value(y[g]):
            ships.update(cells)
    return ships


def make(rows, cols, fleet, seed, limit, minimise=True):
    rng = random.Random(seed)
    symbols = place(rows, cols, fleet, rng)
    if symbols is None:
        raise RuntimeError("the fleet does not fit")
    rc = [sum(1 for (i, _) in symbols if i == r) for r in range(rows)]
    cc = [sum(1 for (_, j) in symbols if j == c) for c in range(cols)]
    truth = {(i, j): symbols.get((i, j), "~") for i in range(rows) for j in range(cols)}
    clues = {}
    calls = 0
    while True:
        calls += 1
        other = other_solution(rows, cols, fleet, rc, cc, clues, symbols, limit)
        if other is None:
            break
        # Show a cell where the other solution differs.
        wrong = [c for c in truth if (c in symbols) != (c in other) and c not in clues]
        c = rng.choice(wrong)
        clues[c] = truth[c]
    added = len(clues)
    order = list(clues) if minimise else []
    rng.shuffle(order)
    for c in order:
        trial = {k: v for k, v in clues.items() if k != c}
        calls += 1
        if other_solution(rows, cols, fleet, rc, cc, trial, symbols, limit) is None:
            clues = trial
    return rc, cc, clues, added, calls


def write(path, rows, cols, fleet, rc, cc, clues, added, seed, minimise=True):
    with open(path, "w") as f:
        extra = "" if minimise else " --keep-redundant"
        f.write(f"; made by bench/cpsat_puzzles.py --seed {seed}{extra} (random fleet, uniqueness\n")
        f.write(f"; by CP-SAT's ship model); {added} clues added, {len(clues)} kept\n")
        f.write(f"size {rows} {cols}\n")
        f.write("fleet " + " ".join(map(str, fleet)) + "\n")
        f.write("rows " + " ".join(map(str, rc)) + "\n")
        f.write("cols " + " ".join(map(str, cc)) + "\n")
        f.write("grid\n")
        for i in range(rows):
            f.write(" ".join(clues.get((i, j), ".") for j in range(cols)) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="15x15")
    ap.add_argument("--fleet", default="5 4 3 2 1")
    ap.add_argument("--seeds", default="1..10")
    ap.add_argument("--limit", type=float, default=120)
    ap.add_argument("--keep-redundant", action="store_true",
                    help="stop once unique; do not take clues away (the paper's Example 2 style)")
    a = ap.parse_args()
    minimise = not a.keep_redundant
    rows, cols = map(int, a.size.split("x"))
    fleet = [int(x) for x in a.fleet.split()]
    lo, hi = map(int, a.seeds.split(".."))
    os.makedirs(OUT, exist_ok=True)
    for seed in range(lo, hi + 1):
        start = time.perf_counter()
        rc, cc, clues, added, calls = make(rows, cols, fleet, seed, a.limit, minimise)
        kind = "" if minimise else "redundant-"
        path = os.path.join(OUT, f"{rows}x{cols}-{kind}seed{seed}.txt")
        write(path, rows, cols, fleet, rc, cc, clues, added, seed, minimise)
        took = time.perf_counter() - start
        print(f"{os.path.relpath(path, common.ROOT)}: {len(clues)} clues kept of {added}, "
              f"{calls} CP-SAT calls, {took:.1f} s", flush=True)


if __name__ == "__main__":
    main()
