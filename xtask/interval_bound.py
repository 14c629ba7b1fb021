"""What the plain-run goals allow when noise is ideal.

A plain run's interval promises where the next run's estimate lands. If the
runs' estimates were independent draws from one normal distribution whose
sd the interval knew exactly, the interval x_k ± z·√2·sd holds run k + 1 at
exactly its level, and nothing narrower does. `cargo xtask stability`
compares the interval's whole width with the spread (max − min) of five
runs' estimates; for normal draws that range has a known distribution, so
the honest width over spread follows from the level alone:

    level   half-width   next run inside   median width ÷ range of 5
    0.90    2.326 sd     90 %              2.06
    0.95    2.772 sd     95 %              2.46

No rule can be both at ≥ 90 % inside and ≤ 2 wide on such noise, even
knowing the sd; estimating it from a few runs only widens the honest
interval. The figures are in docs/figures.md (plain runs).

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
    print("level   half-width   next run inside   median width ÷ range")
    for level in (0.90, 0.95):
        k = N.inv_cdf(0.5 + level / 2) * math.sqrt(2)
        inside = 2 * N.cdf(k / math.sqrt(2)) - 1
        print(f"{level:.2f}    {k:.3f} sd     {inside * 100:.0f} %              {2 * k / med:.2f}")


if __name__ == "__main__":
    main()
