# Paired difference in rows frozen per 100 pieces, A - B, over the starts
# both measured (a start too short to measure has none), pooled over the
# pairs of strength JSON files given: frozen.py A1 B1 [A2 B2 ...]
import json, math, sys
d = []
for a, b in zip(sys.argv[1::2], sys.argv[2::2]):
    sa = json.load(open(a))['evals'][0]['starts']
    sb = json.load(open(b))['evals'][0]['starts']
    for x, y in zip(sa, sb):
        assert x['piece'] == y['piece'] and x['source'] == y['source']
        if x.get('frozen_per_100') is not None and y.get('frozen_per_100') is not None:
            d.append(x['frozen_per_100'] - y['frozen_per_100'])
m = sum(d) / len(d)
se = math.sqrt(sum((v - m) ** 2 for v in d) / (len(d) - 1) / len(d))
print(f"rows frozen per 100, {len(d)} starts: {m:+.2f} [{m - 1.96 * se:+.2f}, {m + 1.96 * se:+.2f}]")
