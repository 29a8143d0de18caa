#!/usr/bin/env python3
"""The rectangular audit of Pearce's formula beyond the census (sides 14..18 against 21..40):
results of `quandary batch` on `gunport solve M N` jobs turned into data/gunport/audit.csv and
a Markdown table (with --docs, written into docs/gunport.md between its audit markers).

    quandary jobs --time-limit 90 -o audit.jsonl gunport solve 14..18 21..40
    quandary batch audit.jsonl --jobs 1
    python3 bench/gunport_audit.py [--docs] audit.results.jsonl

A board is "holds" when the optimum equals Pearce's value, "fails" when it is proved below it
(the budget program's refutation of Pearce's value and a packing two holes fewer), and open
when the time limit stopped the run (the best packing found, if any, is given). A packing
that reaches the domino bound (a proved bound, equal to Pearce's value) settles the board
whatever the run's status says.
"""
import csv
import json
import sys

from gunport_census import domino_bound, pearce, put, results  # bench/: the script's own directory


def main(paths, docs=False):
    boards = {(m, n): found for _, m, n, _, found in results(paths)}
    rows = []
    for (m, n), b in sorted(boards.items()):
        p = pearce(m, n)
        if b["status"] != "optimal" and b["holes"] is not None and b["holes"] == domino_bound(m, n):
            # A verified packing at the domino bound (a proved upper bound) is optimal: runs
            # before the fix of 2026-11-23 found it and went on trying to refute more holes.
            b["status"] = "optimal"
            b["method"] += " (packing at the domino bound)"
        if b["status"] == "optimal":
            verdict = "holds" if b["holes"] == p else "fails"
        else:
            verdict = "open"
        rows.append([m, n, p, b["holes"], b["status"], verdict, round(b["seconds"], 1), b["method"]])
    with open("data/gunport/audit.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["m", "n", "pearce", "holes", "status", "pearce_formula", "seconds", "method"])
        w.writerows(rows)
    ms = sorted({r[0] for r in rows})
    ns = sorted({r[1] for r in rows})
    at = {(r[0], r[1]): r for r in rows}
    lines = ["| m \\ n | " + " | ".join(str(n) for n in ns) + " |",
             "|---|" + "---|" * len(ns)]
    for m in ms:
        cells = []
        for n in ns:
            r = at.get((m, n))
            if r is None:
                cells.append("")
            elif r[5] == "holds":
                cells.append(str(r[3]))
            elif r[5] == "fails":
                cells.append(f"**{r[3]}**")
            else:
                cells.append(f"≥{r[3]}?" if r[3] is not None else "?")
        lines.append(f"| **{m}** | " + " | ".join(cells) + " |")
    fails = [f"{r[0]}×{r[1]} ({r[3]}, formula {r[2]})" for r in rows if r[5] == "fails"]
    opened = [f"{r[0]}×{r[1]}" for r in rows if r[5] == "open"]
    total = sum(r[6] for r in rows)
    summary = (
        f"{len(rows)} boards run, {sum(r[5] != 'open' for r in rows)} settled; "
        f"the formula fails on: {', '.join(fails) or 'none'}; "
        f"open (time limit): {', '.join(opened) or 'none'}; {total:.0f} s of job time."
    )
    table = "\n".join(lines) + "\n\n" + summary
    print(table)
    if docs:
        path = "docs/gunport.md"
        text = open(path).read()
        text = put(text, "<!-- audit table: bench/gunport_audit.py -->", "<!-- end of audit table -->", table)
        open(path, "w").write(text)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--docs"]
    main(args, docs="--docs" in sys.argv)
