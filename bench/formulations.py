"""The seeds' own experiment: every formulation of every puzzle, its size, its LP relaxation and
how the MIP solver HiGHS fares on it, with quandary's SAT time beside it.

    python3 bench/formulations.py [--limit SECS] [--only PUZZLE] [--docs]

Builds quandary with `--features highs` (needs cmake and libclang), runs for each row
`quandary P model ... --relax --json`, `quandary P VERB ... --backend highs --time-limit L
--json` and `quandary P VERB ... --time-limit L --json` (the default SAT run), and writes the
figures to bench/results/formulations/formulations.json; `--docs` rewrites the tables in
docs/formulations.md between its markers.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# QUANDARY_BIN: a quandary built with --features highs elsewhere (else this script builds one).
BINARY = os.environ.get("QUANDARY_BIN") or os.path.join(ROOT, "target", "release", "quandary")
RESULTS = os.path.join(HERE, "results", "formulations", "formulations.json")
DOC = os.path.join(ROOT, "docs", "formulations.md")

TANTRIX = [
    ("C1-C4 (+C5 lazily)", ["--copies", "--no-c6", "--short-loops", "none", "--no-degree"]),
    ("C2'", ["--no-c6", "--short-loops", "none", "--no-degree"]),
    ("C2' +C6", ["--short-loops", "none", "--no-degree"]),
    ("C2' +C6 +C7-C9", ["--no-degree"]),
    ("ours (+degree rows)", []),
]

BS_EX2 = "data/battleship/generated-30x20-seed3.txt"

# (table, puzzle, verb, words, [(row name, flags)])
TABLES = []
for side in [6, 8, 10, 12]:
    TABLES.append(
        (
            f"Gunport {side}×{side}, optimum",
            "gunport",
            "optimum",
            [str(side), str(side)],
            [(f, ["--formulation", f]) for f in ["domino", "cell", "strong", "charge"]],
        )
    )
TABLES += [
    (
        "Battleship, Example-1 size (12×12, sb_12_12_6_0), unique",
        "battleship",
        "unique",
        ["data/battleship/sb_12_12_6_0.dzn"],
        [(f, ["--formulation", f]) for f in ["cell", "ship", "ship-cells", "runs"]],
    ),
    (
        "Battleship, Example-2 size (30×20, fleet 23/29/12/9/7, seed 3), solve",
        "battleship",
        "solve",
        [BS_EX2],
        [(f, ["--formulation", f]) for f in ["cell", "ship", "ship-cells", "runs"]],
    ),
]
for n in [4, 5, 6, 7]:
    TABLES.append(
        (
            f"Tank Attack {n}×{n}, solve",
            "tank",
            "solve",
            [str(n)],
            [(f, ["--formulation", f]) for f in ["seed", "strong"]],
        )
    )
TABLES += [
    (
        "Chess avoidance, the seed's board (Friedman b4n2), solve",
        "chess",
        "solve",
        ["data/chess/friedman-b4n2.txt"],
        [(f, ["--formulation", f]) for f in ["pairwise", "bigm", "clique"]],
    ),
    (
        "Chess, 8×8 queens maximum, optimum",
        "chess",
        "optimum",
        ["8", "--type", "Q", "--sat"],
        [(f, ["--formulation", f]) for f in ["pairwise", "bigm", "clique"]],
    ),
    (
        "Chess, 8×8 bishops maximum, optimum",
        "chess",
        "optimum",
        ["8", "--type", "B", "--sat"],
        [(f, ["--formulation", f]) for f in ["pairwise", "bigm", "clique"]],
    ),
]
for n in [10, 20, 30, 40]:
    board = "discovery-10.txt" if n == 10 else f"free-{n}.txt"
    TABLES.append(
        (
            f"Tantrix n = {n} ({board}), solve",
            "tantrix",
            "solve",
            [f"data/tantrix/boards/{board}"],
            TANTRIX,
        )
    )


def run(args, limit=None):
    cmd = [BINARY] + args + ["--json"]
    if limit is not None:
        cmd += ["--time-limit", str(limit)]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    try:
        data = json.loads(out.stdout)
    except json.JSONDecodeError:
        data = {"status": "error", "error": out.stderr.strip()[-300:]}
    return data, wall


def measure(limit, only):
    rows = []
    for title, puzzle, verb, words, forms in TABLES:
        if only and puzzle != only:
            continue
        for name, flags in forms:
            base = [puzzle]
            model_words = [w for w in words if w != "--sat"]
            # The model the run solves: finding verbs build it with their symmetry-breaking rows.
            sym = ["--symmetry-breaking"] if verb in ("solve", "optimum") else []
            m, _ = run(base + ["model"] + model_words + flags + ["--relax"] + sym)
            h, hwall = run(base + [verb] + words + flags + ["--backend", "highs"], limit)
            s, swall = run(base + [verb] + words + flags, limit)
            # The formulation alone on SAT: the cube of the whole space skips the restricted
            # phases and exact methods, as --backend highs does.
            a, awall = run(base + [verb] + words + flags + ["--cube", ""], limit)
            row = {
                "table": title,
                "formulation": name,
                "command": " ".join(["quandary"] + base + [verb] + words + flags),
                "size": m.get("stats", {}).get("model"),
                "relaxation": m.get("relaxation"),
                "highs": {
                    "status": h.get("status"),
                    "objective": h.get("objective"),
                    "seconds": hwall,
                    "mip": h.get("stats", {}).get("mip"),
                    "error": h.get("error"),
                },
                "sat": {
                    "status": s.get("status"),
                    "objective": s.get("objective"),
                    "seconds": swall,
                    "method": s.get("stats", {}).get("method"),
                },
                "sat_model": {
                    "status": (a.get("in_scope") or {}).get("status", a.get("status")),
                    "objective": a.get("objective"),
                    "seconds": awall,
                },
            }
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def fmt_lp(r):
    """The LP bound in the puzzle's terms (from the HiGHS run), else what the LP says."""
    mip = r["highs"].get("mip") or {}
    if mip.get("lp_bound") is not None:
        return f"{mip['lp_bound']:.2f}"
    rel = r["relaxation"]
    if not rel:
        return "?"
    frac = rel.get("fractional", 0)
    return f"{rel['status']} ({frac} frac.)" if rel["status"] == "optimal" else rel["status"]


