"""Shared pieces of the benchmark harness: a private virtual environment with OR-Tools, and
running quandary with --json."""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(HERE, ".venv")
# QUANDARY_BIN times another build side by side (with --no-build), e.g. one before a change.
BINARY = os.environ.get("QUANDARY_BIN") or os.path.join(ROOT, "target", "release", "quandary")


def ensure_ortools():
    """Re-runs this script inside bench/.venv, creating it and installing ortools if needed."""
    py = os.path.join(VENV, "bin", "python")
    if os.path.abspath(sys.prefix) == os.path.abspath(VENV):
        return
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "ortools"], check=True)
    os.execv(py, [py] + sys.argv)


def ensure_package(module, package):
    """Installs `package` from PyPI into the running environment (bench/.venv, after
    ensure_ortools) unless `module` imports already."""
    import importlib
    try:
        importlib.import_module(module)
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", package], check=True)


def ensure_pysat():
    """As ensure_ortools, and python-sat (PySAT: CaDiCaL, Kissat, Gluecard and cardinality
    encodings) installed in the same environment."""
    ensure_ortools()
    ensure_package("pysat", "python-sat")


def timed_solve(model, limit, workers=2):
    """Solves a CP-SAT model under a time limit; returns (solver, status, wall seconds)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = limit
    solver.parameters.num_workers = workers
    start = time.perf_counter()
    status = solver.Solve(model)
    return solver, status, time.perf_counter() - start


def build():
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)


def quandary(args, time_limit):
    """Runs quandary with --json; returns (status, wall seconds, parsed JSON)."""
    start = time.perf_counter()
    out = subprocess.run(
        [BINARY] + args + ["--json", "--time-limit", str(time_limit)],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    data = json.loads(out.stdout) if out.stdout.strip() else {}
    return data.get("status", "error"), wall, data


def ratio(reference, ours, reference_done, ours_done):
    """reference / ours, with '>' when the reference hit its limit."""
    if not ours_done:
        return "n/a"
    r = reference / max(ours, 1e-3)
    return (">" if not reference_done else "") + f"{r:.1f}x"
