"""The seeds' CP-SAT models and quandary's Python package in one Python process, on the same
instances: Tank Attack (a first board, every board), Gunport (the optimum), Battleship (a
solution and its uniqueness). What a reader of docs/python.md runs to see the ratios from
Python rather than from the command line.

    python3 bench/side_by_side.py [--limit SECS] [--runs 3]

It makes (or reuses) bench/.venv with OR-Tools, as the other scripts do, and installs the
package from python/ into it (a few minutes the first time). Each figure is the median of
`--runs` runs (min and max beside it); both sides run one after the other in this process,
each under the same time limit; CP-SAT with 2 workers (the machine's cores), quandary with
its defaults. Prints a Markdown table; ratio = CP-SAT / quandary (">" where CP-SAT hit the
limit).
"""

import argparse
import os
import statistics
import sys
import time

import common

common.ensure_ortools()
common.ensure_package("quandary", os.path.join(common.ROOT, "python"))

import quandary  # noqa: E402

import battleship  # noqa: E402  (the seeds' models, as the other scripts write them)
import gunport  # noqa: E402
import tank  # noqa: E402


def timed(f, runs):
    """(min, median, max) seconds of `runs` calls of f, and f's last answer."""
    times, answer = [], None
    for _ in range(runs):
        started = time.perf_counter()
        answer = f()
        times.append(time.perf_counter() - started)
    return (min(times), statistics.median(times), max(times)), answer


def span(t):
    lo, mid, hi = t
    return f"{mid:.3f} s ({lo:.3f}–{hi:.3f})"


def row(question, ref, ref_done, ref_answer, ours, our_answer, ours_done=True):
    ratio = ref[1] / max(ours[1], 1e-9)
    if not ours_done:
        shown = "both stopped" if not ref_done else f"<{ratio:.1f}×"
    else:
        shown = f"{'>' if not ref_done else ''}{ratio:.1f}×"
    print(f"| {question} | {span(ref)}, {ref_answer} | {span(ours)}, {our_answer} | {shown} |",
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    limit, runs = args.limit, args.runs
    print(f"Median of {runs} runs (min–max), one process, time limit {limit:g} s each.\n")
    print("| question | CP-SAT, seed's model | quandary (Python package) | ratio |")
    print("|---|---|---|---|")
    for n in (6, 7, 8):
        ref, (wall, done, answer) = timed(lambda: tank.cpsat(n, limit, False), runs)
        ours, r = timed(lambda: quandary.tank.solve(n, time_limit=limit), runs)
        row(f"Tank {n}×{n}, a first board", ref, done, answer, ours, r.status,
            r.status != "unknown")
    for n in (5, 6):
        ref, (wall, done, count) = timed(lambda: tank.cpsat(n, limit, True), runs)
        ours, r = timed(lambda: quandary.tank.count(n, time_limit=limit), runs)
        row(f"Tank {n}×{n}, every board", ref, done, f"{count} boards", ours,
            f"{r.count} boards", r.status != "unknown")
    for m, n in ((7, 7), (8, 8), (10, 10)):
        ref, (wall, done, value, bound) = timed(lambda: gunport.cpsat(m, n, limit), runs)
        ours, r = timed(lambda: quandary.gunport.solve(m, n, time_limit=limit), runs)
        row(f"Gunport {m}×{n}, the optimum", ref, done, f"{value} holes", ours,
            f"{r.objective} holes, {r.status}", r.status == "optimal")
    for name, file, instance in battleship.INSTANCES[:4]:
        puzzle = battleship.read(file, instance)
        ref, (first, both, answer) = timed(lambda: battleship.cpsat(puzzle, limit), runs)
        words = [os.path.join(battleship.DATA, file)]
        options = {"instance": instance} if instance else {}
        ours, r = timed(lambda: quandary.battleship.unique(*words, time_limit=limit, **options),
                        runs)
        said = "unique" if r.unique else ("not unique" if r.unique is False else r.status)
        row(f"Battleship {name}, unique?", ref, both is not None, answer, ours, said,
            r.unique is not None)


if __name__ == "__main__":
    sys.exit(main())
