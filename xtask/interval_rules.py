"""Plain-run interval rules, evaluated offline on stored runs.

Reads the runs `cargo xtask stability` stored (target/xtask/stability/nbench/runs,
each benchmark's epoch medians under `repeats`) and, for each candidate rule,
prints how often run k+1's estimate lands in run k's interval, how much the
median interval's width exceeds the run-to-run spread in 5-run windows, and
how often the half-width swings more than 4x within a window. `-v` lists the
misses. The figures are in docs/notes/2026-11-28-plain-run-intervals.md.

`--levels` instead evaluates cargo nbench's rule at several t quantiles, per
pass of `cargo xtask stability` (fresh, then rebuilt with the fresh runs as
an earlier build's), the first window of five apart, as the xtask judges
them: what a wider or narrower interval would trade between the next run
inside and width over spread. `--resolution NS` (the clock's, as the xtask
prints it) applies the half-step floor.

Usage: python3 xtask/interval_rules.py [-v] [--levels [--resolution NS]]
"""
import functools, json, glob, math, sys

files = sorted(glob.glob('target/xtask/stability/nbench/runs/*.json'))
runs, builds = [], []
for f in files:
    d = json.load(open(f))
    r = {}
    for t in d['targets']:
        for b in t['benchmarks']:
            if b.get('repeats'):
                r[b['id']] = (b['median_ns'], b['median_ci_ns'], sorted(b['repeats']['medians_ns']),
                              b['iters_per_sample'])
    runs.append(r)
    builds.append(d['targets'][0].get('build'))
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


@functools.lru_cache(maxsize=None)
def t_quantile(q, nu):
    """Student's t quantile by bisection on its CDF (Simpson's rule on the density)."""
    c = math.gamma((nu + 1) / 2) / (math.sqrt(nu * math.pi) * math.gamma(nu / 2))

    def cdf(t, n=2000):
        h = t / n
        f = [c * (1 + (i * h) ** 2 / nu) ** (-(nu + 1) / 2) for i in range(n + 1)]
        return 0.5 + h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))

    lo, hi = 0.0, 60.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < q else (lo, mid)
    return (lo + hi) / 2


def scatter(S, least, sds=4.0, kept=0.10):
    """One build's runs: sum of squares about their mean and its dof, runs set aside as the rule does."""
    if len(S) < 2:
        return 0.0, 0
    K = S
    if len(S) >= 3:
        c = median(S)
        mad = 1.4826 * median([abs(v - c) for v in S])
        K = [v for v in S if abs(v - c) <= max(sds * max(mad, least), math.log1p(kept))]
    m = sum(K) / len(K)
    return sum((v - m) ** 2 for v in K), len(K) - 1


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def next_run_at(q, x, hist, others, floor):
    """cargo nbench's rule (src/compare/estimate.rs) with the t quantile q, other
    builds' estimates `others` and the clock's half step `floor`."""
    l = [math.log(v) for v in x]
    C = [v for v in l if v - l[0] <= math.log1p(0.08)]
    if len(C) == 1 and not hist and not others:
        # One fast epoch, nothing earlier: from half the band below up to the third fastest.
        lo, hi = math.exp(l[0] - math.log1p(0.08) / 2), x[min(2, len(x) - 1)]
        return [min(lo, x[0] - floor), max(hi, x[0] + floor)]
    if len(C) > 1:
        k = min(3, len(C))
        w, wd = (C[k - 1] - C[0]) / (k / math.sqrt(math.pi)), 2
    else:
        w, wd = 0, 0
    S = [math.log(v) for v in hist[-16:]] + [l[0]]
    c = median(S) if len(S) >= 3 else l[0]
    sq, dof = wd * w * w, wd
    for build in [S] + ([[math.log(v) for v in others]] if others else []):
        a, d = scatter(build, w / 2)
        sq, dof = sq + a, dof + d
    s = math.sqrt(sq / dof) if dof > 0 else 0.0
    h = t_quantile(q, max(dof, 1)) * s * math.sqrt(1 + 1 / len(S))
    return [min(math.exp(c - h), x[0], x[0] - floor), max(math.exp(c + h), x[0], x[0] + floor)]


