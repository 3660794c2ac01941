#!/usr/bin/env python3
"""Bar 4 of issue #45 over several networks: each pair is a chained arm and
a plain arm of at least its CPU on the same 40 openings; the pooled
difference (chained minus plain) weights each pair's Welch difference by
the inverse of its variance (a fixed-effect mean), with a normal 95%
interval. Usage: pool.py PLAIN CHAINED [PLAIN CHAINED ...], arms as paths
from this folder without `games-` and `.json` (eq33/plain60k)."""
import math, os, sys

from welch import lines, mean_and_var_of_mean as mv

HERE = os.path.dirname(os.path.abspath(__file__))

args = sys.argv[1:]
if not args or len(args) % 2:
    sys.exit("usage: pool.py PLAIN CHAINED [PLAIN CHAINED ...]")
num = den = 0.0
for p, c in zip(args[::2], args[1::2]):
    (mp, vp), (mc, vc) = mv(lines(HERE, p)), mv(lines(HERE, c))
    d, v = mc - mp, vp + vc
    print(f"{c} - {p}: {d:+.1f} (se {math.sqrt(v):.1f})")
    num, den = num + d / v, den + 1 / v
m, se = num / den, math.sqrt(1 / den)
print(f"pooled: {m:+.1f} [{m - 1.96 * se:+.1f}, {m + 1.96 * se:+.1f}] lines")
