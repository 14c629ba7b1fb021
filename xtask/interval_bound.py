"""What the plain-run goals allow when noise is ideal.

A plain run's interval promises where the next run's estimate lands. If the
runs' estimates were independent draws from one normal distribution whose
sd the interval knew exactly, an interval centred on the mean of m runs'
estimates (this run and m − 1 earlier ones of the same build) holds run
k + 1 at exactly its level with half-width z·sd·√(1 + 1/m), and nothing
narrower does. `cargo xtask stability` compares the interval's whole width
with the spread (max − min) of five runs' estimates; for normal draws that
range has a known distribution, so the honest width over spread follows
from the level and m alone:

    level   m = 1 (own run only)   m = 5   m = 17 (the rule's most)
    0.90    2.06                   1.60    1.50
    0.95    2.46                   1.90    1.79

Centred on its own run alone (no history), no rule can be both at ≥ 90 %
inside and ≤ 2 wide on such noise. Centred on many runs, both hold with
room; estimating the sd from a few runs, second states and runs the
machine slowed throughout are what cost the rest. The measured figures are
in docs/figures.md (plain runs).

Usage: python3 xtask/interval_bound.py   (standard library only)
"""
import math
from statistics import NormalDist

N = NormalDist()
RUNS = 5


def range_cdf(r, n=RUNS, steps=4000, lo=-9.0, hi=9.0):
    """P(max − min of n standard normal draws ≤ r), by the trapezoid rule."""
    h = (hi - lo) / steps
    total = 0.0
    for i in range(steps + 1):
        x = lo + i * h
        f = N.pdf(x) * (N.cdf(x + r) - N.cdf(x)) ** (n - 1)
        total += f * (0.5 if i in (0, steps) else 1.0)
    return n * total * h


def range_median(n=RUNS):
    lo, hi = 0.0, 10.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if range_cdf(mid, n) < 0.5:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main():
    med = range_median()
    print(f"median range of {RUNS} normal draws: {med:.4f} sd")
    print("interval centred on the mean of m runs' estimates, sd known:")
    print("level   m    half-width   next run inside   median width ÷ range")
    for level in (0.90, 0.95):
        z = N.inv_cdf(0.5 + level / 2)
        for m in (1, 2, 5, 17):
            k = z * math.sqrt(1 + 1 / m)
            print(f"{level:.2f}    {m:<4} {k:.3f} sd     {level * 100:.0f} %              {2 * k / med:.2f}")


if __name__ == "__main__":
    main()
