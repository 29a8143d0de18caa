import itertools, sys
def attacks(w):
    n=len(w); a=[0]*n
    for q,k in enumerate(w):
        if q-k>=0: a[q-k]+=1
        if q+k<n: a[q+k]+=1
    return a
def lines(n):
    out=[]
    for w in itertools.product(range(1,n),repeat=n):
        a=attacks(w)
        if all(a[p]<=w[p] for p in range(n)): out.append((w,tuple(a)))
    return out
if __name__=="__main__":
    for n in range(2,int(sys.argv[1])+1):
        L=lines(n); print(n,len(L),len(set(L)), flush=True)
