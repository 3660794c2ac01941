# mccmp.py A.jsonl B.jsonl: mean pieces and lines of two sets of `diagnose
# mc` games, and A - B with a 95% interval (Welch; the games are not paired:
# each network's noisy openings differ).
import json, sys, statistics as st
def load(p):
    g = [json.loads(l) for l in open(p)]
    return [x['pieces'] for x in g], [x['lines'] for x in g]
(pa, la), (pb, lb) = load(sys.argv[1]), load(sys.argv[2])
for name, a, b in (('pieces', pa, pb), ('lines', la, lb)):
    d = st.mean(a) - st.mean(b)
    se = (st.variance(a) / len(a) + st.variance(b) / len(b)) ** 0.5
    print(f'{name}: {st.mean(a):.1f} (n {len(a)}) against {st.mean(b):.1f} (n {len(b)}): {d:+.1f} [{d - 1.96 * se:+.1f}, {d + 1.96 * se:+.1f}]')
