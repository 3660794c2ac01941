# gcmp.py A.json B.json: two stored `hatetris games --json` results (first
# evaluator of each), A minus B in lines and pieces with Welch's 95%
# interval (normal quantile: 40 games a side), and their rows frozen.
import json, sys, statistics as st
def load(p):
    e = json.load(open(p))['evals'][0]
    return e['eval'], [g['lines'] for g in e['games']], [g['pieces'] for g in e['games']], e['mean_frozen_per_100']
(na, la, pa, fa), (nb, lb, pb, fb) = load(sys.argv[1]), load(sys.argv[2])
print(f'{na} against {nb}; rows frozen per 100 pieces {fa:.2f} against {fb:.2f}')
for name, a, b in (('lines', la, lb), ('pieces', pa, pb)):
    d = st.mean(a) - st.mean(b)
    se = (st.variance(a) / len(a) + st.variance(b) / len(b)) ** 0.5
    print(f'  {name}: {st.mean(a):.1f} against {st.mean(b):.1f}: {d:+.1f} [{d - 1.96 * se:+.1f}, {d + 1.96 * se:+.1f}]')
