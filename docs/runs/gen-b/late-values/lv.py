# lv.py LINEVALUES.tsv VERIFY.json TRACE.jsonl: per 25 locks of a game, its
# score and mean stack height (playable rows), the rows frozen by then
# (verify's rows_frozen_at at or before the lock: rows that never change
# again) and the mean and least value of each 25 wells by the network.
import json,sys
v=json.load(open(sys.argv[2]))
fr=v['rows_frozen_at']
tr=[json.loads(l) for l in open(sys.argv[3]) if l.startswith('{') and '"lock"' in l]
vals=[l.rstrip('\n').split('\t') for l in open(sys.argv[1])][1:]
well={t['lock']:t for t in tr}
def height(w):
    rows=w[4:]
    for i,r in enumerate(rows):
        if r: return len(rows)-i
    return 0
print("piece  score height frozen  value(mean of 25)  min")
for p in range(0,len(vals),25):
    chunk=[float(x[1]) for x in vals[p:p+25]]
    t=well.get(p) 
    hs=[height(well[q]['well']) for q in range(p,min(p+25,len(vals))) if q in well]
    print(f"{p:5} {t['score'] if t else 0:5} {sum(hs)/max(1,len(hs)):5.1f} {sum(1 for f in fr if f<=p):3}  {sum(chunk)/len(chunk):+.3f} {min(chunk):+.3f}")
