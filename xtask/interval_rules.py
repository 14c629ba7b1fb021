"""Plain-run interval rules, evaluated offline on stored runs.

Reads the runs `cargo xtask stability` stored (target/xtask/stability/nbench/runs,
each benchmark's epoch medians under `repeats`) and, for each candidate rule,
prints how often run k+1's estimate lands in run k's interval, how much the
median interval's width exceeds the run-to-run spread in 5-run windows, and
how often the half-width swings more than 4x within a window. `-v` lists the
misses. The figures are in docs/notes/2026-11-28-plain-run-intervals.md.

Usage: python3 xtask/interval_rules.py [-v]
"""
import json, glob, math, sys

files = sorted(glob.glob('target/xtask/stability/nbench/runs/*.json'))
runs = []
for f in files:
    d = json.load(open(f))
    r = {}
    for t in d['targets']:
        for b in t['benchmarks']:
            if b.get('repeats'):
                r[b['id']] = (b['median_ns'], b['median_ci_ns'], sorted(b['repeats']['medians_ns']))
    runs.append(r)
ids = [i for i in runs[0] if i != 'empty'] if runs else []

# F_n for n = 2..16 epochs: the factors of the rule used until 2026-11-28.
FF = [15.193, 20.245, 23.013, 6.7638, 7.2832, 4.8054, 5.0583, 4.0249, 4.1832, 3.6047, 3.7099,
      3.3243, 3.4018, 3.1139, 3.1866]


def sd(v):
    m = sum(v) / len(v)
    return math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))


