"""Tank Attack: the seed's CP-SAT model side by side with quandary on the same n.

    python3 bench/tank.py [--limit SECS] [--first 4..10] [--count 4..6]
    python3 bench/tank.py --curve 8..20 [--limit SECS]
    python3 bench/tank.py --givens [--runs 3] [--limit SECS]

--curve: for each n, `quandary tank solve n` and the seed's CP-SAT model (2 workers), each in a
process of its own under /usr/bin/time: wall time, peak memory (maximum resident set), the
answer, and quandary's SAT engine size.

--givens: puzzles with givens (values fixed at some cells, as a setter gives them), counted by
the seed's CP-SAT model with the givens added, by quandary's default (`auto`: the consistent
search for sides 5 to 8 with givens) and by its line search (`--method exact`); min / median /
max of --runs runs each. The givens are drawn (seeded) from the seed's published 6×6 board, the
quarter-turn 8×8 board of docs/tank.md, and for 7×7 (no board exists) a fixed set.

Otherwise prints a Markdown table: time to a first board (or a proof that none exists) and time to count
every board, for both, and the ratio CP-SAT time / quandary time. A '>' ratio means CP-SAT hit
the time limit, so the true ratio is larger.
"""

import argparse
import time

import common

common.ensure_ortools()

from ortools.sat.python import cp_model  # noqa: E402


def seed_model(n, givens=()):
    """The seed's formulation (chapter 26), written out here: one-hot values, attackers = value;
    givens (row, column, value), 0-based, fix cells."""
    m = cp_model.CpModel()
    ks = range(1, n)
    x = {(i, j, k): m.NewBoolVar(f"x{i}_{j}_{k}") for i in range(n) for j in range(n) for k in ks}
    for i in range(n):
        for j in range(n):
            m.AddExactlyOne(x[i, j, k] for k in ks)
            hits = [x[i, p, abs(j - p)] for p in range(n) if p != j]
            hits += [x[q, j, abs(i - q)] for q in range(n) if q != i]
            m.Add(sum(hits) == sum(k * x[i, j, k] for k in ks))
    for i, j, v in givens:
        m.Add(x[i, j, v] == 1)
    return m, x


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self):
        super().__init__()
        self.count = 0

    def on_solution_callback(self):
        self.count += 1


def cpsat(n, limit, count, givens=()):
    m, _ = seed_model(n, givens)
    s = cp_model.CpSolver()
    s.parameters.max_time_in_seconds = limit
    start = time.perf_counter()
    if count:
        s.parameters.enumerate_all_solutions = True
        cb = Counter()
        st = s.Solve(m, cb)
        wall = time.perf_counter() - start
        done = st in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        return wall, done, cb.count
    s.parameters.num_workers = 2
    st = s.Solve(m)
    wall = time.perf_counter() - start
    done = st in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return wall, done, {cp_model.INFEASIBLE: "infeasible"}.get(st, "solved" if done else "unknown")


def peak(cmd):
    """Runs `cmd` under /usr/bin/time; returns (stdout, wall seconds, peak memory in MB)."""
    import subprocess

    start = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-f", "PEAK %M"] + cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    kb = [int(l.split()[1]) for l in out.stderr.splitlines() if l.startswith("PEAK ")]
    return out.stdout, wall, (kb[-1] / 1024 if kb else float("nan"))


CPSAT_ONE = """
import sys, time
sys.path.insert(0, {here!r})
import tank
wall, done, status = tank.cpsat({n}, {limit}, count=False)
print(status if done else "unknown")
"""


def curve(ns, limit):
    import json
    import os
    import sys

    print(f"Time limit {limit:g} s per run; peak = maximum resident set of the process.\n")
    print("| n | quandary | peak | SAT engine (vars / clauses) | method | CP-SAT (seed model) | peak |")
    print("|--:|---|--:|---|---|---|--:|")
    for n in ns:
        out, wall, mb = peak([common.BINARY, "tank", "solve", str(n), "--json", "--time-limit", str(limit)])
        d = json.loads(out) if out.strip() else {}
        st = d.get("status", "error")
        eng = d.get("stats", {}).get("engine") or {}
        size = f"{eng.get('variables', 0):,} / {eng.get('clauses', 0):,}" if eng else "–"
        method = d.get("stats", {}).get("method", "")
        code = CPSAT_ONE.format(here=common.HERE, n=n, limit=limit)
        cout, cwall, cmb = peak([sys.executable, "-c", code])
        cst = (cout.strip().splitlines() or ["error"])[-1]
        print(
            f"| {n} | {wall:.1f} s {st} | {mb:.0f} MB | {size} | {method} | {cwall:.1f} s {cst} | {cmb:.0f} MB |",
            flush=True,
        )


