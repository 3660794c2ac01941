import json, sys, statistics as st
# pool.py A1 B1 [A2 B2 ...]: paired pieces difference A - B over all starts
d = []
for a, b in zip(sys.argv[1::2], sys.argv[2::2]):
    x = json.load(open(a))['evals'][0]['starts']; y = json.load(open(b))['evals'][0]['starts']
    assert [s['piece'] for s in x] == [s['piece'] for s in y]
    d += [p['pieces'] - q['pieces'] for p, q in zip(x, y)]
m = st.mean(d); s = st.stdev(d) / len(d) ** .5
print(f"n {len(d)}: {m:+.2f} [{m-1.96*s:+.2f}, {m+1.96*s:+.2f}] wins {sum(v>0 for v in d)} losses {sum(v<0 for v in d)}")
