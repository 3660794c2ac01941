# an.py: per network, mean pieces on the default suite (d-) and own games (o-); their
# correlation across networks, and each suite's split-half reliability (odd/even starts).
import json, glob, statistics as st, sys
sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
def pieces(f): return [s['pieces'] for s in json.load(open(f))['evals'][0]['starts']]
corr = st.correlation  # Pearson
names = sorted(f[2:-5] for f in glob.glob('d-*.json') if glob.glob('o-'+f[2:]))
D = {n: pieces('d-%s.json' % n) for n in names}; O = {n: pieces('o-%s.json' % n) for n in names}
for n in names: print('%-14s default %6.1f own %6.1f' % (n, st.mean(D[n]), st.mean(O[n])))
d = [st.mean(D[n]) for n in names]; o = [st.mean(O[n]) for n in names]
print('n', len(names), 'default sd %.2f own sd %.2f' % (st.pstdev(d), st.pstdev(o)))
print('pearson default~own %.3f spearman %.3f' % (corr(d, o), htds.spearman(d, o)))
for tag, S in (('default', D), ('own', O)):
    a = [st.mean(S[n][0::2]) for n in names]; b = [st.mean(S[n][1::2]) for n in names]
    r = corr(a, b); print('%s split-half r %.3f (Spearman-Brown %.3f)' % (tag, r, 2*r/(1+r)))