SEED_SIX = ["2 2 2 2 2 2", "2 2 2 2 2 2", "2 2 4 4 2 2", "2 2 4 4 2 2", "2 2 2 2 2 2", "2 2 2 2 2 2"]
QUARTER_EIGHT = [
    "3 1 3 1 3 3 1 3", "1 4 4 3 1 3 4 1", "3 3 1 3 6 1 4 3", "3 1 6 2 2 3 3 1",
    "1 3 3 2 2 6 1 3", "3 4 1 6 3 1 3 3", "1 4 3 1 3 4 4 1", "3 1 3 3 1 3 1 3",
]
SEVEN = [(0, 0, 1), (0, 1, 3), (0, 2, 2), (1, 0, 3), (3, 3, 2), (4, 4, 1), (6, 6, 3), (2, 5, 2)]


def drawn(board, k, seed):
    """k cells of a board, drawn with a seeded generator: (row, column, value), 0-based."""
    import random
    rows = [[int(v) for v in r.split()] for r in board]
    n = len(rows)
    cells = random.Random(seed).sample(range(n * n), k)
    return [(c // n, c % n, rows[c // n][c % n]) for c in sorted(cells)]


def givens_table(runs, limit):
    cases = [(6, drawn(SEED_SIX, k, 1)) for k in (3, 5, 8)]
    cases.append((7, SEVEN))
    cases += [(8, drawn(QUARTER_EIGHT, k, 1)) for k in (12, 16, 20)]
    print(f"Time limit {limit:g} s per run; {runs} runs of each quandary method (min / median / max).\n")
    print("| n | givens | CP-SAT seed model | quandary auto | method | quandary line search | CP-SAT / auto |")
    print("|---|---|---|---|---|---|---|")
    for n, g in cases:
        fix = " ".join(f"{i + 1},{j + 1}={v}" for i, j, v in g)
        ref, ref_done, ref_count = cpsat(n, limit, True, g)
        ref_text = f"{ref:.2f} s ({ref_count})" if ref_done else f">{limit:g} s ({ref_count} so far)"

        def ours(extra):
            times, answer, method = [], None, ""
            for _ in range(runs):
                status, wall, data = common.quandary(["tank", "count", str(n), "--fix", fix] + extra, limit)
                times.append(wall)
                method = data.get("stats", {}).get("method", "")
                answer = data.get("count") if status != "unknown" else None
                if answer is None:
                    break
            times.sort()
            if answer is None:
                return f">{limit:g} s", False, times[0], method
            return (f"{times[0]:.2f} / {times[len(times) // 2]:.2f} / {times[-1]:.2f} s ({answer})",
                    True, times[len(times) // 2], method)

        auto_text, auto_done, auto_mid, method = ours([])
        line_text, _, _, _ = ours(["--method", "exact"])
        print(f"| {n} | {len(g)}: `{fix}` | {ref_text} | {auto_text} | {method} | {line_text} | "
              f"{common.ratio(ref, auto_mid, ref_done, auto_done)} |", flush=True)


def span(text):
    a, b = text.split("..")
    return range(int(a), int(b) + 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=120.0)
    ap.add_argument("--first", default="4..10")
    ap.add_argument("--count", default="4..6")
    ap.add_argument("--curve", default="", help="e.g. 8..20: time and peak memory per n")
    ap.add_argument("--givens", action="store_true", help="puzzles with givens (see above)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    common.build()
    if args.givens:
        return givens_table(args.runs, args.limit)
    if args.curve:
        return curve(span(args.curve), args.limit)
    print(f"CP-SAT time limit {args.limit:g} s per run; quandary the same.\n")
    print("| n | task | CP-SAT (seed model) | quandary | ratio | quandary method |")
    print("|---|---|---|---|---|---|")
    for n in span(args.first):
        ref, ref_done, ref_status = cpsat(n, args.limit, count=False)
        status, ours, data = common.quandary(["tank", "solve", str(n)], args.limit)
        ours_done = status != "unknown"
        ref_text = f"{ref:.2f} s {ref_status}" if ref_done else f">{args.limit:g} s"
        our_text = f"{ours:.2f} s {status}" if ours_done else f">{args.limit:g} s"
        method = data.get("stats", {}).get("method", "")
        print(f"| {n} | first board | {ref_text} | {our_text} | {common.ratio(ref, ours, ref_done, ours_done)} | {method} |", flush=True)
    for n in span(args.count):
        ref, ref_done, ref_count = cpsat(n, args.limit, count=True)
        status, ours, data = common.quandary(["tank", "count", str(n)], args.limit)
        ours_done = status != "unknown"
        ref_text = f"{ref:.2f} s ({ref_count})" if ref_done else f">{args.limit:g} s ({ref_count} so far)"
        our_text = f"{ours:.2f} s ({data.get('count')})" if ours_done else f">{args.limit:g} s"
        method = data.get("stats", {}).get("method", "")
        print(f"| {n} | count | {ref_text} | {our_text} | {common.ratio(ref, ours, ref_done, ours_done)} | {method} |", flush=True)


if __name__ == "__main__":
    main()
