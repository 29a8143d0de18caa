import sys, time, highspy, numpy as np
from auto import automaton
def build(n, fixes=()):
    nodes,edges=automaton(n)
    h=highspy.Highs(); h.setOptionValue("output_flag",False)
    inf=highspy.kHighsInf
    var={}  # (line, layer, idx) -> col
    ncol=0
    lines_=[('r',i) for i in range(n)]+[('c',j) for j in range(n)]
    cols_lo=[];cols_hi=[]
    for l in lines_:
        for k in range(n):
            for e in range(len(edges[k])):
                var[(l,k,e)]=ncol; ncol+=1
    h.addVars(ncol, np.zeros(ncol), np.ones(ncol))
    rows=[]
    def addrow(idx,val,lo,hi):
        h.addRow(lo,hi,len(idx),np.array(idx,dtype=np.int32),np.array(val,dtype=float))
    for l in lines_:
        # source
        addrow([var[(l,0,e)] for e in range(len(edges[0]))],[1.0]*len(edges[0]),1,1)
        for k in range(1,n):
            for node in range(nodes[k]):
                idx=[];val=[]
                for e,(s,lab,d) in enumerate(edges[k-1]):
                    if d==node: idx.append(var[(l,k-1,e)]); val.append(1.0)
                for e,(s,lab,d) in enumerate(edges[k]):
                    if s==node: idx.append(var[(l,k,e)]); val.append(-1.0)
                addrow(idx,val,0,0)
    nlink=0
    for i in range(n):
        for j in range(n):
            labs=set(lab for (s,lab,d) in edges[j])
            for (v,r) in labs:
                idx=[var[(('r',i),j,e)] for e,(s,lab,d) in enumerate(edges[j]) if lab==(v,r)]
                cidx=[var[(('c',j),i,e)] for e,(s,lab,d) in enumerate(edges[i]) if lab==(v,v-r)]
                addrow(idx+cidx,[1.0]*len(idx)+[-1.0]*len(cidx),0,0); nlink+=1
            # column labels with no matching row label must be 0
            clabs=set(lab for (s,lab,d) in edges[i])
            for (v,c) in clabs:
                if (v,v-c) not in labs:
                    cidx=[var[(('c',j),i,e)] for e,(s,lab,d) in enumerate(edges[i]) if lab==(v,c)]
                    addrow(cidx,[1.0]*len(cidx),0,0)
    for (i,j,v) in fixes:
        idx=[var[(('r',i),j,e)] for e,(s,lab,d) in enumerate(edges[j]) if lab[0]==v]
        addrow(idx,[1.0]*len(idx),1,1)
    return h,var,edges
if __name__=="__main__":
    n=int(sys.argv[1]); t=time.time()
    h,var,edges=build(n)
    print("built",h.getNumCol(),h.getNumRow(),round(time.time()-t,2),flush=True)
    t=time.time(); h.run(); print(h.modelStatusToString(h.getModelStatus()), round(time.time()-t,2))
