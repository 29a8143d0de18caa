"""Chess avoidance: the seed's pairwise CP-SAT model side by side with quandary.

    python3 bench/chess.py [--limit SECS]

Rows: the seed's puzzle solved and proven unique; 8 queens and the 7×7 K2Q2B2N board counted;
peaceable queens on 8×8 (a CP-SAT model of the same rows as quandary's). Ratio = CP-SAT time /
quandary time ('>' when CP-SAT hit the limit).
"""

import argparse
import os
import time

import common

common.ensure_ortools()

from ortools.sat.python import cp_model  # noqa: E402

TYPES = "QRBNK"


def attacks(k, p, q):
    if p == q:
        return False
    dr, dc = abs(p[0] - q[0]), abs(p[1] - q[1])
    if k == "B":
        return dr == dc
    if k == "N":
        return {dr, dc} == {1, 2}
    if k == "R":
        return dr == 0 or dc == 0
    if k == "Q":
        return dr == dc or dr == 0 or dc == 0
    return max(dr, dc) == 1


def avoid_model(cells, army):
    """The seed's pairwise model (chapter 60), written out here."""
    m = cp_model.CpModel()
    types = [k for k in TYPES if army.get(k, 0) > 0]
    x = {(c, k): m.NewBoolVar("") for c in cells for k in types}
    occ = {}
    for c in cells:
        occ[c] = sum(x[c, k] for k in types)
        m.Add(occ[c] <= 1)
    for k in types:
        m.Add(sum(x[c, k] for c in cells) == army[k])
    for p in cells:
        for k in types:
            for q in cells:
                if attacks(k, p, q):
                    m.Add(x[p, k] + occ[q] <= 1)
    return m, x


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self, limit=None):
        super().__init__()
        self.count = 0
        self.limit = limit

    def on_solution_callback(self):
        self.count += 1
        if self.limit and self.count >= self.limit:
            self.StopSearch()


def cp_count(cells, army, limit, stop_at=None):
    m, _ = avoid_model(cells, army)
    s = cp_model.CpSolver()
    s.parameters.max_time_in_seconds = limit
    s.parameters.enumerate_all_solutions = True
    cb = Counter(stop_at)
    start = time.perf_counter()
    st = s.Solve(m, cb)
    wall = time.perf_counter() - start
    done = st in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or (stop_at and cb.count < stop_at and st != cp_model.UNKNOWN)
    return wall, bool(done), cb.count


def cp_peaceable(n, limit):
    m = cp_model.CpModel()
    cells = [(r, c) for r in range(n) for c in range(n)]
    w = {c: m.NewBoolVar("") for c in cells}
    b = {c: m.NewBoolVar("") for c in cells}
    for c in cells:
        m.Add(w[c] + b[c] <= 1)
    for p in cells:
        for q in cells:
            if attacks("Q", p, q):
                m.Add(w[p] + b[q] <= 1)
    m.Add(sum(w.values()) == sum(b.values()))
    m.Maximize(sum(w.values()))
    s, st, wall = common.timed_solve(m, limit)
    return wall, st == cp_model.OPTIMAL, round(s.ObjectiveValue())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=120.0)
    args = ap.parse_args()
    common.build()
    seed_cells = [(r, c) for r in range(3) for c in range(5) if (r, c) not in {(0, 0), (0, 3), (0, 4)}]
    board = os.path.join(common.ROOT, "data", "chess", "friedman-b4n2.txt")
    print(f"Time limit {args.limit:g} s per run for both.\n")
    print("| task | CP-SAT (seed model) | quandary | ratio | quandary method |")
    print("|---|---|---|---|---|")
    rows = [
        ("seed puzzle B4N2, solve + uniqueness", lambda: cp_count(seed_cells, {"B": 4, "N": 2}, args.limit, stop_at=2), ["chess", "unique", board]),
        ("8 queens, count", lambda: cp_count([(r, c) for r in range(8) for c in range(8)], {"Q": 8}, args.limit), ["chess", "count", "8", "--army", "Q8"]),
        ("7×7 K2Q2B2N, count", lambda: cp_count([(r, c) for r in range(7) for c in range(7)], {"K": 2, "Q": 2, "B": 2, "N": 1}, args.limit), ["chess", "count", "7x7", "--army", "K2Q2B2N"]),
        ("peaceable queens 8×8", lambda: cp_peaceable(8, args.limit), ["chess", "peaceable", "8"]),
    ]
    for name, ref_run, ours_args in rows:
        ref, ref_done, ref_val = ref_run()
        status, ours, data = common.quandary(ours_args, args.limit)
        ours_done = status != "unknown"
        our_val = data.get("count", data.get("objective", data.get("unique")))
        ref_text = f"{ref:.3f} s ({ref_val})" if ref_done else f">{args.limit:g} s ({ref_val} so far)"
        our_text = f"{ours:.3f} s ({our_val})" if ours_done else f">{args.limit:g} s"
        method = data.get("stats", {}).get("method", "")
        print(f"| {name} | {ref_text} | {our_text} | {common.ratio(ref, ours, ref_done, ours_done)} | {method} |", flush=True)


if __name__ == "__main__":
    main()