def today(x, hist):
    """min ± F_n · sd of the faster half (the rule used until 2026-11-28)."""
    l = [math.log(v) for v in x]
    h = FF[min(len(l) - 2, 14)] * sd(l[:max(2, (len(l) + 1) // 2)])
    return [x[0] * math.exp(-h), x[0] * math.exp(h)]


def cluster(x, hist, B=0.08, k=2.0, f0=0.005, H=0, single=True):
    """±k × the range of the fastest 3 epochs within B of the min, at least f0;
    one fast epoch reaching the next (without history); hull with the last H runs."""
    l = [math.log(v) for v in x]
    x1 = l[0]
    C = [v for v in l if v - x1 <= math.log(1 + B)]
    h = max(k * (C[:3][-1] - x1), f0)
    lo, hi = math.exp(x1 - h), math.exp(x1 + h)
    if single and len(C) == 1 and not (H and hist):
        hi = max(hi, math.exp(l[1]))
    return hull(lo, hi, hist, H)


def cluster_sd(x, hist, B=0.08, H=8):
    """F_n · sd of the fast cluster, hull with the last H runs."""
    l = [math.log(v) for v in x]
    C = [v for v in l if v - l[0] <= math.log(1 + B)]
    if len(C) < 2:
        C = l[:2]
    h = FF[min(len(l) - 2, 14)] * sd(C[:max(2, (len(l) + 1) // 2)])
    return hull(x[0] * math.exp(-h), x[0] * math.exp(h), hist, H)


def history(x, hist, H=4, f0=0.003):
    """The last H runs' estimates and this one, ±f0; today's rule before 2 runs."""
    if len(hist) < 2:
        return today(x, hist)
    hh = hist[-H:] + [x[0]]
    return [min(hh) * (1 - f0), max(hh) * (1 + f0)]


# Student's t, 95th percentile, by degrees of freedom (1..20; more use 20's).
T95 = [6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812, 1.796, 1.782,
       1.771, 1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725]


def next_run(x, hist, H=16, band=0.08, fast=3, epoch_dof=2, sds=4.0, kept=0.10):
    """The rule cargo nbench uses (src/compare/estimate.rs), without the clock floor:
    centre the median of this build's last H runs and this one (3 or more), else
    this run; spread pooled over those runs (set aside beyond sds robust sds and
    kept) and the range of the fastest epochs within band over its expectation
    (k/sqrt(pi)) for epoch_dof; t(0.95, dof) * s * sqrt(1 + 1/m)."""
    l = [math.log(v) for v in x]
    C = [v for v in l if v - l[0] <= math.log1p(band)]
    if len(C) > 1:
        k = min(fast, len(C))
        w, wd = (C[k - 1] - C[0]) / (k / math.sqrt(math.pi)), epoch_dof
    else:
        w, wd = l[1] - l[0], (epoch_dof if not hist else 0)
    S = [math.log(v) for v in hist[-H:]] + [l[0]]
    c = sorted(S)[len(S) // 2] if len(S) % 2 else sum(sorted(S)[len(S) // 2 - 1:len(S) // 2 + 1]) / 2
    if len(S) < 3:
        c = l[0]
    K = S
    if len(S) >= 3:
        dev = sorted(abs(v - c) for v in S)
        mad = dev[len(dev) // 2] if len(dev) % 2 else (dev[len(dev) // 2 - 1] + dev[len(dev) // 2]) / 2
        K = [v for v in S if abs(v - c) <= max(sds * max(1.4826 * mad, w / 2), math.log1p(kept))]
    m = len(K)
    ss = sum((v - sum(K) / m) ** 2 for v in K) if m > 1 else 0.0
    dof = wd + m - 1
    s = math.sqrt((wd * w * w + ss) / dof) if dof > 0 else 0.0
    h = T95[min(max(int(dof), 1), 20) - 1] * s * math.sqrt(1 + 1 / len(S))
    return [min(math.exp(c - h), x[0]), max(math.exp(c + h), x[0])]


def hull(lo, hi, hist, H):
    hh = hist[-H:] if H else []
    return [min([lo] + hh), max([hi] + hh)]


def evaluate(label, rule):
    inside = tot = 0
    wos, swings, misses = [], [], []
    for i in ids:
        ws, ests = [], []
        for k in range(len(runs)):
            a = runs[k][i]
            lo, hi = rule(a[2], [runs[j][i][0] for j in range(k)])
            ws.append((hi - lo) / 2 / a[0])
            ests.append(a[0])
            if k + 1 < len(runs):
                b = runs[k + 1][i][0]
                tot += 1
                if lo <= b <= hi:
                    inside += 1
                else:
                    misses.append((i, k, round(100 * (b / a[0] - 1), 2)))
        for w0 in range(0, len(runs) - 4, 5):
            e = sorted(ests[w0:w0 + 5])
            sp = (e[-1] - e[0]) / e[2]
            wm = sorted(ws[w0:w0 + 5])[2]
            wos.append(2 * wm / sp if sp > 0 else 99)
            swings.append(max(ws[w0:w0 + 5]) / max(min(ws[w0:w0 + 5]), 1e-12))
    wos.sort()
    print(f'{label}: next run inside {inside}/{tot} ({100 * inside / max(tot, 1):.0f}%), '
          f'width/spread median {wos[len(wos) // 2]:.2f}, '
          f'windows swinging > 4x: {sum(s > 4 for s in swings)} of {len(swings)}')
    if '-v' in sys.argv:
        print('   misses', misses)


RULES = [
    ("next run (cargo nbench's, since 2026-11-28)", next_run),
    ("min ± F_n · sd (until 2026-11-28)", today),
    ('cluster range x2, >= 0.5 %', lambda x, h: cluster(x, h)),
    ('the same, hull with the last 8 runs', lambda x, h: cluster(x, h, H=8, single=False)),
    ('cluster range x2, hull with the last 4 runs', lambda x, h: cluster(x, h, H=4)),
    ('the same, last 8 runs', lambda x, h: cluster(x, h, H=8)),
    ('F_n x sd(fast cluster), hull with the last 8 runs', cluster_sd),
    ("the last 4 runs and this one, +-0.3 %", lambda x, h: history(x, h, 4, 0.003)),
    ("the last 8 runs and this one, +-0.5 %", lambda x, h: history(x, h, 8, 0.005)),
]

if __name__ == '__main__':
    for label, rule in RULES:
        evaluate(label, rule)
