#!/bin/bash
# agg's second batch: a reward in refine's target. y = the lookahead's best
# value at the last depth + C x the lines its best entry cleared on the way
# (sub-ymax.htds, r-lines.htds), then t = x + 0.5 (y - x) scaled as refine
# does; C = 0.02 (r02) and 0.05 (r05) by default, others by CS="10 20". Resumable.
set -euo pipefail
cd /work/runs/agg
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
for c in ${CS:-02 05}; do
    k=r$c
    [ -f sub-T$k.htds ] || python3 -c "
import sys; sys.path.insert(0, '$S/depth'); import htds
r, x = htds.read('sub-x.htds'); _, y = htds.read('sub-ymax.htds'); _, L = htds.read('r-lines.htds')
t = [a + 0.5 * (b + 0.$c * l - a) for a, b, l in zip(x, y, L)]
lo, hi = min(t), max(t)
htds.write('sub-T$k.htds', r, [2 * (v - lo) / (hi - lo) - 1 for v in t], b'agg reward 0.$c')"
    [ -f ft$k.hnet ] || $B train --init c16.hnet --data sub-T$k.htds --out ft$k.hnet --quiet > ft$k.log
    [ -f m-ft$k-other.json ] || bash $S/ens-e/measure.sh ft$k
    bash $S/roll/cmp.sh . ft$k . ftmax | tail -1 | sed "s/^/$k vs max: /"
done
