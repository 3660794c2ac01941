# sv targets: g4's cycle's refined targets, with each depth block of the
# survival subset (512 wells, one depth) re-assigned: the block's own
# targets, sorted, handed out in the order of the pieces a width-128 search
# of g3 survives from each well (up to 200; ties by the old target).
import sys; sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
rows, t0 = htds.read('/work/runs/roll/g4/c/cycle-001/refined.htds')
idx = [int(v) for v in open('sub.idx').read().split()]
srows, T = htds.survival('sub-T.htds')
assert len(T) == len(idx) and all(rows[i] == r for i, r in zip(idx, srows))
g = htds.depth_groups(rows)
t = list(t0); moved = 0.0
for b, e in htds.runs([g[i] for i in idx]):
    ids = idx[b:e]
    order = sorted(range(len(ids)), key=lambda k: (T[b + k], t0[ids[k]]))
    vals = sorted(t0[i] for i in ids)
    for rnk, k in enumerate(order):
        t[ids[k]] = vals[rnk]; moved += abs(vals[rnk] - t0[ids[k]])
print('mean |t - t0| over the subset', moved / len(idx))
htds.write('sv.htds', rows, t, b'sv: survival-ranked targets on a subset of g4 cycle')
