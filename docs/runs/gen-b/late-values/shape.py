# shape.py LINEVALUES.tsv TRACE.jsonl: what the well's shape does while the
# network's value falls: each shape measure's correlation with the value
# (the whole game, and pieces 900-1,260), and its means by stretches of
# 50 pieces from 900 (column heights in playable rows; holes: covered
# empty cells).
import json, sys
import numpy as np
tr = {}
for l in open(sys.argv[2]):
    if l.startswith('{') and '"lock"' in l:
        t = json.loads(l)
        tr[t['lock']] = t['well']
vals = {}
for l in list(open(sys.argv[1]))[1:]:
    k, v = l.split('\t')[:2]
    vals[int(k)] = float(v)
F, V, P = [], [], []
for p, w in tr.items():
    if p not in vals:
        continue
    rows = w[4:]  # the 16 playable rows, top first
    hts = [next((16 - i for i, r in enumerate(rows) if (r >> c) & 1), 0) for c in range(10)]
    holes, hole_rows = 0, set()
    for c in range(10):
        seen = False
        for i, r in enumerate(rows):
            if (r >> c) & 1:
                seen = True
            elif seen:
                holes += 1
                hole_rows.add(i)
    cells = sum(bin(r).count('1') for r in rows)
    bump = sum(abs(hts[i] - hts[i + 1]) for i in range(9))
    F.append([max(hts), np.mean(hts), min(hts), holes, len(hole_rows), cells, bump, max(hts[0], hts[9]), np.mean(hts[3:7])])
    V.append(vals[p])
    P.append(p)
F, V, P = np.array(F), np.array(V), np.array(P)
names = ['maxh', 'meanh', 'minh', 'holes', 'holerows', 'cells', 'bump', 'wallh', 'centreh']
for sel, lab in [(P >= 0, 'correlation, whole game'), ((P >= 900) & (P < 1260), 'correlation, 900-1,260')]:
    print(lab, ' '.join(f"{n}:{np.corrcoef(F[sel, i], V[sel])[0, 1]:+.2f}" for i, n in enumerate(names)))
for a in range(900, 1260, 50):
    s = (P >= a) & (P < a + 50)
    print(f"{a}-{a + 50}", ' '.join(f"{n}:{F[s, i].mean():.1f}" for i, n in enumerate(names)), f"value:{V[s].mean():+.2f}")
