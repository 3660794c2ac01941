# The record engine's refine targets against gen-b's on the same wells:
# from `diagnose pairs` (x = the network's value, y = the best value of its
# 10-piece lookahead, -1 if that dies) at two lookahead widths, the cycle's
# targets (x + step (y - x), then min-max scaled to [-1, 1], as
# `targets_from_pairs` makes them) at step 0.5 (gen-b) and 1 (the record
# engine: the lookahead's value itself).
# Usage: targets.py WORK  (reads WORK/x.htds, WORK/y50.htds, WORK/y512.htds)
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'depth'))
import htds
w = sys.argv[1]
rows, x = htds.read(os.path.join(w, 'x.htds'))
for width in (50, 512):
    r, y = htds.read(os.path.join(w, 'y%d.htds' % width))
    assert r == rows
    dead = sum(1 for v in y if v <= -1.0) / len(y)
    print('width %d: %d wells, %.1f%% dead lookaheads, mean y - x %+.4f'
          % (width, len(y), 100 * dead, sum(b - a for a, b in zip(x, y)) / len(y)))
    for step in (0.5, 1.0):
        t = [a + step * (b - a) for a, b in zip(x, y)]
        lo, hi = min(t), max(t)
        t = [-1 + 2 * (v - lo) / (hi - lo) for v in t]
        name = 'w%d-s%s' % (width, step)
        htds.write(os.path.join(w, name + '.htds'), rows, t, ('t512 ' + name).encode())
        print('  %s: mean |t - x| %.4f' % (name, sum(abs(a - b) for a, b in zip(t, x)) / len(x)))
