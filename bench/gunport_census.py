#!/usr/bin/env python3
"""The Gunport census: results of `quandary batch` on every m x n board (m <= n) turned into
data/gunport/census.csv and a Markdown table, each board set beside the published values
(Sands: mn/3 when 3 divides a side; Pearce's formula, proven by Klostermeyer and Yeo for
boards with a side of at most 13; the domino bound mn - 2*ceil(mn/3), a theorem for m, n >= 2).

    quandary jobs --ascending --time-limit 60 -o census.jsonl gunport optimum 1..20 1..20
    quandary batch census.jsonl --jobs 1
    python3 bench/gunport_census.py [--docs] census.results.jsonl [later passes...]

--docs also writes the table and the list of boards where Pearce's formula fails into
docs/gunport.md, between its census markers.

Later passes are `reach M N --at-least B ...` runs (B the domino bound) on the boards the first
pass left open: a packing found there proves the optimum.
"""
import csv
import json
import sys


def pearce(m, n):
    mn = m * n
    a, b = m % 3, n % 3
    if a == 0 or b == 0:
        return mn // 3
    return (mn - 4) // 3 if a == b else (mn - 2) // 3


def sands(m, n):
    return m * n // 3 if m % 3 == 0 or n % 3 == 0 else None


def domino_bound(m, n):
    if m < 2 or n < 2:
        return None
    mn = m * n
    return mn - 2 * ((mn + 2) // 3)


def put(text, start, end, body):
    a = text.index(start) + len(start)
    b = text.index(end)
    return text[:a] + "\n\n" + body + "\n\n" + text[b:]


def results(paths):
    """Each result line of `quandary batch` results files: the line, the board (m <= n), the
    CLI's outcome object, and what it found."""
    for path in paths:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                m, n = sorted((int(r["argv"][2]), int(r["argv"][3])))
                o = r.get("outcome") or {}
                found = {
                    "status": o.get("status", r["status"]),
                    "holes": o.get("objective"),
                    "method": (o.get("stats") or {}).get("method", r.get("message") or ""),
                    "seconds": r["seconds"],
                }
                yield r, m, n, o, found


def main(paths, docs=False):
    boards = {}
    for r, m, n, o, found in results(paths):
        old = boards.get((m, n))
        found["upper"] = o.get("bound") if found["status"] == "optimal" else domino_bound(m, n)
        if r["argv"][1] == "reach" and old is not None:
            # A later pass on an open board: `reach --at-least v` either finds a
            # packing (a lower bound) or proves there is none (an upper bound: the
            # largest value below v with the parity of mn).
            words = " ".join(r["argv"][1:-3])
            v = int(r["argv"][r["argv"].index("--at-least") + 1])
            old["seconds"] += found["seconds"]
            if found["status"] == "infeasible":
                below = v - 1 - ((v - 1 - m * n) % 2)
                old["upper"] = min(x for x in (old["upper"], below) if x is not None)
                old["method"] += f"; `{words}`: none (so at most {below})"
            elif found["holes"] is not None:
                if (old["holes"] or -1) < found["holes"]:
                    old["holes"] = found["holes"]
                old["method"] += f"; `{words}`: found {found['holes']}"
            else:
                old["method"] += f"; `{words}`: no answer"
            if old["holes"] is not None and old["upper"] is not None and old["holes"] >= old["upper"]:
                old["status"] = "optimal"
            continue
        boards[(m, n)] = found
    rows = []
    for (m, n), b in sorted(boards.items()):
        p = pearce(m, n) if m >= 2 else None
        s = sands(m, n)
        d = domino_bound(m, n)
        proved = b["status"] == "optimal"
        known = s if s is not None else (p if m <= 13 and m >= 2 else None)
        agrees = "" if not proved or known is None else ("yes" if b["holes"] == known else "NO")
        rows.append([m, n, b["holes"], b["status"], d, s, p, agrees, b["seconds"], b["method"]])
    with open("data/gunport/census.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["m", "n", "holes", "status", "domino_bound", "sands", "pearce",
                    "agrees_with_published", "seconds", "method"])
        w.writerows(rows)
    # The table: value per board; "v–u" where a packing with v holes is known and u is the best
    # upper bound proved; "—" for boards not run.
    lines = []
    say = lines.append
    size = max(max(k) for k in boards)
    say("| m \\ n | " + " | ".join(str(n) for n in range(1, size + 1)) + " |")
    say("|---" * (size + 1) + "|")
    for m in range(1, size + 1):
        cells = []
        for n in range(1, size + 1):
            b = boards.get((m, n))
            if n < m:
                cells.append("")
            elif b is None:
                cells.append("—")
            elif b["status"] == "optimal":
                cells.append(str(b["holes"]))
            elif b["holes"] is not None and b.get("upper") is not None:
                cells.append(f"{b['holes']}–{b['upper']}")
            elif b["holes"] is not None:
                cells.append(f"≥{b['holes']}")
            else:
                cells.append("?")
        say(f"| **{m}** | " + " | ".join(cells) + " |")
    proved = sum(1 for r in rows if r[3] == "optimal")
    disagree = [f"{r[0]}×{r[1]}" for r in rows if r[7] == "NO"]
    fails = [f"{r[0]}×{r[1]}" for r in rows if r[3] == "optimal" and r[6] is not None and r[2] != r[6]]
    say("")
    say(f"{len(rows)} boards, {proved} proved optimal; disagreements with published values: "
        f"{', '.join(disagree) or 'none'}; boards where Pearce's formula fails among those proved: "
        f"{', '.join(fails) or 'none'}; total {sum(r[8] for r in rows):.0f} s of job time.")
    print("\n".join(lines))
    if docs:
        failing = "\n".join(f"| {r[0]}×{r[1]} | {r[6]} | {r[2]} |" for r in rows
                            if r[3] == "optimal" and r[6] is not None and r[2] != r[6])
        with open("docs/gunport.md") as f:
            text = f.read()
        text = put(text, "<!-- census table: bench/gunport_census.py -->",
                   "<!-- end of census table -->", "\n".join(lines))
        text = put(text, "<!-- census failures -->", "<!-- end of census failures -->",
                   "| board | Pearce's formula | optimum (proved) |\n|---|---|---|\n" + failing)
        with open("docs/gunport.md", "w") as f:
            f.write(text)


if __name__ == "__main__":
    args = sys.argv[1:]
    docs = "--docs" in args
    main([a for a in args if a != "--docs"] or ["census.results.jsonl"], docs)
