"""Gunport: the seed's CP-SAT monomino model side by side with quandary on the same boards.

    python3 bench/gunport.py [--limit SECS] [--boards 5x5,8x8,...]
    python3 bench/gunport.py --reach 19x19:119 [--limit SECS]

Prints a Markdown table of the time to a proved optimum for both and the ratio
CP-SAT time / quandary time ('>' when CP-SAT hit its limit). With --reach, the question is
whether some packing leaves at least H holes: CP-SAT gets the seed's model with
sum(holes) >= H, quandary runs `gunport reach --method budget`.
"""

import argparse

import common

common.ensure_ortools()

from ortools.sat.python import cp_model  # noqa: E402


def seed_model(m, n, at_least=None):
    """The seed's monomino model (chapter 29), written out here; with `at_least`, the
    objective becomes the constraint sum(holes) >= at_least."""
    M = cp_model.CpModel()
    hole = {(r, c): M.NewBoolVar(f"mu{r}_{c}") for r in range(m) for c in range(n)}
    h = {(r, c): M.NewBoolVar(f"h{r}_{c}") for r in range(m) for c in range(n - 1)}
    v = {(r, c): M.NewBoolVar(f"v{r}_{c}") for r in range(m - 1) for c in range(n)}
    for r in range(m):
        for c in range(n):
            cover = [hole[r, c]]
            cover += [h[r, c]] if c < n - 1 else []
            cover += [h[r, c - 1]] if c > 0 else []
            cover += [v[r, c]] if r < m - 1 else []
            cover += [v[r - 1, c]] if r > 0 else []
            M.AddExactlyOne(cover)
            if c < n - 1:
                M.Add(hole[r, c] + hole[r, c + 1] <= 1)
            if r < m - 1:
                M.Add(hole[r, c] + hole[r + 1, c] <= 1)
    if at_least is None:
        M.Maximize(sum(hole.values()))
    else:
        M.Add(sum(hole.values()) >= at_least)
    return M


def cpsat(m, n, limit):
    s, st, wall = common.timed_solve(seed_model(m, n), limit)
    done = st == cp_model.OPTIMAL
    return wall, done, round(s.ObjectiveValue()), round(s.BestObjectiveBound())


def cpsat_reach(m, n, holes, limit):
    _, st, wall = common.timed_solve(seed_model(m, n, at_least=holes), limit)
    return wall, {cp_model.INFEASIBLE: "infeasible", cp_model.FEASIBLE: "solved",
                  cp_model.OPTIMAL: "solved"}.get(st, "unknown")


def reach(spec, limit):
    board, holes = spec.split(":")
    m, n = (int(x) for x in board.split("x"))
    holes = int(holes)
    print(f"Time limit {limit:g} s per run for both.\n")
    print("| question | CP-SAT (seed model + sum >= H) | quandary (reach --method budget) | ratio |")
    print("|---|---|---|---|")
    ref, ref_status = cpsat_reach(m, n, holes, limit)
    status, ours, data = common.quandary(
        ["gunport", "reach", str(m), str(n), "--holes", str(holes), "--method", "budget"], limit)
    ref_done = ref_status != "unknown"
    ours_done = status != "unknown"
    ref_text = f"{ref_status}, {ref:.1f} s" if ref_done else f"unknown at {limit:g} s"
    our_text = f"{status}, {ours:.1f} s" if ours_done else f"unknown at {limit:g} s"
    print(f"| {m}×{n}, at least {holes} holes | {ref_text} | {our_text} | "
          f"{common.ratio(ref, ours, ref_done, ours_done)} |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=120.0)
    ap.add_argument("--boards", default="5x5,7x7,8x8,10x10,11x11,12x12,13x13,14x14")
    ap.add_argument("--reach", help="MxN:H, e.g. 19x19:119")
    args = ap.parse_args()
    common.build()
    if args.reach:
        return reach(args.reach, args.limit)
    print(f"Time limit {args.limit:g} s per run for both.\n")
    print("| board | CP-SAT (seed model) | quandary (strong) | ratio | quandary method |")
    print("|---|---|---|---|---|")
    for b in args.boards.split(","):
        m, n = (int(x) for x in b.split("x"))
        ref, ref_done, ref_val, ref_bound = cpsat(m, n, args.limit)
        status, ours, data = common.quandary(["gunport", "solve", str(m), str(n)], args.limit)
        ours_done = status == "optimal"
        ref_text = f"{ref:.2f} s, {ref_val}" if ref_done else f">{args.limit:g} s ({ref_val}, bound {ref_bound})"
        our_text = f"{ours:.2f} s, {data.get('objective')}" if ours_done else f">{args.limit:g} s"
        method = data.get("stats", {}).get("method", "")
        print(f"| {m}×{n} | {ref_text} | {our_text} | {common.ratio(ref, ours, ref_done, ours_done)} | {method} |", flush=True)


if __name__ == "__main__":
    main()
