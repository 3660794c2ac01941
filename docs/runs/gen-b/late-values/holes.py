# holes.py TRACE.jsonl: per 25 locks, the mean count of covered empty cells
# (an empty cell with a filled one above it in its column) and of rows
# holding one.
import sys
from wells import read_trace, shape
tr = read_trace(sys.argv[1])
print("piece holes rows-with-holes (mean of 25)")
for p in range(0, len(tr), 25):
    ch = [shape(t['well'])[1:3] for t in tr[p:p + 25]]
    print(f"{tr[p]['lock']:5} {sum(h for h,_ in ch)/len(ch):5.1f} {sum(r for _,r in ch)/len(ch):5.1f}")
