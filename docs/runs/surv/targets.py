# Survival-ranked targets (docs/experiments.md, surv-rank): for the subset
# wells, y = the block's own value distribution re-assigned by the average
# of two ranks, ens-b's value x and the width-128 survival T; all other
# wells keep x. Usage: targets.py WEIGHT_T BLOCK OUT
import sys; sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
w, block, out = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rows, _ = htds.read('/work/runs/ensc/c/cycle-001/samples.htds')
# ens-b's own values (`hatetris label` keeps distinct wells only).
own = dict(zip(*htds.read('/work/runs/s0/own.htds')))
x = [own[r] for r in rows]
idx = [int(v) for v in open('sub.idx').read().split()]
sub_rows, T = htds.read('sub-T128.htds')
assert len(T) == len(idx) and all(rows[i] == r for i, r in zip(idx, sub_rows))
rank = htds.rank
t = list(x)
moved = 0.0
for b in range(0, len(idx), block):
    ids = idx[b:b + block]
    xs = [x[i] for i in ids]; ts = T[b:b + block]
    c = [(1 - w) * p + w * q for p, q in zip(rank(xs), rank(ts))]
    rc = rank(c); srt = sorted(xs)
    for k, i in enumerate(ids):
        t[i] = srt[rc[k]]
        moved += abs(t[i] - x[i])
print('mean |t - x| over the subset', moved / len(idx))
htds.write(out, rows, t, ('survival-ranked targets, weight %g on T, blocks of %d' % (w, block)).encode())
