"""Plain-run interval rules, evaluated offline on stored runs.

Reads the runs `cargo xtask stability` stored (target/xtask/stability/nbench/runs,
each benchmark's epoch medians under `repeats`) and, for each candidate rule,
prints how often run k+1's estimate lands in run k's interval, how much the
median interval's width exceeds the run-to-run spread in 5-run windows, and
how often the half-width swings more than 4x within a window. `-v` lists the
misses. The figures are in docs/notes/2026-11-28-plain-run-intervals.md.

Usage: python3 xtask/interval_rules.py [-v]
"""
import json,glob,math,sys
files=sorted(glob.glob('/work/main/target/xtask/stability/nbench/runs/*.json'))
runs=[]
for f in files:
    d=json.load(open(f)); r={}
    for t in d['targets']:
        for b in t['benchmarks']:
            if b.get('repeats'): r[b['id']]=(b['median_ns'],b['median_ci_ns'],sorted(b['repeats']['medians_ns']))
    runs.append(r)
ids=[i for i in runs[0] if i!='empty']
def ruleB(x, B=0.08, k=2.0, floor=0.002, single='next'):
    l=[math.log(v) for v in x]; x1=l[0]
    C=[v for v in l if v-x1<=math.log(1+B)]
    if len(C)>=2:
        c=C[:min(len(C),3)]
        h=max(k*(c[-1]-x1), floor)
        return [math.exp(x1-h), math.exp(x1+h)]
    h=max(k*0.0, floor)
    return [math.exp(x1-max(l[1]-x1,floor)), math.exp(l[1])]
