"""Writes data/chess/peaceable.csv and one optimal board a row (data/chess/peaceable/) from
quandary's own answers: `quandary chess peaceable N --type T --armies K --json` (with --count
where asked), on n×n. Every value is what the run proved; the seconds are that one run's (a
record, not a benchmark: docs/chess.md has the three-run figures). tests/chess.rs checks every
board against the verifier and the values against OEIS A250000 / A260680 / A306954 / A328283.

Usage: python3 bench/peaceable_table.py [--type Q] [--armies 2] [--min N] [--max N]
       [--count-max N] [--time-limit S]
(rows of the file for other pieces, armies or sides are kept as they are; a side not proved
within the time limit is left out and said)
(release binary built: cargo build --release)."""

import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "quandary")
CSV = os.path.join(ROOT, "data", "chess", "peaceable.csv")
BOARDS = os.path.join(ROOT, "data", "chess", "peaceable")
FIELDS = ["piece", "armies", "n", "m", "status", "method", "seconds", "certificate",
          "optima", "optima_up_to_symmetry", "board", "published"]
NAMES = {"Q": "queens", "R": "rooks", "B": "bishops", "N": "knights", "K": "kings"}

# What OEIS gives, read 2026-11-29: A306954 (T(n, k), k armies of queens; 23 terms: rows
# n = 1..6 and T(7,1), T(7,2)) and A328283 (three armies, n = 1..14).
A306954 = {(1, 1): 1, (2, 1): 4, (2, 2): 0, (3, 1): 9, (3, 2): 1, (3, 3): 0, (4, 1): 16,
           (4, 2): 2, (4, 3): 1, (4, 4): 1, (5, 1): 25, (5, 2): 4, (5, 3): 1, (5, 4): 1,
           (5, 5): 1, (6, 1): 36, (6, 2): 5, (6, 3): 2, (6, 4): 1, (6, 5): 1, (6, 6): 1,
           (7, 1): 49, (7, 2): 7}
A328283 = [0, 0, 0, 1, 1, 2, 3, 4, 5, 7, 8, 10, 12, 14]
# A355509 (two armies of knights), its first terms; its formula floor((n-1)^2/2) for n > 6 is
# stated there without proof.
A355509 = [0, 2, 3, 6, 10, 14, 18, 24, 32, 40, 50, 60]


def published(piece, armies, n):
    """What OEIS publishes for this row, or why nothing."""
    if piece == "N" and armies == 2 and n <= len(A355509):
        closed = " (its closed form for n > 6, stated without proof)" if n > 6 else ""
        return f"A355509: {A355509[n - 1]}{closed}"
    if piece != "Q":
        return ""
    if armies == 2:
        return "A250000"
    if armies == 3 and n <= len(A328283):
        return f"A328283: {A328283[n - 1]}"
    if (n, armies) in A306954:
        return f"A306954: {A306954[(n, armies)]}"
    if armies == n > 3:
        return "A306954's comment: T(n, n) = 1 for n > 3"
    return "not found published (A306954 has 23 terms)"


def run(n, piece, armies, count, limit):
    args = [BIN, "chess", "peaceable", str(n), "--type", piece, "--armies", str(armies),
            "--json", "--time-limit", str(limit)] + (["--count"] if count else [])
    started = time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    report = json.loads(out.stdout)
    return report, seconds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--min", type=int, default=1, help="the smallest side (default 1)")
    p.add_argument("--max", type=int, default=9, help="the largest side (default 9)")
    p.add_argument("--count-max", type=int, default=8,
                   help="count the optima up to this side (default 8; two armies only)")
    p.add_argument("--type", default="Q", choices=sorted(NAMES), help="the piece (default Q)")
    p.add_argument("--armies", type=int, default=2, help="the number of armies (default 2)")
    p.add_argument("--time-limit", type=int, default=3600,
                   help="seconds a side may take (default 3600)")
    p.add_argument("--report", help="take the one side --min from this saved JSON report of "
                   "`quandary chess peaceable ... --json` instead of running it (its own "
                   "stats.seconds are the row's)")
    a = p.parse_args()
    os.makedirs(BOARDS, exist_ok=True)
    rows = []
    mine = lambda r: (r["piece"], int(r["armies"])) == (a.type, a.armies)
    if os.path.exists(CSV):
        with open(CSV, newline="") as f:
            rows = [r for r in csv.DictReader(f)
                    if not (mine(r) and a.min <= int(r["n"]) <= a.max)]
    for n in range(a.min, a.max + 1):
        count = a.armies == 2 and n <= a.count_max
        if a.report:
            with open(a.report) as f:
                report = json.load(f)
            seconds = report["stats"]["seconds"]
        else:
            report, seconds = run(n, a.type, a.armies, count, a.time_limit)
        if report.get("status") != "optimal":
            print(f"n = {n}: {report.get('status')} after {seconds:.0f} s: left out", flush=True)
            continue
        name = NAMES[a.type] + ("" if a.armies == 2 else f"-{a.armies}-armies") + f"-{n}.txt"
        board = f"peaceable/{name}"
        with open(os.path.join(BOARDS, name), "w") as f:
            f.write(f"# {report['instance']}: m = {report['objective']}, proved; "
                    + ("W white, B black" if a.armies == 2 else
                       "one letter an army (W, B, R, G, Y, O, P, C, M, T)")
                    + ", . empty\n")
            f.write("\n".join(report["solution"]["rows"]) + "\n")
        certified = a.type == "Q" and a.armies == 2 and 2 <= n <= 8
        rows.append({
            "piece": a.type, "armies": a.armies, "n": n, "m": report["objective"],
            "status": report["status"], "method": report["stats"]["method"],
            "seconds": f"{seconds:.2f}",
            "certificate": "rate in tests/certificates.rs" if certified else "",
            "optima": report.get("count", ""), "optima_up_to_symmetry": report.get("classes", ""),
            "board": board, "published": published(a.type, a.armies, n),
        })
        print(n, rows[-1]["m"], rows[-1]["seconds"], rows[-1]["optima_up_to_symmetry"],
              flush=True)
    order = {p: i for i, p in enumerate(NAMES)}
    rows.sort(key=lambda r: (order[r["piece"]], int(r["armies"]), int(r["n"])))
    for r in rows:
        r["published"] = published(r["piece"], int(r["armies"]), int(r["n"]))
    with open(CSV, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
