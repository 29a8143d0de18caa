"""Writes data/chess/peaceable.csv and one optimal board a row (data/chess/peaceable/) from
quandary's own answers: `quandary chess peaceable N --json` (with --count where asked), for
peaceable queens on n×n. Every value is what the run proved; the seconds are that one run's
(a record, not a benchmark: docs/chess.md has the three-run figures). tests/chess.rs checks
every board against the verifier and the values against OEIS A250000 / A260680.

Usage: python3 bench/peaceable_table.py [--min N] [--max N] [--count-max N]
(rows of the file outside --min..--max are kept as they are)
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
          "optima", "optima_up_to_symmetry", "board"]


def run(n, count):
    args = [BIN, "chess", "peaceable", str(n), "--json"] + (["--count"] if count else [])
    started = time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    report = json.loads(out.stdout)
    if report.get("status") != "optimal":
        sys.exit(f"n = {n}: {report.get('status')}: {out.stdout[:300]}")
    return report, seconds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--min", type=int, default=1, help="the smallest side (default 1)")
    p.add_argument("--max", type=int, default=9, help="the largest side (default 9)")
    p.add_argument("--count-max", type=int, default=8,
                   help="count the optima up to this side (default 8)")
    a = p.parse_args()
    os.makedirs(BOARDS, exist_ok=True)
    rows = []
    if os.path.exists(CSV):
        with open(CSV, newline="") as f:
            rows = [r for r in csv.DictReader(f) if not a.min <= int(r["n"]) <= a.max]
    for n in range(a.min, a.max + 1):
        report, seconds = run(n, n <= a.count_max)
        board = f"peaceable/queens-{n}.txt"
        with open(os.path.join(BOARDS, f"queens-{n}.txt"), "w") as f:
            f.write(f"# {report['instance']}: m = {report['objective']}, proved; "
                    "W white, B black, . empty\n")
            f.write("\n".join(report["solution"]["rows"]) + "\n")
        rows.append({
            "piece": "Q", "armies": 2, "n": n, "m": report["objective"],
            "status": report["status"], "method": report["stats"]["method"],
            "seconds": f"{seconds:.2f}",
            "certificate": "rate in tests/certificates.rs" if 2 <= n <= 8 else "",
            "optima": report.get("count", ""), "optima_up_to_symmetry": report.get("classes", ""),
            "board": board,
        })
        print(n, rows[-1]["m"], rows[-1]["seconds"], rows[-1]["optima_up_to_symmetry"],
              flush=True)
    rows.sort(key=lambda r: int(r["n"]))
    with open(CSV, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
