"""CP-SAT on single deletion trials of an explanation: each file is one question the explaining
engine asked while shrinking a reason (the model as written, the rows of every element in the
trial, the trial's earlier conclusions as units, and the conclusion negated), written as OPB by
a temporary patch (bench/results/explain-trials-dump-2026-11-26.diff). The engine's own time
for each is in bench/results/explain-trials-2026-11-26.md.

    python3 bench/explain_trials.py bench/results/explain-trials-seed17/*.opb.gz --workers 1
    python3 bench/explain_trials.py bench/results/explain-trials-seed17/*.opb.gz --workers 8

Prints one line per file: CP-SAT's status and wall seconds.
"""

import argparse
import gzip
import os
import re
import time

import common

common.ensure_ortools()

from ortools.sat.python import cp_model  # noqa: E402

ROW = re.compile(r"(.*?)(>=|<=|=)\s*(-?\d+)$")


def load(path):
    """A CP-SAT model of an OPB file (linear rows over 0-1 variables, `~x` for a negation)."""
    model = cp_model.CpModel()
    xs = {}

    def var(i):
        if i not in xs:
            xs[i] = model.NewBoolVar(f"x{i}")
        return xs[i]

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
            expr = 0
            for coef, name in zip(toks[0::2], toks[1::2]):
                x = var(int(name.lstrip("~x")))
                expr += int(coef) * (x.Not() if name.startswith("~") else x)
            rhs = int(m.group(3))
            if m.group(2) == ">=":
                model.Add(expr >= rhs)
            elif m.group(2) == "<=":
                model.Add(expr <= rhs)
            else:
                model.Add(expr == rhs)
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args()
    for path in args.files:
        solver, status, secs = common.timed_solve(load(path), args.limit, args.workers)
        print(f"{os.path.basename(path)}  {solver.StatusName(status)}  {secs:.2f} s", flush=True)


if __name__ == "__main__":
    main()
