"""The Python package's targets (issues 49 and 66), measured: the overhead of a call over the
library's own run (a trivial solve: `quandary.tank.count(3)`, whose run takes microseconds),
the same on a changed model (the chess seed's model without its attack rows, solved and counted
as changed, and a change made), the wheel's size, and how long the teacher's notebook takes to
run.

    python3 bench/python_targets.py [--calls 200] [--wheel] [--notebook]

Run it with the Python that has the package installed (e.g. a virtual environment where
`pip install ./python` ran); `--wheel` builds a wheel into a temporary directory with pip
(warm: the workspace's target directory is reused), `--notebook` needs nbclient, ipykernel
and pandas.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import quandary

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spread(xs, unit=1.0, fmt="{:.3f}"):
    xs = [x * unit for x in xs]
    return " / ".join(fmt.format(v) for v in (min(xs), statistics.median(xs), max(xs)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--wheel", action="store_true")
    ap.add_argument("--notebook", action="store_true")
    args = ap.parse_args()
    walls, runs = [], []
    quandary.tank.count(3)  # the first call loads the module's tables
    for _ in range(args.calls):
        started = time.perf_counter()
        r = quandary.tank.count(3)
        walls.append(time.perf_counter() - started)
        runs.append(r.stats["seconds"])
    over = [w - r for w, r in zip(walls, runs)]
    print(f"call overhead over the library's run, {args.calls} calls of tank.count(3), "
          f"min / median / max: {spread(over, 1000)} ms (the run itself: "
          f"{spread(runs, 1000)} ms; the call: {spread(walls, 1000)} ms)")
    # A changed model (issue 66): the chess seed without its attack family, solved and counted
    # on the model as changed (each run builds the formulation again and judges its answers:
    # the engine's own time, in `stats.seconds`), and one change made from Python.
    seed = os.path.join(ROOT, "data", "chess", "friedman-b4n2.txt")
    m = quandary.model("chess", seed)
    m.drop("attacker forces target empty")
    # (Its count is 13,860 solutions: counted up to 100 here.)
    asks = {"solve": lambda: m.solve(), "count": lambda: m.count(cap=100)}
    for verb, ask in asks.items():
        walls, runs = [], []
        ask()
        for _ in range(args.calls):
            started = time.perf_counter()
            r = ask()
            walls.append(time.perf_counter() - started)
            runs.append(r.stats["seconds"])
        over = [w - r for w, r in zip(walls, runs)]
        print(f"changed model's {verb}() overhead over its run, {args.calls} calls, min / median "
              f"/ max: {spread(over, 1000)} ms (the run itself: {spread(runs, 1000)} ms)")
    name = m.variables[0]["name"]
    changes = []
    for _ in range(args.calls):
        started = time.perf_counter()
        m.add_row([(1, name)], "<=", 1, family="a cut")
        changes.append(time.perf_counter() - started)
    print(f"a change (add_row) from Python, {args.calls} calls, min / median / max: "
          f"{spread(changes, 1000)} ms")
    if args.wheel:
        with tempfile.TemporaryDirectory() as d:
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", d,
                            os.path.join(ROOT, "python")], check=True)
            took = time.perf_counter() - started
            for name in os.listdir(d):
                size = os.path.getsize(os.path.join(d, name))
                print(f"wheel {name}: {size / 1e6:.1f} MB, built in {took:.0f} s (warm target)")
    if args.notebook:
        import nbclient
        import nbformat
        path = os.path.join(ROOT, "docs", "notebooks", "tour.ipynb")
        nb = nbformat.read(path, as_version=4)
        started = time.perf_counter()
        nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": os.path.dirname(path)}}).execute()
        print(f"the tour notebook ran in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
