"""`quandary gunport solve M N` on every board of a range whose sides 3 divides neither (the
boards Sands' construction does not settle at once), each in a process of its own under
/usr/bin/time: seconds, peak memory, whether it proved the optimum and drew a packing, and the
optimum against data/gunport/rectangles.csv.

    python3 bench/gunport_solve.py --widths 14..20 --max-n 40 --limit 60 [--runs 3]
"""

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

import common


def span(text):
    a, _, b = text.partition("..")
    return range(int(a), int(b or a) + 1)


def run(m, n, limit):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        p = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", "-o", t.name, common.BINARY, "gunport", "solve",
             str(m), str(n), "--json", "--time-limit", str(limit)],
            capture_output=True, text=True)
        wall, kb = t.read().split()[-2:]
    d = json.loads(p.stdout) if p.stdout.strip() else {}
    # A packing may hold no domino (1×1: one hole).
    drawn = d.get("solution") is not None
    return float(wall), int(kb) / 1024, d.get("status"), d.get("objective"), drawn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--widths", default="14..20")
    ap.add_argument("--max-n", type=int, default=40)
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    common.build()
    known = {}
    with open(os.path.join(common.ROOT, "data", "gunport", "rectangles.csv")) as f:
        for row in csv.DictReader(f):
            known[(int(row["m"]), int(row["n"]))] = int(row["optimum"])
    print("| board | seconds (min / median / max) | peak MB | answer | packing | table |")
    print("|---|---|---|---|---|---|")
    worst = (0.0, None)
    bad = 0
    for m in span(args.widths):
        for n in range(m, args.max_n + 1):
            if m % 3 == 0 or n % 3 == 0:
                continue
            runs = [run(m, n, args.limit) for _ in range(args.runs)]
            secs = sorted(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            status, obj, drawn = runs[-1][2], runs[-1][3], runs[-1][4]
            agree = obj == known.get((m, n))
            bad += 0 if (status == "optimal" and agree and drawn) else 1
            if secs[-1] > worst[0]:
                worst = (secs[-1], f"{m}×{n}")
            print(f"| {m}×{n} | {secs[0]:.1f} / {statistics.median(secs):.1f} / {secs[-1]:.1f}"
                  f" | {peak:.0f} | {status} {obj} | {'drawn' if drawn else 'none'}"
                  f" | {'agrees' if agree else 'DIFFERS: ' + str(known.get((m, n)))} |",
                  flush=True)
    print(f"\nslowest: {worst[1]} in {worst[0]:.1f} s; boards not settled with a packing at "
          f"the table's value: {bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
