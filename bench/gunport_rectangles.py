#!/usr/bin/env python3
"""The docs' table of every Gunport rectangle m ≤ 20, m ≤ n ≤ 40 from data/gunport/rectangles.csv
(`quandary gunport sweep --max-m 20 --max-n 40 --csv`): Pearce's failures in bold, and the
agreement with the census and the audit (boards other methods proved).

    python3 bench/gunport_rectangles.py [data/gunport/rectangles.csv]
"""
import csv
import os
import sys

here = os.path.join(os.path.dirname(__file__), "..", "data", "gunport")
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "rectangles.csv")
rows = list(csv.DictReader(open(path)))
value = {(int(r["m"]), int(r["n"])): int(r["optimum"]) for r in rows if r["optimum"]}
pearce = {(int(r["m"]), int(r["n"])): int(r["pearce"]) for r in rows if r["pearce"]}
seconds = {}
for r in rows:
    seconds[int(r["m"])] = float(r["seconds"])


def proved(file, holes="holes"):
    out = {}
    for r in csv.DictReader(open(os.path.join(here, file))):
        if r.get("status") == "optimal" and r[holes]:
            out[(int(r["m"]), int(r["n"]))] = int(r[holes])
    return out


checked, disagree = 0, []
for file in ["census.csv", "audit.csv"]:
    for board, h in proved(file).items():
        checked += 1
        if value.get(board) != h:
            disagree.append((file, board, h, value.get(board)))

lo, hi = 14, 40
print(f"| m \\ n | " + " | ".join(str(n) for n in range(lo, hi + 1)) + " |")
print("|---" * (hi - lo + 2) + "|")
fails = []
for m in range(lo, 21):
    cells = []
    for n in range(lo, hi + 1):
        if n < m:
            cells.append("")
            continue
        v = value.get((m, n))
        if v is None:
            cells.append("?")
        elif v != pearce.get((m, n)):
            cells.append(f"**{v}**")
            fails.append(f"{m}×{n} ({v}, formula {pearce[(m, n)]})")
        else:
            cells.append(str(v))
    print(f"| **{m}** | " + " | ".join(cells) + " |")
print()
total = len(value)
print(f"{total} boards, every one proved; Pearce's formula fails on {len(fails)}: " + ", ".join(fails) + ".")
print()
print(f"Checked against boards other methods proved (census and audit): {checked} boards, "
      f"{len(disagree)} disagreements{': ' + str(disagree) if disagree else ''}.")
print()
print("Seconds per width (one pass for every length 1..40, two cores): " +
      ", ".join(f"{m}: {seconds[m]:.1f}" for m in sorted(seconds) if m >= 12) + ".")
