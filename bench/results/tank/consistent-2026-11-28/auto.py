# minimal layered automaton of feasible lines; labels (v, attacks)
from lines import lines
def automaton(n):
    L=lines(n)
    seqs=[tuple(zip(w,a)) for w,a in L]
    # ids per layer, bottom-up
    # node at layer k identified by prefix; compute canonical id
    ids=[dict() for _ in range(n+1)]   # layer -> canon -> id
    prefid=[dict() for _ in range(n+1)]
    for s in seqs: prefid[n][s]=0
    ids[n][()]=0
    edges=[None]*n  # layer k: list of (src,label,dst)
    for k in range(n-1,-1,-1):
        children={}
        for s,d in prefid[k+1].items():
            children.setdefault(s[:k],set()).add((s[k],d))
        canon={}
        for p,ch in children.items():
            c=tuple(sorted(ch))
            if c not in canon: canon[c]=len(canon)
            prefid[k][p]=canon[c]
        edges[k]=[(canon[c],lab,d) for c in canon for (lab,d) in c]
        ids[k]=canon
    nodes=[len(ids[k]) for k in range(n+1)]
    return nodes,edges
if __name__=="__main__":
    import sys
    n=int(sys.argv[1]); nodes,edges=automaton(n)
    print(n,"nodes",nodes,"edges",[len(e) for e in edges],sum(len(e) for e in edges))
