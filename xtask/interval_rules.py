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

# F_n for n = 2..16 epochs (src/compare/estimate.rs FASTEST_FACTOR).
FF = [15.193, 20.245, 23.013, 6.7638, 7.2832, 4.8054, 5.0583, 4.0249, 4.1832, 3.6047, 3.7099,
      3.3243, 3.4018, 3.1139, 3.1866]


def sd(v):
    m = sum(v) / len(v)
    return math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))


def today(x, hist):
    """min ± F_n · sd of the faster half (the rule cargo nbench uses)."""
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
            swings.append(max(ws[w0:w0 + 5]) / min(ws[w0:w0 + 5]))
    wos.sort()
    print(f'{label}: next run inside {inside}/{tot} ({100 * inside / max(tot, 1):.0f}%), '
          f'width/spread median {wos[len(wos) // 2]:.2f}, '
          f'windows swinging > 4x: {sum(s > 4 for s in swings)} of {len(swings)}')
    if '-v' in sys.argv:
        print('   misses', misses)


RULES = [
    ("today's", today),
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
