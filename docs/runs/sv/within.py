# Within each depth of a survival subset: Spearman's correlation of the
# pieces survived with the cycle's refined targets, with other targets
# (--targets FILE, a whole cycle's data set) and with each network's values
# (label files of the subset's wells). Usage:
#   within.py PREFIX REFINED [--targets FILE] LABELS...
# PREFIX.idx, PREFIX-T.htds as subset.py and `diagnose refine` write them.
import sys; sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
args = sys.argv[1:]
prefix, refined = args[0], args[1]; args = args[2:]
rows, T = htds.survival(prefix + '-T.htds')
g = htds.depth_groups(rows)
idx = [int(v) for v in open(prefix + '.idx').read().split()]
r0, t0 = htds.read(refined)
cols = {'refined targets': [t0[i] for i in idx]}
if args[:1] == ['--targets']:
    other = htds.read(args[1])[1]
    cols[args[1]] = [other[i] for i in idx]; args = args[2:]
for f in args:
    d = dict(zip(*htds.read(f))); cols[f] = [d[r] for r in rows]
for name, v in cols.items():
    out = [htds.spearman(v[b:e], T[b:e]) for b, e in htds.runs(g) if e - b > 50]
    print('%-40s %.3f (mean over %d depths)' % (name, sum(out) / len(out), len(out)))
