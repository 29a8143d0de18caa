"""Writes docs/notebooks/formulations.ipynb's cells (run it, then execute the notebook: the
outputs are stored with it). Usage: python3 bench/make_formulations_notebook.py
docs/notebooks/formulations.ipynb; then, in a venv with quandary, nbclient and pandas, run it with
nbclient (python/tests/test_notebook.py runs it headless in CI)."""
import json, sys

cells = []
def md(text): cells.append(("markdown", text.strip("\n")))
def code(text): cells.append(("code", text.strip("\n")))

md("""
# The formulations in the open: read, change, re-solve, and let the verifier judge

The five source papers teach by formulation: each writes its puzzle as a 0-1 program, family of
rows by family of rows, and compares formulations. Here quandary opens its models of them in
Python ([docs/python.md](../python.md)): every variable with what it means on the board, every
row of every family, each family as algebra; then a family is dropped, a row added, a variable
fixed, and the changed model is solved. Every answer is judged by the puzzle's own verifier,
which shares no code with the model: a board it rejects is not an error but the lesson.

Install from the repository root with `pip install ./python pandas` (PuLP and OR-Tools are
optional: section 6).
""")
code("""
from pathlib import Path
import pandas as pd
import quandary

# The repository's data: the notebook runs from docs/notebooks (or anywhere below the root).
ROOT = Path.cwd()
while not (ROOT / "data").is_dir() and ROOT != ROOT.parent:
    ROOT = ROOT.parent
CHESS = str(ROOT / "data" / "chess" / "friedman-b4n2.txt")
""")
md("""
## 1. The chess seed's model, as algebra

Four bishops and two knights on the seed's ragged 3×5 board, none attacking another. The
pairwise formulation: one piece per square, the army's roster, and for each attacking square
and piece a row saying that the attacked square is then empty. Each family below is read off its
rows (the shapes its rows take, with how many rows have each shape), with two of its rows as the
LP file writes them.
""")
code("""
m = quandary.model("chess", CHESS)
m
""")
code("""
print(m.algebra("one piece per square"))
pd.DataFrame(m.variables).head(6)
""")
code("""
pd.DataFrame(m.rows("attacker forces target empty")).head(4)
""")
md("""
## 2. Drop the attack family: the verifier objects

Without the rows that keep attacked squares empty, the model still has solutions, but they are
not placements of the puzzle. quandary solves the changed model and hands its answer to the
verifier, which says which piece attacks which and rings the two squares in red on the board
(`r.violations_at` gives them to a script). The count over the weakened model shows how
many of its solutions are real placements: the one the seed proves unique.
""")
code("""
m.drop("attacker forces target empty")
r = m.solve()
r
""")
code("""
c = m.count()
print(c.headline)
print("solutions of the changed model:", c.count, "- real placements among them:", c.verified_count)
print("changes:", [x["says"] for x in m.changes])
m.reset()
print("after reset:", m.count().headline)
""")
md("""
## 3. A symmetry-breaking row by hand: the count falls

Tank Attack on 5×5 has two boards, each the other's mirror in the main diagonal. The diagonal
mirror swaps the cells (1,2) and (2,1), so every pair of mirror boards keeps one board with
value(1,2) ≤ value(2,1): a valid symmetry-breaking row. In the seed's one-hot variables
(x_{i,j,k}: cell (i,j) holds k) it reads Σ_k k·x_{1,2,k} − Σ_k k·x_{2,1,k} ≤ 0. The count falls
from 2 to 1, and the board kept is still a board.
""")
code("""
t = quandary.model("tank", 5, formulation="seed")
before = t.count()
k_max = 4
t.add_row([(k, f"x_1_2_{k}") for k in range(1, k_max + 1)]
          + [(-k, f"x_2_1_{k}") for k in range(1, k_max + 1)], "<=", 0, family="mirror (1,2) <= (2,1)")
after = t.count()
print("before:", before.count, "boards; with the row:", after.count, "board; verified:", after.verified)
t.algebra("mirror (1,2) <= (2,1)")
""")
md("""
## 4. Gunport's formulations side by side

The Gunport paper compares formulations by size and by how fast they solve. `compare` builds
each one for the same board and solves the formulation alone (SAT on that model, not quandary's
faster exact methods), every answer judged by the verifier. The LP bound column needs a wheel
built with the MIP backend (HiGHS; docs/python.md); without it the column is empty. The domino
formulation does not prove 5×5's optimum within the 5 s given here: it numbers the dominoes, and
the search meets every numbering of the same packing.
""")
code("""
try:
    quandary.model("gunport", 3, 3).relax()
    have_mip = True
except quandary.InputError:
    have_mip = False
table = quandary.compare("gunport", 5, 5, time_limit=5, relax=have_mip)
table.to_frame().drop(columns=["method"])
""")
md("""
The sizes of docs/formulations.md's tables come out of the same call (`solve=False`: sizes and
bounds only): Gunport 8×8, as the seeds' table has it.
""")
code("""
quandary.compare("gunport", 8, 8, solve=False, relax=have_mip).to_frame()[
    ["variables", "constraints", "nonzeros", "lp_bound"]]
""")
md("""
## 5. Battleship: a clue's rows removed, the second solution drawn

The puzz.link example has two clues; the "left end of a ship" at (4,1) is written as five rows
of the family "(30r) given cells" (that cell and the one right of it are ship, the cells above
and below are water, a horizontal ship starts there). Without them the model has more than one
solution: `unique()` draws two. The verifier judges them against the puzzle as given, clue and
all, and rejects both, naming the clue each breaks: the rows removed were the clue's only voice
in the model.
""")
code("""
b = quandary.model("battleship", "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c")
pd.DataFrame(b.rows("(30r) given cells"))
""")
code("""
left_end = ["z_4_1", "z_4_2", "z_3_1", "z_5_1", "y_2h_4_1", "y_3h_4_1"]
clue_rows = [k for k, r in enumerate(b.rows("(30r) given cells"))
             if any(name in left_end for _, name in r["terms"])]
for k in reversed(clue_rows):
    b.drop("(30r) given cells", row=k)
u = b.unique()
u
""")
code("""
print(u.headline)
print("rows dropped:", clue_rows, "- the verifier's verdict:", u.verified)
for why in u.violations:
    print(" ", why)
""")
md("""
## 6. The same rows in PuLP and CP-SAT

`to_pulp()` and `to_cpsat()` hand the model, as changed, to PuLP (CBC comes with it) and to
OR-Tools' CP-SAT, the seeds' own solver, over the very same variables and rows, so a class can
check quandary's answer with another solver; `judge()` reads their answer back and has the
verifier judge it. (Skipped where PuLP or OR-Tools is not installed.)
""")
code("""
g = quandary.model("gunport", 5, 5, formulation="cell", symmetry_breaking=True)
print("quandary:", g.optimum().headline)
try:
    import pulp
    problem, x = g.to_pulp()
    problem.solve(pulp.PULP_CBC_CMD(msg=0))
    print("PuLP/CBC:", pulp.LpStatus[problem.status], round(pulp.value(problem.objective)), "holes")
    print("judged:", g.judge({n: v.value() for n, v in x.items()}).verified)
except ImportError:
    print("PuLP is not installed: pip install pulp")
try:
    from ortools.sat.python import cp_model
    model, y = g.to_cpsat()
    solver = cp_model.CpSolver()
    print("CP-SAT:", solver.StatusName(solver.Solve(model)), round(solver.ObjectiveValue()), "holes")
except ImportError:
    print("OR-Tools is not installed: pip install ortools")
""")

nb = {"cells": [], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
      "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
for i, (kind, text) in enumerate(cells):
    lines = text.split("\n")
    src = [l + "\n" for l in lines[:-1]] + [lines[-1]]
    cell = {"cell_type": kind, "id": f"cell-{i}", "metadata": {}, "source": src}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    nb["cells"].append(cell)
json.dump(nb, open(sys.argv[1], "w"), indent=1)
