# an.py: per network, mean pieces on the default suite (d-) and own games (o-); their
# correlation across networks, and each suite's split-half reliability (odd/even starts).
import json, glob, statistics as st, sys
def pieces(f): return [s['pieces'] for s in json.load(open(f))['evals'][0]['starts']]
def rank(x):
    o = sorted(range(len(x)), key=lambda i: x[i]); r = [0]*len(x)
    for k, i in enumerate(o): r[i] = k
    return r
def corr(a, b):
    ma, mb = st.mean(a), st.mean(b)
    return sum((x-ma)*(y-mb) for x, y in zip(a, b)) / (sum((x-ma)**2 for x in a) * sum((y-mb)**2 for y in b))**0.5
names = sorted(f[2:-5] for f in glob.glob('d-*.json') if glob.glob('o-'+f[2:]))
D = {n: pieces('d-%s.json' % n) for n in names}; O = {n: pieces('o-%s.json' % n) for n in names}
for n in names: print('%-14s default %6.1f own %6.1f' % (n, st.mean(D[n]), st.mean(O[n])))
d = [st.mean(D[n]) for n in names]; o = [st.mean(O[n]) for n in names]
print('n', len(names), 'default sd %.2f own sd %.2f' % (st.pstdev(d), st.pstdev(o)))
print('pearson default~own %.3f spearman %.3f' % (corr(d, o), corr(rank(d), rank(o))))
for tag, S in (('default', D), ('own', O)):
    a = [st.mean(S[n][0::2]) for n in names]; b = [st.mean(S[n][1::2]) for n in names]
    r = corr(a, b); print('%s split-half r %.3f (Spearman-Brown %.3f)' % (tag, r, 2*r/(1+r)))
