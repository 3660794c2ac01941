# Within-depth agreement of a network's value x with its lookahead y
# (`diagnose pairs` output, samples in depth order): the mean over depths of
# Spearman's correlation, and the share of the variance of y within depths.
# Usage: within.py X.htds Y.htds
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htds
xr, x = htds.read(sys.argv[1]); _, y = htds.read(sys.argv[2])
depth = htds.depth_groups(xr)
groups = [[] for _ in range(depth[-1] + 1)]
for i, d in enumerate(depth):
    groups[d].append(i)
rank = htds.rank
def corr(a, b):
    n = len(a); ma = sum(a) / n; mb = sum(b) / n
    sa = sum((p - ma) ** 2 for p in a) ** .5; sb = sum((q - mb) ** 2 for q in b) ** .5
    return sum((p - ma) * (q - mb) for p, q in zip(a, b)) / (sa * sb) if sa and sb else float('nan')
my = sum(y) / len(y)
tot = sum((v - my) ** 2 for v in y); within = 0.0
rows = []
for k, g in enumerate(groups):
    xs = [x[i] for i in g]; ys = [y[i] for i in g]; m = sum(ys) / len(ys)
    within += sum((v - m) ** 2 for v in ys)
    if len(g) >= 100:
        rows.append((k, corr(rank(xs), rank(ys)), sum(v <= -0.999 for v in ys) / len(ys)))
print('variance of y within depths: %.3f of the total' % (within / tot))
sp = [r[1] for r in rows if r[1] == r[1]]
print('mean within-depth Spearman(x, y) over %d depths: %.3f' % (len(sp), sum(sp) / len(sp)))
for k in range(0, len(rows), max(1, len(rows) // 10)):
    print('  depth %3d: Spearman %.3f, lookahead dead %.2f' % rows[k])
