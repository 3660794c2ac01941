# Depth-centred refine targets (docs/experiments.md, depth): from the raw
# pairs of `diagnose pairs` (x = the network's value, y = its 10-piece
# lookahead's) on a cycle's samples (written in depth order), three target
# sets on the same wells:
#   kj.htds   knewjade's, as the cycle makes it: x + 0.5 (y - x), min-max scaled
#   c05.htds  x + 0.5 ((y - x) - mean over the well's depth of (y - x))
#   c1.htds   the same at step 1
# Depths as `htds.depth_groups` finds them. Usage: targets.py X.htds Y.htds OUTDIR
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htds
xr, x = htds.read(sys.argv[1])
yr, y = htds.read(sys.argv[2])
out = sys.argv[3]
assert xr == yr
group = htds.depth_groups(xr)
n = group[-1] + 1
d = [b - a for a, b in zip(x, y)]
tot, cnt = [0.0] * n, [0] * n
for gi, di in zip(group, d):
    tot[gi] += di; cnt[gi] += 1
mean = [t / c for t, c in zip(tot, cnt)]
print('%d wells, %d depths (sizes %d..%d)' % (len(x), n, min(cnt), max(cnt)))
for k in range(0, n, max(1, n // 12)):
    print('  depth group %3d: mean(y - x) %+.3f' % (k, mean[k]))
kj = [a + 0.5 * b for a, b in zip(x, d)]
lo, hi = min(kj), max(kj)
kj = [-1 + 2 * (t - lo) / (hi - lo) for t in kj]
clamp = lambda v: max(-1.0, min(1.0, v))
c05 = [clamp(a + 0.5 * (b - mean[gi])) for a, b, gi in zip(x, d, group)]
c1 = [clamp(a + (b - mean[gi])) for a, b, gi in zip(x, d, group)]
for name, t in [('kj', kj), ('c05', c05), ('c1', c1)]:
    moved = sum(abs(a - b) for a, b in zip(t, x)) / len(x)
    print('%s: mean |t - x| %.4f' % (name, moved))
    htds.write(os.path.join(out, name + '.htds'), xr, t, ('depth targets ' + name).encode())
