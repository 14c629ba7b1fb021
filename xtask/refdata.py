"""Reference values for nbench::stats, computed with NumPy and SciPy.

Run through `cargo xtask refdata` (which makes the virtual environment);
writes one JSON document to the path given as the only argument.
"""

import json
import sys

import numpy as np
import scipy
from scipy import stats

LEVEL = 0.95
PERCENTILES = [1, 5, 25, 50, 75, 95, 99]


def datasets():
    rng = np.random.default_rng(20261122)
    return {
        "n1": [3.5],
        "n2": [1.0, 4.0],
        "small": [12.1, 11.9, 12.4, 12.0, 30.2],
        "ties": [1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 4.0, 5.0, 5.0, 5.0],
        "constant": [7.25] * 9,
        "negative": [-3.5, -1.25, 0.0, 2.5, -7.75, 1.0],
        "heavy_tail": list(100.0 * (rng.pareto(1.5, 200) + 1.0)),
        "lognormal": list(rng.lognormal(6.0, 0.3, 101)),
        "timings": list(np.round(500.0 + rng.gamma(2.0, 5.0, 400), 1)),
        "large": list(rng.normal(1000.0, 25.0, 5001)),
    }


def median_ci(x, level):
    """Order statistics x(j), x(n+1-j): the largest j with 2·P(B ≤ j-1) ≤ 1 - level, B ~ Bin(n, 1/2)."""
    s = np.sort(x)
    n = len(s)
    j = 1
    for cand in range(1, (n + 1) // 2 + 1):
        if 2.0 * stats.binom.cdf(cand - 1, n, 0.5) <= 1.0 - level:
            j = cand
        else:
            break
    return [float(s[j - 1]), float(s[n - j])]


def summary(x):
    a = np.asarray(x, dtype=float)
    n = len(a)
    out = {
        "x": [float(v) for v in a],
        "mean": float(np.mean(a)),
        "median": float(np.median(a)),
        "mad": float(stats.median_abs_deviation(a, scale=1.0)),
        "min": float(np.min(a)),
        "max": float(np.max(a)),
        "percentiles": {str(p): float(np.percentile(a, p, method="linear")) for p in PERCENTILES},
        "median_ci": median_ci(a, LEVEL),
        "outlier_modes": outlier_modes(a),
    }
    if n >= 2:
        sd = float(np.std(a, ddof=1))
        out["variance"] = float(np.var(a, ddof=1))
        out["stddev"] = sd
        if sd > 0:
            lo, hi = stats.t.interval(LEVEL, n - 1, loc=np.mean(a), scale=sd / np.sqrt(n))
            out["mean_ci"] = [float(lo), float(hi)]
    return out


def outlier_modes(x):
    """What each `--outliers` mode keeps: SciPy's trim1/trimboth (int(0.05·n) cut) and Tukey's 1.5·IQR fences."""
    a = np.sort(np.asarray(x, dtype=float))
    q1, q3 = np.percentile(a, [25, 75])
    iqr = q3 - q1
    kept = {
        "none": a,
        "top5": np.sort(stats.trim1(a, 0.05, tail="right")),
        "both5": np.sort(stats.trimboth(a, 0.05)),
        "iqr": a[(a >= q1 - 1.5 * iqr) & (a <= q3 + 1.5 * iqr)],
    }
    out = {}
    for mode, k in kept.items():
        out[mode] = {
            "set_aside": int(len(a) - len(k)),
            "mean": float(np.mean(k)),
            "median": float(np.median(k)),
            "min": float(np.min(k)),
            "max": float(np.max(k)),
        }
    return out


def mann_whitney(data):
    rng = np.random.default_rng(7)
    t = data["timings"]
    pairs = {
        "exact_3_4": ([1.2, 3.4, 5.6], [2.3, 4.5, 6.7, 8.9]),
        "exact_7_7": (list(rng.normal(0, 1, 7)), list(rng.normal(1, 1, 7))),
        "exact_separated": ([1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]),
        "exact_8_20": (list(rng.normal(0, 1, 8)), list(rng.normal(0.5, 1, 20))),
        "asymptotic_9_9": (list(rng.normal(0, 1, 9)), list(rng.normal(1, 1, 9))),
        "ties_small": ([1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 5.0]),
        "identical": ([5.0] * 6, [5.0] * 6),
        "timings": (t[:200], [v * 1.01 for v in t[200:]]),
        "timings_same": (t[:200], t[200:]),
    }
    out = {}
    for name, (x, y) in pairs.items():
        r = stats.mannwhitneyu(x, y, alternative="two-sided", method="auto")
        out[name] = {
            "x": [float(v) for v in x],
            "y": [float(v) for v in y],
            "u": float(r.statistic),
            "p": float(r.pvalue),
        }
    return out


def t_distribution():
    quantiles = []
    for df in [1, 2, 3, 5, 7, 10, 30, 100, 1000, 100000]:
        for p in [0.001, 0.025, 0.1, 0.5, 0.6, 0.9, 0.95, 0.975, 0.995, 0.9995]:
            quantiles.append({"p": p, "df": df, "t": float(stats.t.ppf(p, df))})
    cdf = []
    for df in [1, 3, 10, 1000]:
        for t in [-12.0, -3.0, -1.0, 0.0, 0.5, 2.0, 10.0]:
            cdf.append({"t": t, "df": df, "cdf": float(stats.t.cdf(t, df))})
    return {"quantiles": quantiles, "cdf": cdf}


def paired():
    """The one-sample t test on log ratios that `--compare` uses across epochs."""
    rng = np.random.default_rng(11)
    cases = {
        "two": [1.01, 1.03],
        "epochs": [1.0012, 0.9991, 1.0004, 1.0023, 0.9987, 1.0001, 1.0015, 0.9996],
        "slower": [1.051, 1.048, 1.055, 1.049],
        "noisy": list(np.exp(rng.normal(0.01, 0.02, 30))),
    }
    out = {}
    for name, r in cases.items():
        logs = np.log(r)
        res = stats.ttest_1samp(logs, 0.0)
        ci = res.confidence_interval(LEVEL)
        out[name] = {
            "ratios": [float(v) for v in r],
            "t": float(res.statistic),
            "p": float(res.pvalue),
            "change": float(np.expm1(np.mean(logs))),
            "change_ci": [float(np.expm1(ci.low)), float(np.expm1(ci.high))],
        }
    return out


def sign_test():
    """The sign test's two-sided p-value, as SciPy's binomtest(k, n, 0.5)."""
    splits = [(0, 1), (1, 0), (9, 1), (3, 1), (6, 6), (30, 17), (2, 45), (0, 60), (40, 33), (1, 12)]
    return [
        {"above": a, "below": b, "p": float(stats.binomtest(a, a + b, 0.5).pvalue)}
        for a, b in splits
    ]


def benjamini_hochberg():
    rng = np.random.default_rng(3)
    cases = {
        "textbook": [0.01, 0.04, 0.03, 0.005, 0.2, 0.5],
        "one": [0.03],
        "ties": [0.02, 0.02, 0.02, 0.9],
        "many": list(np.concatenate([rng.uniform(0, 1, 40), rng.uniform(0, 1e-4, 10)])),
    }
    return {
        name: {"p": [float(v) for v in p], "adjusted": [float(v) for v in stats.false_discovery_control(p, method="bh")]}
        for name, p in cases.items()
    }


def complexity():
    """Least-squares fits of time = c·f(N) (no intercept) with NumPy's lstsq; RMS of residuals over the mean time."""
    rng = np.random.default_rng(5)
    n = 2.0 ** np.arange(10, 17)
    shapes = {
        "1": np.ones_like,
        "log N": np.log2,
        "N": lambda s: s,
        "N log N": lambda s: s * np.log2(s),
        "N²": lambda s: s**2,
        "N³": lambda s: s**3,
    }
    cases = {
        "sort_like": (n, 1.7 * n * np.log2(n) * rng.lognormal(0.0, 0.05, len(n))),
        "flat": (n, 100.0 + rng.normal(0.0, 2.0, len(n))),
        "few_points": (np.array([10.0, 100.0, 1000.0]), np.array([31.0, 2900.0, 310000.0])),
    }
    out = {}
    for name, (sizes, t) in cases.items():
        fits = {}
        for shape, shape_of in shapes.items():
            f = shape_of(sizes)
            coef = float(np.linalg.lstsq(f[:, None], t, rcond=None)[0][0])
            rms = float(np.sqrt(np.mean((t - coef * f) ** 2)) / np.mean(t))
            fits[shape] = {"coefficient": coef, "rms": rms}
        best = min(shapes, key=lambda k: fits[k]["rms"])
        out[name] = {"n": [float(v) for v in sizes], "times": [float(v) for v in t], "fits": fits, "best": best}
    return out


def density(data):
    """Gaussian KDE (SciPy's gaussian_kde) with Silverman's robust bandwidth 0.9·min(s, IQR/1.34)·n^(-1/5)."""
    out = {}
    for name, x in data.items():
        x = np.asarray(x)
        s = float(np.std(x, ddof=1)) if len(x) > 1 else 0.0
        if len(x) < 2 or s == 0.0:
            continue
        iqr = float(np.percentile(x, 75) - np.percentile(x, 25))
        spread = min(s, iqr / 1.34) if iqr > 0 else s
        h = 0.9 * spread * len(x) ** -0.2
        at = np.linspace(x.min() - 2 * h, x.max() + 2 * h, 9)
        kde = stats.gaussian_kde(x, bw_method=h / s)
        out[name] = {"bandwidth": h, "at": [float(v) for v in at], "density": [float(v) for v in kde(at)]}
    return out


WINSOR_MIN = 8
WINSOR_K = 3.0
WINSOR_FLOOR = 0.001
MAD_NORMAL = 1.482602218505602


def winsor_factor():
    """The widening of cargo nbench's winsorized interval over n epochs (src/compare/verdict.rs).

    Epoch log ratios further than WINSOR_K robust standard deviations
    (MAD_NORMAL · the median absolute deviation) from their median are
    pulled in to that distance, and the t interval is computed on them. On
    normal data that interval holds the true value less than 95 % of the
    time (93.6 % at n = 8); F_n is the factor on its half-width that brings
    it back to 95 %: the 95th percentile of |mean| / (t_(n-1) · se) over
    1,000,000 samples of n standard normals per n (8 to 24), a fixed seed.
    """
    rng = np.random.default_rng(2027)
    out = {}
    for n in range(WINSOR_MIN, 25):
        x = rng.standard_normal((1_000_000, n))
        m = np.median(x, axis=1, keepdims=True)
        mad = MAD_NORMAL * np.median(np.abs(x - m), axis=1, keepdims=True)
        w = np.clip(x, m - WINSOR_K * mad, m + WINSOR_K * mad)
        se = w.std(axis=1, ddof=1) / np.sqrt(n)
        ratio = np.abs(w.mean(axis=1)) / (stats.t.ppf(0.975, n - 1) * se)
        out[str(n)] = float(np.quantile(ratio, 0.95))
    return out


def clustered_variance(resid, labels):
    """Cluster-robust variance of a mean: G/(G-1) * sum over clusters of (sum of residuals)^2 / n^2."""
    groups = np.unique(labels)
    sums = np.array([resid[labels == g].sum() for g in groups])
    g, n = len(groups), len(resid)
    return g / (g - 1) * float(np.sum(sums ** 2)) / n ** 2


def layout_scale(resid, base_l, cur_l):
    """How much wider the two-way clustered standard error (by each side's
    layout) is than the plain one, and the degrees of freedom to use: one
    fewer than the side with fewer layouts has; (1, None) where it is not wider."""
    n = len(resid)
    plain = clustered_variance(resid, np.arange(n))
    v = clustered_variance(resid, base_l) + clustered_variance(resid, cur_l) - plain
    if v <= plain:
        return 1.0, None
    return float(np.sqrt(v / plain)), min(len(np.unique(base_l)), len(np.unique(cur_l))) - 1


LAYOUT_FAR = 5.0
LAYOUT_MIN_UNITS = 3


def far_layouts(logs, base_l, cur_l):
    """Which units to keep: the layout whose mean lies furthest beyond
    LAYOUT_FAR robust standard deviations from its side's median layout is
    left out, the means are taken again without it, and so on, at most one
    layout a side; only with LAYOUT_MIN_UNITS units per layout."""
    keep = np.ones(len(logs), dtype=bool)
    most = max(len(np.unique(base_l)), len(np.unique(cur_l)))
    if len(logs) < LAYOUT_MIN_UNITS * most:
        return keep
    sides = [base_l, cur_l]
    while True:
        farthest = None
        for i, labels in enumerate(sides):
            groups = np.unique(labels[keep])
            means = np.array([logs[keep & (labels == g)].mean() for g in groups])
            m = np.median(means)
            reach = LAYOUT_FAR * max(MAD_NORMAL * np.median(np.abs(means - m)), WINSOR_FLOOR)
            for g, mean in zip(groups, means):
                excess = abs(mean - m) / reach
                if excess > 1 and (farthest is None or excess > farthest[0]):
                    farthest = (excess, i, g)
        if farthest is None:
            return keep
        _, i, g = farthest
        keep &= sides.pop(i) != g


def by_median(r, logs, pulled):
    """More than a third of the epochs far from the rest: the median of the
    log ratios, its distribution-free interval (median_ci) and the sign test."""
    ci = median_ci(logs, LEVEL)
    above, below = int(np.sum(logs > 0)), int(np.sum(logs < 0))
    p = float(stats.binomtest(above, above + below, 0.5).pvalue) if above + below else 1.0
    return {
        "ratios": [float(v) for v in r],
        "pulled": pulled,
        "change": float(np.expm1(np.median(logs))),
        "change_ci": [float(np.expm1(ci[0])), float(np.expm1(ci[1]))],
        "p": p,
    }


def winsorized():
    """The paired change over epochs with far epochs pulled in, as `verdict::paired` computes it."""
    factors = winsor_factor()
    cases = {
        "two": [1.01, 1.03],
        "clean": [1.0012, 0.9991, 1.0004, 1.0023, 0.9987, 1.0001, 1.0015, 0.9996],
        "one_far": [1.0001, 0.9998, 1.2190, 1.0000, 0.9999, 1.0003, 0.9997, 1.0002],
        "five": [0.8335, 1.0191, 0.8338, 0.8321, 1.0823],
        "modes": [1.0096, 1.0113, 0.977, 1.0096, 1.0025, 0.8868, 1.0338, 0.9742,
                  1.0097, 1.0096, 1.0096, 1.0096, 0.8035],
        "identical_core": [1.0, 1.0, 1.0, 1.25, 1.0, 0.8, 1.0, 1.0],
        # More than a third far, most of them on one side (measured, A/A):
        # the median of the epochs and the sign test.
        "states": [0.800, 0.815, 0.815, 0.817, 0.817, 0.820, 0.820, 0.821, 0.903, 0.904,
                   0.911, 0.915, 0.929, 0.929, 0.933, 0.970, 0.970, 0.971, 0.993, 0.993,
                   0.994, 0.997, 0.997, 0.998, 0.998, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0,
                   1.0, 1.0, 1.0, 1.0, 1.0001, 1.0001, 1.0002, 1.0003, 1.0004, 1.0004,
                   1.0005, 1.001, 1.001, 1.003, 1.030, 1.197, 1.222],
        "states_slower": [0.741, 0.803, 0.827, 0.827, 0.828, 1.006, 1.007, 1.008, 1.008,
                          1.009, 1.009, 1.010, 1.010, 1.010, 1.011, 1.012, 1.197, 1.202],
    }
    # Units over 8 layouts of each side, labelled as epochs e pair them
    # (baseline e mod 8, current (e + e div 8) mod 8): one with no layout
    # effect, one whose current layouts move it by up to ±11 %.
    rng = np.random.default_rng(2028)
    e = np.arange(64)
    base_l, cur_l = e % 8, (e + e // 8) % 8
    place_base, place_cur = rng.normal(0.0, 0.06, 8), rng.normal(0.0, 0.06, 8)
    # One baseline layout 9 % slower than the other seven, which placement
    # moves by ±0.3 %; 48 epochs ±1.2 % (measured: an allocation loop).
    one_far = rng.normal(0.0, 0.003, 8)
    one_far[5] += 0.09
    layouts = {
        "layouts_flat": np.exp(rng.normal(0.004, 0.002, 24)),
        "layouts_placed": np.exp(0.004 + place_cur[cur_l[:24]] - place_base[base_l[:24]]
                                 + rng.normal(0.0, 0.002, 24)),
        "layouts_one_far": np.exp(0.01 - one_far[base_l[:48]] + rng.normal(0.0, 0.012, 48)),
    }
    for name, r in layouts.items():
        cases[name] = [float(v) for v in r]
    out = {}
    for name, r in cases.items():
        logs = np.log(r)
        n = len(logs)
        factor = 1.0
        pulled = 0
        clustered = name in layouts
        if n >= WINSOR_MIN:
            m = np.median(logs)
            reach = WINSOR_K * max(MAD_NORMAL * np.median(np.abs(logs - m)), WINSOR_FLOOR)
            pulled = int(np.sum(np.abs(logs - m) > reach))
            if 3 * pulled > n:
                out[name] = by_median(r, logs, pulled)
                continue
            logs = np.clip(logs, m - reach, m + reach)
        bl, cl = base_l[:n], cur_l[:n]
        left_out = 0
        if clustered:
            keep = far_layouts(logs, bl, cl)
            left_out = len(np.unique(bl)) - len(np.unique(bl[keep])) + \
                len(np.unique(cl)) - len(np.unique(cl[keep]))
            logs, bl, cl = logs[keep], bl[keep], cl[keep]
            n = len(logs)
        if n >= WINSOR_MIN:
            factor = factors[str(min(n, 24))]
        mean = float(np.mean(logs))
        se = float(np.std(logs, ddof=1) / np.sqrt(n))
        df = n - 1
        if clustered:
            scale, layout_df = layout_scale(logs - mean, bl, cl)
            se *= scale
            df = layout_df or df
        q = float(stats.t.ppf(0.975, df))
        if se > 0:
            p = float(2 * stats.t.sf(abs(mean) / (factor * se), df))
        else:
            p = 1.0 if mean == 0 else 0.0
        out[name] = {
            "ratios": [float(v) for v in r],
            **({"base": [int(v) for v in base_l[:len(r)]], "cur": [int(v) for v in cur_l[:len(r)]],
                "left_out": left_out}
               if clustered else {}),
            "pulled": pulled,
            "change": float(np.expm1(mean)),
            "change_ci": [float(np.expm1(mean - factor * q * se)), float(np.expm1(mean + factor * q * se))],
            "p": p,
        }
    return {"factors": factors, "cases": out}


def placement():
    """The spread between process pairs over layouts and placement's part of
    it, as `Assignment::spread` and `placement_spread` compute them
    (src/run/layouts.rs): per side, the variance of its layouts' mean log
    units less total / m (m units a layout), over 1 - 1/m, at least 0."""
    rng = np.random.default_rng(2031)
    e = np.arange(64)
    # 16 layouts a side, 64 epochs: each layout 4 times, each pair once.
    base_l, cur_l = e % 16, (e + e // 16) % 16
    place_base, place_cur = rng.normal(0.0, 0.02, 16), rng.normal(0.0, 0.02, 16)
    cases = {
        "placed": place_cur[cur_l] - place_base[base_l] + rng.normal(0.0, 0.005, 64),
        "process_pairs": rng.normal(0.0, 0.03, 64),
        "mixed": 0.5 * (place_cur[cur_l] - place_base[base_l]) + rng.normal(0.0, 0.03, 64),
    }

    def side(logs, labels, total):
        groups = np.unique(labels)
        m = len(logs) / len(groups)
        means = np.array([logs[labels == g].mean() for g in groups])
        return max(0.0, (np.var(means, ddof=1) - total / m) / (1 - 1 / m))

    out = {}
    for name, logs in cases.items():
        total = np.var(logs, ddof=1)
        own = side(logs, base_l, total) + side(logs, cur_l, total)
        out[name] = {
            "units": [float(v) for v in np.exp(logs)],
            "base": [int(v) for v in base_l],
            "cur": [int(v) for v in cur_l],
            "spread": float(np.expm1(np.sqrt(total / 2))),
            "placement": float(np.expm1(np.sqrt(own / 2))),
        }
    return out


def main():
    data = datasets()
    doc = {
        "generator": f"xtask/refdata.py with NumPy {np.__version__}, SciPy {scipy.__version__}",
        "level": LEVEL,
        "summaries": {name: summary(x) for name, x in data.items()},
        "t": t_distribution(),
        "mann_whitney": mann_whitney(data),
        "paired": paired(),
        "sign_test": sign_test(),
        "benjamini_hochberg": benjamini_hochberg(),
        "complexity": complexity(),
        "density": density(data),
        "winsorized": winsorized(),
        "placement": placement(),
    }
    with open(sys.argv[1], "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
