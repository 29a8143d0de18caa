"""Other SAT solvers and cardinality encodings on single deletion trials of an explanation
(the OPB files of bench/explain_trials.py): whether some solver or some CNF of the counting rows
refutes them much faster than the explaining engine does. Every row of these files has
coefficients of 1 or -1: a cardinality row. PySAT supplies the solvers and the encodings.

    python3 bench/explain_trials_sat.py bench/results/explain/explain-trials-seed17/*.opb.gz
    python3 bench/explain_trials_sat.py --runs cadical195:seqcounter,gluecard4:native FILES

Prints one line per file and solver: the answer (sat, unsat, stopped) and wall seconds of a
fresh solver (nothing learnt before), with a limit per solve (--limit, 30 s).
"""

import argparse
import os
import threading
import time

import common

common.ensure_pysat()

from pysat.card import CardEnc, EncType  # noqa: E402
from pysat.formula import IDPool  # noqa: E402
from pysat.solvers import Solver  # noqa: E402

from explain_trials import rows  # noqa: E402

DEFAULT = ("cadical195:seqcounter,cadical195:totalizer,cadical195:kmtotalizer,"
           "cadical195:cardnetwrk,kissat404:seqcounter,gluecard4:native")


def cardinality_rows(path):
    """Each row as (literals, sense, bound) over +-1 coefficients: -1 x is (1 - x) - 1, so
    it becomes the literal -x with the bound raised by one."""
    for terms, sense, rhs in rows(path):
        lits, bound = [], rhs
        for c, i, neg in terms:
            if abs(c) != 1:
                raise SystemExit(f"{path}: a coefficient {c}: not a cardinality row")
            lit = -i if neg else i
            if c == 1:
                lits.append(lit)
            else:
                lits.append(-lit)
                bound += 1
        yield lits, sense, bound


def load(path, encoding):
    """Clauses, and the rows left to the solver ("native": its own at-most constraints)."""
    rs = list(cardinality_rows(path))
    top = max((abs(l) for lits, _, _ in rs for l in lits), default=0)
    pool = IDPool(start_from=top + 1)
    clauses, native = [], []

    def at_most(lits, k):
        if k >= len(lits):
            return
        if k < 0:
            clauses.append([])
        elif k == 0:
            clauses.extend([-l] for l in lits)
        elif encoding == "native":
            native.append((lits, k))
        else:
            enc = getattr(EncType, encoding)
            clauses.extend(CardEnc.atmost(lits, bound=k, vpool=pool, encoding=enc).clauses)

    for lits, sense, k in rs:
        if sense in ("<=", "="):
            at_most(lits, k)
        if sense in (">=", "="):
            # At least k of lits: at most n - k of their negations.
            if k == 1:
                clauses.append(list(lits))
            else:
                at_most([-l for l in lits], len(lits) - k)
    return clauses, native


def solve(path, solver, encoding, limit):
    clauses, native = load(path, encoding)
    with Solver(name=solver, bootstrap_with=clauses) as s:
        for lits, k in native:
            s.add_atmost(lits, k)
        timer = threading.Timer(limit, s.interrupt)
        timer.start()
        start = time.perf_counter()
        answer = s.solve_limited(expect_interrupt=True)
        wall = time.perf_counter() - start
        timer.cancel()
    return {True: "sat", False: "unsat", None: "stopped"}[answer], wall, len(clauses)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--runs", default=DEFAULT, help="solver:encoding,...")
    ap.add_argument("--limit", type=float, default=30.0)
    args = ap.parse_args()
    for path in args.files:
        for run in args.runs.split(","):
            solver, encoding = run.split(":")
            answer, wall, n = solve(path, solver, encoding, args.limit)
            print(f"{os.path.basename(path)}  {solver} {encoding}  {answer}  {wall:.2f} s  "
                  f"({n} clauses)", flush=True)


if __name__ == "__main__":
    main()
