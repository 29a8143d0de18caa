import sys,time
from lp import build
n=int(sys.argv[1]); solver=sys.argv[2]
h,var,edges=build(n)
h.setOptionValue("solver",solver)
if len(sys.argv)>3: h.setOptionValue("run_crossover",sys.argv[3])
t=time.time(); h.run(); print(n,solver,h.modelStatusToString(h.getModelStatus()), round(time.time()-t,2),flush=True)
