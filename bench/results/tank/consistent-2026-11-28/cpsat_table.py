import sys,time
from ortools.sat.python import cp_model
from lines import lines
n=int(sys.argv[1]); workers=int(sys.argv[2]); limit=float(sys.argv[3])
L=lines(n); tuples=[list(w)+list(a) for w,a in L]
m=cp_model.CpModel()
x=[[m.NewIntVar(1,n-1,f"x{i}{j}") for j in range(n)] for i in range(n)]
r=[[m.NewIntVar(0,n-1,f"r{i}{j}") for j in range(n)] for i in range(n)]
c=[[m.NewIntVar(0,n-1,f"c{i}{j}") for j in range(n)] for i in range(n)]
for i in range(n):
    for j in range(n): m.Add(r[i][j]+c[i][j]==x[i][j])
for i in range(n): m.AddAllowedAssignments([x[i][j] for j in range(n)]+[r[i][j] for j in range(n)],tuples)
for j in range(n): m.AddAllowedAssignments([x[i][j] for i in range(n)]+[c[i][j] for i in range(n)],tuples)
s=cp_model.CpSolver(); s.parameters.num_workers=workers; s.parameters.max_time_in_seconds=limit
class CB(cp_model.CpSolverSolutionCallback):
    def __init__(s): super().__init__(); s.k=0
    def on_solution_callback(s): s.k+=1
cb=CB()
if workers==1: s.parameters.enumerate_all_solutions=True
t=time.time(); st=s.Solve(m,cb) if workers==1 else s.Solve(m); 
print(n,s.StatusName(st),"solutions",cb.k,round(time.time()-t,2),flush=True)
