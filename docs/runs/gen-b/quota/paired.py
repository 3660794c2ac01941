"""Paired rows frozen per 100 pieces, A minus B, over the starts where both froze a row measure."""
import json, math, sys
def starts(f):
    return json.load(open(f))['evals'][0]['starts']
for a in sys.argv[2:]:
    d = [x['frozen_per_100'] - y['frozen_per_100'] for x, y in zip(starts(a), starts(sys.argv[1]))
         if x.get('frozen_per_100') is not None and y.get('frozen_per_100') is not None]
    m = sum(d) / len(d)
    h = 1.96 * math.sqrt(sum((v - m) ** 2 for v in d) / (len(d) - 1) / len(d))
    print(f"{a}: rows frozen per 100 minus control {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}] over {len(d)} starts")
