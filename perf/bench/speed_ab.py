#!/usr/bin/python3
"""Two run.py CSVs of the same instances, binary A against binary B: per instance the nodes/s of each and
their ratio (B / A), with the status and objective where they differ; then the geometric mean and median
of the ratios, the proofs of each, and the errors. For behaviour-preserving changes (a refactor measured
against the binary before it). Instances in only one of the two are compared over those in both (and
counted apart).

usage: speed_ab.py A.csv B.csv
"""
import csv,math,sys
def load(p): return {r['instance']:r for r in csv.DictReader(open(p))}
a=load(sys.argv[1]); b=load(sys.argv[2])
rs=[];better=worse=0;pa=pb=0;errs=0
common=sorted(set(a)&set(b))
for k in common:
    x,y=a[k],b[k]
    if x['error'] or y['error']: errs+=1
    pa+=x['status'] in('OPTIMAL','UNSAT'); pb+=y['status'] in('OPTIMAL','UNSAT')
    na,nb=float(x['nodes_per_s'] or 0),float(y['nodes_per_s'] or 0)
    if na>0 and nb>0: rs.append(nb/na)
    oa,ob=x['objective'],y['objective']
    flag=''
    if oa!=ob or x['status']!=y['status']:
        flag=f"  {x['status']} {oa} -> {y['status']} {ob}"
    print(f"{k[:40]:40s} {na:12.0f} {nb:12.0f} {nb/na if na>0 else 0:5.2f}{flag}")
rs.sort()
g=math.exp(sum(math.log(r) for r in rs)/len(rs))
if len(common)<max(len(a),len(b)): print(f"only in A: {len(set(a)-set(b))}, only in B: {len(set(b)-set(a))}")
print(f"n={len(rs)} geomean {g:.3f} median {rs[len(rs)//2]:.3f} min {rs[0]:.2f} max {rs[-1]:.2f}; proofs {pa} -> {pb}; errors {errs}")
