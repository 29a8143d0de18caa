"""CP-SAT on single deletion trials of an explanation: each file is one question the explaining
engine asked while shrinking a reason (the model as written, the rows of every element in the
trial, the trial's earlier conclusions as units, and the conclusion negated), written as OPB by
a temporary patch (bench/results/explain/dropped/explain-trials-dump-2026-11-26.diff). The engine's own time
for each is in bench/results/explain/explain-trials-2026-11-26.md.

    python3 bench/explain_trials.py bench/results/explain/explain-trials-seed17/*.opb.gz --workers 1
    python3 bench/explain_trials.py bench/results/explain/explain-trials-seed17/*.opb.gz --workers 8
    python3 bench/explain_trials.py bench/results/explain/explain-trials-seed17/*.opb.gz --lp
    python3 bench/explain_trials.py bench/results/explain/explain-trials-seed17/*.opb.gz --mip scip
    python3 bench/explain_trials.py bench/results/explain/explain-trials-seed17/*.opb.gz --mip highs
    python3 bench/explain_trials.py bench/results/explain/explain-trials-seed17/*.opb.gz --exact

Prints one line per file: CP-SAT's status and wall seconds; with `--lp`, whether the linear
relaxation (every variable in [0, 1], GLOP) is feasible: an infeasible relaxation would refute
the trial without any search; with `--mip`, the status and seconds of a MIP solver (SCIP by
pyscipopt, or HiGHS by highspy, one thread; installed into the harness's venv on first use);
with `--exact`, the status and seconds of Exact, a pseudo-Boolean solver that learns by cutting
planes (division and saturation of linear rows) where a SAT solver learns clauses: the kind of
reasoning that proves counting arguments in few steps, when any does.
"""

import argparse
import gzip
import os
import re
import time

import common

common.ensure_ortools()

from ortools.linear_solver import pywraplp  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

ROW = re.compile(r"(.*?)(>=|<=|=)\s*(-?\d+)$")


def rows(path):
    """The rows of an OPB file: (terms, sense, rhs), each term (coefficient, variable,
    negated) for `c x` or `c ~x`."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("*") or line.startswith(("min:", "max:")):
                continue
            m = ROW.match(line.rstrip(";").strip())
            if not m:
                raise SystemExit(f"{path}:{n}: not an OPB row: {line[:60]}")
            toks = m.group(1).split()
            terms = [(int(c), int(name.lstrip("~x")), name.startswith("~"))
                     for c, name in zip(toks[0::2], toks[1::2])]
            yield terms, m.group(2), int(m.group(3))


def load(path):
    """A CP-SAT model of an OPB file (linear rows over 0-1 variables, `~x` for a negation)."""
    model = cp_model.CpModel()
    xs = {}

    def var(i):
        if i not in xs:
            xs[i] = model.NewBoolVar(f"x{i}")
        return xs[i]

    for terms, sense, rhs in rows(path):
        expr = sum(c * (var(i).Not() if neg else var(i)) for c, i, neg in terms)
        if sense == ">=":
            model.Add(expr >= rhs)
        elif sense == "<=":
            model.Add(expr <= rhs)
        else:
            model.Add(expr == rhs)
    return model


def linear(terms, rhs):
    """An OPB row over plain variables: c ~x is c - c x, so the constants move to the
    right-hand side. Returns ([(coefficient, variable)], right-hand side)."""
    shift = sum(c for c, _, neg in terms if neg)
    return [(-c if neg else c, i) for c, i, neg in terms], rhs - shift


def relaxation_feasible(path):
    """Whether the OPB file's linear relaxation has a point, by GLOP; and its seconds."""
    lp = pywraplp.Solver.CreateSolver("GLOP")
    xs = {}
    for terms, sense, rhs in rows(path):
        coefs, bound = linear(terms, rhs)
        lo = bound if sense in (">=", "=") else -lp.infinity()
        hi = bound if sense in ("<=", "=") else lp.infinity()
        row = lp.Constraint(lo, hi)
        for c, i in coefs:
            if i not in xs:
                xs[i] = lp.NumVar(0, 1, f"x{i}")
            row.SetCoefficient(xs[i], row.GetCoefficient(xs[i]) + c)
    start = time.time()
    status = lp.Solve()
    return status, time.time() - start


def mip(path, which, limit):
    """The OPB file as a 0-1 program on SCIP or HiGHS: (status, wall seconds)."""
    module = {"scip": "pyscipopt", "highs": "highspy"}[which]
    common.ensure_package(module, module)
    parsed = list(rows(path))
    if which == "scip":
        import pyscipopt
        m = pyscipopt.Model()
        m.hideOutput()
        m.setParam("limits/time", limit)
        m.setParam("parallel/maxnthreads", 1)
        new = lambda i: m.addVar(vtype="B", name=f"x{i}")  # noqa: E731
        add = m.addCons
    else:
        import highspy
        m = highspy.Highs()
        m.setOptionValue("output_flag", False)
        m.setOptionValue("time_limit", float(limit))
        m.setOptionValue("threads", 1)
        new = lambda i: m.addBinary()  # noqa: E731
        add = m.addConstr
    xs = {}
    for terms, sense, rhs in parsed:
        coefs, bound = linear(terms, rhs)
        expr = 0
        for c, i in coefs:
            if i not in xs:
                xs[i] = new(i)
            expr = expr + c * xs[i]
        add(expr >= bound if sense == ">=" else expr <= bound if sense == "<=" else expr == bound)
    start = time.time()
    if which == "scip":
        m.optimize()
        status = m.getStatus()
    else:
        m.run()
        status = m.modelStatusToString(m.getModelStatus())
    return status, time.time() - start


def cutting_planes(path, limit):
    """The OPB file on Exact (one thread; installed on first use): (status, wall seconds)."""
    common.ensure_package("exact", "exact")
    from exact import Exact

    solver = Exact()
    names = set()
    for terms, sense, rhs in rows(path):
        coefs, bound = linear(terms, rhs)
        for _, i in coefs:
            if i not in names:
                names.add(i)
                solver.addVariable(f"x{i}")
        row = [(c, f"x{i}") for c, i in coefs]
        solver.addConstraint(row, sense in (">=", "="), bound, sense in ("<=", "="), bound)
    start = time.time()
    status = solver.runFull(False, limit)
    return status, time.time() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--lp", action="store_true", help="the linear relaxation only (GLOP)")
    ap.add_argument("--mip", choices=["scip", "highs"], help="a MIP solver instead of CP-SAT")
    ap.add_argument("--exact", action="store_true", help="Exact (cutting planes) instead of CP-SAT")
    args = ap.parse_args()
    for path in args.files:
        if args.exact:
            status, secs = cutting_planes(path, args.limit)
            print(f"{os.path.basename(path)}  exact  {status}  {secs:.2f} s", flush=True)
            continue
        if args.mip:
            status, secs = mip(path, args.mip, args.limit)
            print(f"{os.path.basename(path)}  {args.mip}  {status}  {secs:.2f} s", flush=True)
            continue
        if args.lp:
            status, secs = relaxation_feasible(path)
            name = {pywraplp.Solver.OPTIMAL: "relaxation feasible",
                    pywraplp.Solver.INFEASIBLE: "relaxation INFEASIBLE"}.get(status, f"status {status}")
            print(f"{os.path.basename(path)}  {name}  {secs:.2f} s", flush=True)
            continue
        solver, status, secs = common.timed_solve(load(path), args.limit, args.workers)
        print(f"{os.path.basename(path)}  {solver.StatusName(status)}  {secs:.2f} s", flush=True)


if __name__ == "__main__":
    main()
