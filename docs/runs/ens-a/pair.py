# Paired difference of two strength JSONs on the same suite (a minus b), t interval as the binary's.
import json, sys, math
from statistics import mean, stdev
def starts(f, i=0):
    return json.load(open(f))['evals'][i]['starts']
fa, ia, fb, ib = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
A, B = starts(fa, ia), starts(fb, ib)
assert [(s['source'], s['piece']) for s in A] == [(s['source'], s['piece']) for s in B]
T = {60: 2.000, 120: 1.980, 1000: 1.962}
for k in ('pieces', 'lines'):
    d = [a[k] - b[k] for a, b in zip(A, B)]
    n = len(d); m = mean(d); se = stdev(d) / math.sqrt(n)
    t = 2.000 if n <= 61 else 1.976
    print(f"{k}: {mean(a[k] for a in A):.1f} vs {mean(b[k] for b in B):.1f}  {m:+.1f} [{m - t*se:+.1f}, {m + t*se:+.1f}]  W{sum(x>0 for x in d)} L{sum(x<0 for x in d)} n={n}")
