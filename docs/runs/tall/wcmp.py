# wcmp.py WIDEOPEN.jsonl GAMES.json: `diagnose wideopen`'s games against
# `hatetris games --json`'s (the same noisy openings, paired by index):
# mean lines and pieces of each and the paired difference with a 95%
# interval (normal quantile).
import json, sys, statistics as st
w = [json.loads(l) for l in open(sys.argv[1])]
g = json.load(open(sys.argv[2]))['evals'][0]['games'][:len(w)]
for k in ('lines', 'pieces'):
    d = [a[k] - b[k] for a, b in zip(w, g)]
    m = st.mean(d); h = 1.96 * st.stdev(d) / len(d) ** 0.5
    print(f"{k}: {st.mean(a[k] for a in w):.1f} against {st.mean(b[k] for b in g):.1f} (n {len(d)}): {m:+.1f} [{m - h:+.1f}, {m + h:+.1f}], wins {sum(x > 0 for x in d)}, losses {sum(x < 0 for x in d)}")