def judge(ws, ests, steps):
    """One window of five: (± swinging > 4x unexcused, its width over spread or None at the clock's step)."""
    mid = median(ests)
    furthest = max(abs(e / mid - 1) for e in ests)
    moved = furthest >= 0.10 or furthest > min(ws)
    swung = max(ws) / max(min(ws), 1e-12) > 4 and not moved
    spread = (max(ests) - min(ests)) / mid
    at_step = median(ws) <= 1.01 * median(steps) / mid
    return swung, (None if at_step else (2 * median(ws) / spread if spread > 0 else math.inf))


def levels(resolution):
    """The rule at several quantiles, per pass, first window apart."""
    passes = []
    for b in builds:
        if not passes or passes[-1][0] != b:
            passes.append((b, []))
    for q in (0.95, 0.965, 0.975):
        for n, (build, _) in enumerate(passes):
            own = [r for r, b in zip(runs, builds) if b == build]
            earlier = [r for r, b in zip(runs, builds) if b != build][:len(own)] if n else []
            figures = {'first': [0, 0, 0, [], 0], 'all': [0, 0, 0, [], 0]}
            for i in ids:
                o = [r[i][0] for r in earlier] or None
                ws, ests, steps = [], [], []
                for k, r in enumerate(own):
                    floor = resolution / (2 * r[i][3])
                    lo, hi = next_run_at(q, r[i][2], [p[i][0] for p in own[:k]], o, floor)
                    ws.append((hi - lo) / 2 / r[i][0])
                    ests.append(r[i][0])
                    steps.append(floor)
                    if k % 5 < 4 and k + 1 < len(own):
                        for key in ('first', 'all') if k < 5 else ('all',):
                            figures[key][0] += lo <= own[k + 1][i][0] <= hi
                            figures[key][1] += 1
                for w0 in range(0, len(own) - 4, 5):
                    swung, ratio = judge(ws[w0:w0 + 5], ests[w0:w0 + 5], steps[w0:w0 + 5])
                    for key in ('first', 'all') if w0 == 0 else ('all',):
                        figures[key][2] += swung
                        figures[key][4] += 1
                        if ratio is not None:
                            figures[key][3].append(ratio)
            name = 'rebuilt' if n else 'fresh'
            for key, (inside, pairs, swung, ratios, windows) in figures.items():
                print(f't({q}) {name:8s} {key:5s} windows: next run inside {inside}/{pairs} '
                      f'({100 * inside / max(pairs, 1):.1f}%), swinging > 4x {swung} of {windows}, '
                      f'width/spread median {median(ratios):.2f}')


def next_run(x, hist, H=16, band=0.08, fast=3, epoch_dof=2, sds=4.0, kept=0.10):
    """The rule cargo nbench uses (src/compare/estimate.rs), without the clock floor:
    centre the median of this build's last H runs and this one (3 or more), else
    this run; spread pooled over those runs (set aside beyond sds robust sds and
    kept) and the range of the fastest epochs within band over its expectation
    (k/sqrt(pi)) for epoch_dof; t(0.95, dof) * s * sqrt(1 + 1/m)."""
    l = [math.log(v) for v in x]
    C = [v for v in l if v - l[0] <= math.log1p(band)]
    if len(C) == 1 and not hist:
        return [math.exp(l[0] - math.log1p(band) / 2), x[min(2, len(x) - 1)]]
    if len(C) > 1:
        k = min(fast, len(C))
        w, wd = (C[k - 1] - C[0]) / (k / math.sqrt(math.pi)), epoch_dof
    else:
        w, wd = 0, 0
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
    if '--levels' in sys.argv:
        at = sys.argv.index('--resolution') + 1 if '--resolution' in sys.argv else None
        levels(float(sys.argv[at]) if at else 0.0)
    else:
        for label, rule in RULES:
            evaluate(label, rule)
