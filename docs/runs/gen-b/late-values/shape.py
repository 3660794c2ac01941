# shape.py LINEVALUES.tsv TRACE.jsonl: what the well's shape does while the
# network's value falls: each shape measure's correlation with the value
# (the whole game, and pieces 900-1,260), and its means by stretches of
# 50 pieces from 900 (column heights in playable rows; holes: covered
# empty cells).
import sys
import numpy as np
from wells import read_trace, shape
tr = {t['lock']: t['well'] for t in read_trace(sys.argv[2])}
vals = {}
for l in list(open(sys.argv[1]))[1:]:
    k, v = l.split('\t')[:2]
    vals[int(k)] = float(v)
F, V, P = [], [], []
for p, w in tr.items():
    if p not in vals:
        continue
    hts, holes, hole_rows, cells = shape(w)
    bump = sum(abs(hts[i] - hts[i + 1]) for i in range(9))
    F.append([max(hts), np.mean(hts), min(hts), holes, hole_rows, cells, bump, max(hts[0], hts[9]), np.mean(hts[3:7])])
    V.append(vals[p])
    P.append(p)
F, V, P = np.array(F), np.array(V), np.array(P)
names = ['maxh', 'meanh', 'minh', 'holes', 'holerows', 'cells', 'bump', 'wallh', 'centreh']
for sel, lab in [(P >= 0, 'correlation, whole game'), ((P >= 900) & (P < 1260), 'correlation, 900-1,260')]:
    print(lab, ' '.join(f"{n}:{np.corrcoef(F[sel, i], V[sel])[0, 1]:+.2f}" for i, n in enumerate(names)))
for a in range(900, 1260, 50):
    s = (P >= a) & (P < a + 50)
    print(f"{a}-{a + 50}", ' '.join(f"{n}:{F[s, i].mean():.1f}" for i, n in enumerate(names)), f"value:{V[s].mean():+.2f}")
