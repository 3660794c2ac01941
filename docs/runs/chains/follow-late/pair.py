#!/usr/bin/env python3
"""pair.py A1 B1 [A2 B2 ...]: A minus B start by start (strength --json
files of the same suite), pooled over the pairs given: mean and 95%
interval of pieces, lines and rows frozen per 100 pieces. `hatetris
compare` refuses arms of different widths, which is the point here.
`FILE#1` reads a file's second evaluator (the `--vs` side), as `hatetris
compare` does."""
import json, sys


def starts(arg):
    path, _, side = arg.partition("#")
    return json.load(open(path))["evals"][int(side or 0)]["starts"]


args = sys.argv[1:]
for key in ("pieces", "lines", "frozen_per_100"):
    d = []
    for a, b in zip(args[::2], args[1::2]):
        sa, sb = starts(a), starts(b)
        assert [(x["source"], x["piece"]) for x in sa] == [(y["source"], y["piece"]) for y in sb], f"{a} and {b}: other starts"
        d += [x[key] - y[key] for x, y in zip(sa, sb) if x.get(key) is not None and y.get(key) is not None]
    n = len(d)
    if n < 2:
        print(f"{key}: not in these files (written before the binary reported it)")
        continue
    m = sum(d) / n
    h = 1.96 * (sum((v - m) ** 2 for v in d) / (n - 1)) ** 0.5 / n ** 0.5
    print(f"{key}: {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}] ({n} starts)")
