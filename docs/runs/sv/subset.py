# sv: a survival subset of a roll cycle's samples (docs/experiments.md, sv):
# every STRIDE-th well of the depths between 20% and 75% of the game, in
# file order. Usage: subset.py CYCLE_SAMPLES STRIDE PREFIX (writes
# PREFIX.idx and PREFIX.htds)
import sys; sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
samples, stride, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows, t = htds.read(samples)
g = htds.depth_groups(rows); nd = g[-1] + 1
lo, hi = int(0.20 * nd), int(0.75 * nd)
idx = [i for i in range(len(rows)) if lo <= g[i] < hi and i % stride == 0]
print(len(rows), 'wells', nd, 'depths; subset', len(idx), 'from depth', lo, 'to', hi)
open(prefix + '.idx', 'w').write('\n'.join(map(str, idx)))
htds.write(prefix + '.htds', [rows[i] for i in idx], [t[i] for i in idx], b'sv subset')
