# holes.py TRACE.jsonl: per 25 locks, the mean count of covered empty cells
# (an empty cell with a filled one above it in its column) and of rows
# holding one.
import json,sys
tr=[json.loads(l) for l in open(sys.argv[1]) if l.startswith('{') and '"lock"' in l]
def stats(w):
    rows=w  # top first, 20 rows
    holes=0; holerows=set()
    for c in range(10):
        seen=False
        for i,r in enumerate(rows):
            b=(r>>c)&1
            if b: seen=True
            elif seen: holes+=1; holerows.add(i)
    return holes,len(holerows)
print("piece holes rows-with-holes (mean of 25)")
for p in range(0,len(tr),25):
    ch=[stats(t['well']) for t in tr[p:p+25]]
    print(f"{tr[p]['lock']:5} {sum(h for h,_ in ch)/len(ch):5.1f} {sum(r for _,r in ch)/len(ch):5.1f}")
