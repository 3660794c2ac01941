#!/bin/bash
# agg: refine's lookahead read other ways (docs/experiments.md, row agg).
# boot2's cycle-16 network fine-tuned on 68,296 wells (every 8th of its
# cycle-17 samples, its own width-100,000 game) with knewjade's target
# (t = x + 0.5 (y - x), scaled to [-1, 1]) for each reading y of one
# 50 x 10 lookahead beam: its best at the last depth (max, the control),
# the mean of its best 5 / 20 / all 50 there, the mean of every depth's
# best. Resumable: each step is skipped when its file exists.
set -euo pipefail
cd /work/runs/agg
B=/work/main/target/release/hatetris
D=/work/main/target/release/examples/diagnose
S=/work/main/docs/runs
[ -f sub-ydepths.htds ] || $D aggs net=c16.hnet sub.htds sub 50 10 17
for k in ${KINDS:-max t5 t20 all depths}; do
    [ -f sub-T$k.htds ] || python3 -c "
import sys; sys.path.insert(0, '$S/depth'); import htds
r, x = htds.read('sub-x.htds'); _, y = htds.read('sub-y$k.htds')
t = [a + 0.5 * (b - a) for a, b in zip(x, y)]
lo, hi = min(t), max(t)
htds.write('sub-T$k.htds', r, [2 * (v - lo) / (hi - lo) - 1 for v in t], b'agg $k')"
    [ -f ft$k.hnet ] || $B train --init c16.hnet --data sub-T$k.htds --out ft$k.hnet --quiet > ft$k.log
    [ -f m-ft$k-other.json ] || bash $S/ens-e/measure.sh ft$k
    [ $k = max ] || bash $S/roll/cmp.sh . ft$k . ftmax | tail -1 | sed "s/^/$k vs max: /"
done
