# Pooled paired difference over several suites: pairs of (a.json, b.json) given as a1 b1 a2 b2 ...
import json, sys, math
from statistics import mean, stdev
d = {'pieces': [], 'lines': []}
args = sys.argv[1:]
for fa, fb in zip(args[::2], args[1::2]):
    A = json.load(open(fa))['evals'][0]['starts']; B = json.load(open(fb))['evals'][0]['starts']
    assert [(s['source'], s['piece']) for s in A] == [(s['source'], s['piece']) for s in B]
    for k in d: d[k] += [a[k] - b[k] for a, b in zip(A, B)]
for k, x in d.items():
    n = len(x); m = mean(x); se = stdev(x) / math.sqrt(n); t = 1.97
    print(f"{k}: {m:+.2f} [{m - t*se:+.2f}, {m + t*se:+.2f}] W{sum(v>0 for v in x)} L{sum(v<0 for v in x)} n={n}")