def evaluate(rule, label):
    inside=tot=0; swings=[]; wos=[]; miss=[]
    for i in ids:
        ws=[];ests=[]
        for k in range(len(runs)):
            a=runs[k][i]; lo,hi=rule(a)
            ws.append((hi-lo)/2/a[0]); ests.append(a[0])
            if k+1<len(runs):
                b=runs[k+1][i]; tot+=1
                if lo<=b[0]<=hi: inside+=1
                else: miss.append((i,k,round(100*(b[0]/a[0]-1),2),round(100*(lo/a[0]-1),2),round(100*(hi/a[0]-1),2)))
        s=sorted(ests); spread=(s[-1]-s[0])/s[len(s)//2]; wm=sorted(ws)[len(ws)//2]
        swings.append((i,round(max(ws)/min(ws),1))); wos.append((i,round(2*wm/spread,2), round(100*wm,2)))
    print(label, f'{inside}/{tot} = {100*inside/tot:.0f}%')
    print('   swing', swings); print('   width/spread, median half %', wos)
    if '-v' in sys.argv: print('   misses', miss)
evaluate(lambda a:a[1], 'current')
for B in (0.03,0.08):
  for k in (1.0,2.0,3.0):
    evaluate(lambda a,B=B,k=k: ruleB(a[2],B,k), f'B={B} k={k}')
print('---- rule C')
def ruleC(x, hist, B=0.08, k=3.0, f0=0.0025, H=10):
    l=[math.log(v) for v in x]; x1=l[0]
    C=[v for v in l if v-x1<=math.log(1+B)]
    if len(C)>=2:
        c=C[:min(len(C),3)]; h=max(k*(c[-1]-x1), f0)
        lo,hi=x1-h,x1+h
    else:
        h=max(l[1]-x1,f0); lo,hi=x1-min(h,math.log(1+B)),l[1]
    hs=[math.log(e) for e in hist[-H:]]
    if hs and x1-min(hs)>math.log(1+B):
        lo=min(lo,min(hs)-f0)
    return [math.exp(lo),math.exp(hi)]
def evaluateC(label, **kw):
    inside=tot=0; swings=[]; wos=[]; miss=[]
    for i in ids:
        ws=[];ests=[]
        for k in range(len(runs)):
            a=runs[k][i]; hist=[runs[j][i][0] for j in range(k)]
            lo,hi=ruleC(a[2],hist,**kw)
            ws.append((hi-lo)/2/a[0]); ests.append(a[0])
            if k+1<len(runs):
                b=runs[k+1][i]; tot+=1
                if lo<=b[0]<=hi: inside+=1
                else: miss.append((i,k,round(100*(b[0]/a[0]-1),2),round(100*(lo/a[0]-1),2),round(100*(hi/a[0]-1),2)))
        # 5-run windows
        for w0 in range(0,len(runs)-4,5):
            e=sorted(ests[w0:w0+5]); sp=(e[-1]-e[0])/e[2]; wm=sorted(ws[w0:w0+5])[2]
            wos.append(2*wm/sp if sp>0 else 99)
            swings.append(max(ws[w0:w0+5])/min(ws[w0:w0+5]))
    wos.sort(); swings.sort()
    print(label, f'{inside}/{tot} = {100*inside/tot:.0f}%', 'width/spread (5-run windows) median', round(wos[len(wos)//2],2),'max',round(wos[-1],1), ' >2:',sum(w>2 for w in wos),'of',len(wos), ' swing>4:',sum(s>4 for s in swings))
    if '-v' in sys.argv: print('   misses', miss)
for k in (2.0,3.0,4.0):
  for f0 in (0.0025,0.005):
    evaluateC(f'C k={k} f0={f0}',k=k,f0=f0)
print('---- rule D: hull with the last H runs')
def ruleD(x,hist,H=4,**kw):
    lo,hi=ruleC(x,hist,**kw)
    h=hist[-H:]
    if h: lo=min(lo,min(h)); hi=max(hi,max(h))
    return [lo,hi]
def evaluateD(label, H, **kw):
    global ruleC_saved
    inside=tot=0; swings=[]; wos=[]; miss=[]
    for i in ids:
        ws=[];ests=[]
        for k in range(len(runs)):
            a=runs[k][i]; hist=[runs[j][i][0] for j in range(k)]
            lo,hi=ruleD(a[2],hist,H,**kw)
            ws.append((hi-lo)/2/a[0]); ests.append(a[0])
            if k+1<len(runs):
                b=runs[k+1][i]; tot+=1
                if lo<=b[0]<=hi: inside+=1
                else: miss.append((i,k,round(100*(b[0]/a[0]-1),2)))
        for w0 in range(0,len(runs)-4,5):
            e=sorted(ests[w0:w0+5]); sp=(e[-1]-e[0])/e[2]; wm=sorted(ws[w0:w0+5])[2]
            wos.append(2*wm/sp if sp>0 else 99); swings.append(max(ws[w0:w0+5])/min(ws[w0:w0+5]))
    wos.sort()
    print(label, f'{inside}/{tot} = {100*inside/tot:.0f}%', 'width/spread median', round(wos[len(wos)//2],2),'max',round(wos[-1],1),' >2:',sum(w>2 for w in wos),'of',len(wos),' swing>4:',sum(s>4 for s in swings),'of',len(swings))
    if '-v' in sys.argv: print('   misses', miss)
for H in (2,4,8):
  for k in (2.0,3.0):
    evaluateD(f'D H={H} k={k}',H,k=k,f0=0.005)
print('---- rule E')
def ruleE(x,hist,H=8,B=0.08,k=2.0,f0=0.005):
    l=[math.log(v) for v in x]; x1=l[0]
    C=[v for v in l if v-x1<=math.log(1+B)]
    c=C[:min(len(C),3)]
    h=max(k*(c[-1]-x1), f0)
    lo,hi=x1-h,x1+h
    if len(C)==1 and not hist: hi=max(hi,l[1])
    lo,hi=math.exp(lo),math.exp(hi)
    hh=hist[-H:]
    if hh: lo=min(lo,min(hh)); hi=max(hi,max(hh))
    return [lo,hi]
def evaluateE(label, **kw):
    inside=tot=0; swings=[]; wos=[]; miss=[]; per={}
    for i in ids:
        ws=[];ests=[]
        for k in range(len(runs)):
            a=runs[k][i]; hist=[runs[j][i][0] for j in range(k)]
            lo,hi=ruleE(a[2],hist,**kw)
            ws.append((hi-lo)/2/a[0]); ests.append(a[0])
            if k+1<len(runs):
                b=runs[k+1][i]; tot+=1
                if lo<=b[0]<=hi: inside+=1
                else: miss.append((i,k,round(100*(b[0]/a[0]-1),2)))
        for w0 in range(0,len(runs)-4,5):
            e=sorted(ests[w0:w0+5]); sp=(e[-1]-e[0])/e[2]; wm=sorted(ws[w0:w0+5])[2]
            wos.append((round(2*wm/sp if sp>0 else 99,1),i)); swings.append(max(ws[w0:w0+5])/min(ws[w0:w0+5]))
    wos.sort()
    print(label, f'{inside}/{tot} = {100*inside/tot:.0f}%', 'width/spread median', wos[len(wos)//2][0],' >2:',sum(w>2 for w,_ in wos),'of',len(wos),' swing>4:',sum(s>4 for s in swings),'of',len(swings))
    if '-v' in sys.argv: print('   >2', [w for w in wos if w[0]>2])
for H in (4,8):
  for k in (2.0,3.0):
    for f0 in (0.003,0.005):
      evaluateE(f'E H={H} k={k} f0={f0}',H=H,k=k,f0=f0)
print('---- rule F: sd of the fast cluster x F_n, hull with history')
FF=[15.193,20.245,23.013,6.7638,7.2832,4.8054,5.0583,4.0249,4.1832,3.6047,3.7099,3.3243,3.4018,3.1139,3.1866]
def sd(v):
    m=sum(v)/len(v); return math.sqrt(sum((x-m)**2 for x in v)/(len(v)-1))
def ruleF(x,hist,H=8,B=0.08,f0=0.0):
    l=[math.log(v) for v in x]; n=len(l); x1=l[0]
    C=[v for v in l if v-x1<=math.log(1+B)]
    if len(C)<2: C=l[:2]
    h=max(FF[min(n-2,14)]*sd(C[:max(2,(n+1)//2)]),f0)
    lo,hi=math.exp(x1-h),math.exp(x1+h)
    hh=hist[-H:]
    if hh: lo=min(lo,min(hh)); hi=max(hi,max(hh))
    return [lo,hi]
def evaluateF(label, rule):
    inside=tot=0; swings=[]; wos=[]; allw=[]
    for i in ids:
        ws=[];ests=[]
        for k in range(len(runs)):
            a=runs[k][i]; hist=[runs[j][i][0] for j in range(k)]
            lo,hi=rule(a[2],hist)
            ws.append((hi-lo)/2/a[0]); ests.append(a[0])
            if k+1<len(runs):
                b=runs[k+1][i]; tot+=1; inside+= lo<=b[0]<=hi
        for w0 in range(0,len(runs)-4,5):
            e=sorted(ests[w0:w0+5]); sp=(e[-1]-e[0])/e[2]; wm=sorted(ws[w0:w0+5])[2]
            wos.append(2*wm/sp if sp>0 else 99); swings.append(max(ws[w0:w0+5])/min(ws[w0:w0+5]))
    wos.sort()
    print(label, f'{inside}/{tot} = {100*inside/tot:.0f}%', 'width/spread median', round(wos[len(wos)//2],2),' >2:',sum(w>2 for w in wos),'of',len(wos),' swing>4:',sum(s>4 for s in swings),'of',len(swings))
evaluateF('F no history', lambda x,h: ruleF(x,[],))
evaluateF('F H=8', lambda x,h: ruleF(x,h,8))
evaluateF('F H=4', lambda x,h: ruleF(x,h,4))
evaluateF('F H=8 f0=.3%', lambda x,h: ruleF(x,h,8,f0=0.003))
evaluateF('current', lambda x,h: [x[0]*math.exp(-FF[6]*sd([math.log(v) for v in x[:4]])), x[0]*math.exp(FF[6]*sd([math.log(v) for v in x[:4]]))])

print('---- rule G')
def cur(x):
    l=[math.log(v) for v in x]; n=len(l); h=FF[min(n-2,14)]*sd(l[:max(2,(n+1)//2)])
    return [x[0]*math.exp(-h), x[0]*math.exp(h)]
def ruleG(x,hist,H=4,M=2,f0=0.003):
    if len(hist)<M: return cur(x)
    hh=hist[-H:]+[x[0]]
    return [min(hh)*(1-f0), max(hh)*(1+f0)]
for H in (3,4,6,8):
  for f0 in (0.002,0.003,0.005):
    evaluateF(f'G H={H} f0={f0}', lambda x,h,H=H,f0=f0: ruleG(x,h,H,2,f0))