def fmt_highs(r, limit):
    h = r["highs"]
    mip = h.get("mip") or {}
    if h["status"] in ("optimal", "solved", "infeasible"):
        t = f"{h['seconds']:.2f} s"
    elif h["status"] == "unknown":
        # Where the optimum lies when stopped: between the best solution and the best bound,
        # in the puzzle's terms (HiGHS's relative gap is on the model's own objective, which
        # for some formulations is a shortfall near zero, and says little).
        obj, bound = h.get("objective"), mip.get("best_bound")
        if obj is not None and bound is not None:
            t = f"> {limit:g} s, optimum in [{obj}, {bound:.1f}]"
        elif bound is not None:
            t = f"> {limit:g} s, no solution, bound {bound:.1f}"
        else:
            t = f"> {limit:g} s"
    else:
        t = "error"
    return t, mip.get("nodes", "?"), mip.get("simplex_iterations", "?")


def fmt_sat(r, limit, key="sat"):
    s = r[key]
    if s["status"] in ("optimal", "solved", "infeasible"):
        return f"{s['seconds']:.2f} s"
    return f"> {limit:g} s" if s["status"] == "unknown" else "error"


def method_mark(r):
    """A mark when quandary's default run answered by something other than the full model."""
    m = r["sat"].get("method") or ""
    return "" if m.startswith("SAT (CaDiCaL)") and "tried first" not in m else " *"


def table_md(rows, limit):
    out = []
    title = None
    for r in rows:
        if r["table"] != title:
            title = r["table"]
            out.append(f"\n#### {title}\n")
            out.append(
                "| formulation | variables | constraints | nonzeros | LP relaxation | HiGHS | nodes | simplex iterations | answer | SAT, model alone | quandary default |"
            )
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
        size = r["size"] or {}
        t, nodes, its = fmt_highs(r, limit)
        h = r["highs"]
        answer = h["status"] or "?"
        if h.get("objective") is not None:
            answer += f" {h['objective']}"
        out.append(
            f"| {r['formulation']} | {size.get('variables', '?')} | {size.get('constraints', '?')} | "
            f"{size.get('nonzeros', '?')} | {fmt_lp(r)} | {t} | {nodes} | {its} | {answer} | "
            f"{fmt_sat(r, limit, 'sat_model')} | {fmt_sat(r, limit)}{method_mark(r)} |"
        )
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--only")
    ap.add_argument("--docs", action="store_true", help="only rewrite docs/formulations.md")
    a = ap.parse_args()
    if not a.docs:
        if not os.environ.get("QUANDARY_BIN"):
            subprocess.run(["cargo", "build", "--release", "-q", "--features", "highs"], cwd=ROOT, check=True)
        rows = measure(a.limit, a.only)
        old = []
        if a.only and os.path.exists(RESULTS):
            with open(RESULTS) as f:
                old = [r for r in json.load(f)["rows"] if not r["command"].startswith(f"quandary {a.only} ")]
        os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
        with open(RESULTS, "w") as f:
            json.dump({"limit": a.limit, "rows": old + rows}, f, indent=1)
    with open(RESULTS) as f:
        saved = json.load(f)
    order = [t[0] for t in TABLES]
    rows = sorted(saved["rows"], key=lambda r: order.index(r["table"]) if r["table"] in order else 99)
    md = table_md(rows, saved["limit"])
    with open(DOC) as f:
        doc = f.read()
    start, end = "<!-- tables: bench/formulations.py -->", "<!-- end of tables -->"
    i, j = doc.index(start) + len(start), doc.index(end)
    with open(DOC, "w") as f:
        f.write(doc[:i] + "\n" + md + "\n" + doc[j:])


if __name__ == "__main__":
    sys.exit(main())
