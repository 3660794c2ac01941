# lv.py LINEVALUES.tsv VERIFY.json TRACE.jsonl: per 25 locks of a game, its
# score and mean stack height (playable rows), the rows frozen by then
# (verify's rows_frozen_at at or before the lock: rows that never change
# again) and the mean and least value of each 25 wells by the network.
import json, sys
from wells import read_trace, shape
fr = json.load(open(sys.argv[2]))['rows_frozen_at']
well = {t['lock']: t for t in read_trace(sys.argv[3])}
vals = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])][1:]
print("piece  score height frozen  value(mean of 25)  min")
for p in range(0, len(vals), 25):
    chunk = [float(x[1]) for x in vals[p:p + 25]]
    t = well.get(p)
    hs = [max(shape(well[q]['well'])[0]) for q in range(p, min(p + 25, len(vals))) if q in well]
    print(f"{p:5} {t['score'] if t else 0:5} {sum(hs)/max(1,len(hs)):5.1f} {sum(1 for f in fr if f<=p):3}  {sum(chunk)/len(chunk):+.3f} {min(chunk):+.3f}")
