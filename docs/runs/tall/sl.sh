#!/bin/bash
# sl and its depth/width arms (docs/experiments.md): boot 16 fine-tuned on
# 64,254 wells of boot's cycle-17 samples (every 8th) with other targets.
# Needs /work/runs/boot/r (boot's run directory) and the diagnose example.
set -euo pipefail
mkdir -p /work/runs/sl && cd /work/runs/sl
B=/work/main/target/release/hatetris
D=/work/main/target/release/examples/diagnose
S=/work/main/docs/runs
cp /work/main/crates/eval/nets/default.hnet boot16.hnet
py() { python3 -c "import sys; sys.path.insert(0, '$S/depth'); import htds; $1"; }
[ -f sub.htds ] || py "
rows, t = htds.read('/work/runs/boot/r/cycle-017/samples.htds')
idx = [i for i in range(len(rows)) if i % 8 == 0]
open('sub.idx', 'w').write('\n'.join(map(str, idx)))
htds.write('sub.htds', [rows[i] for i in idx], [t[i] for i in idx], b'sl subset')"
[ -f sub-K.htds ] || py "
rows, t = htds.read('/work/runs/boot/r/cycle-017/refined.htds')
idx = [int(x) for x in open('sub.idx').read().split()]
htds.write('sub-K.htds', [rows[i] for i in idx], [t[i] for i in idx], b'cycle 17 refined')"
[ -f sub-V.htds ] || $B label --teacher net=boot16.hnet --data sub.htds --out sub-V.htds
# survival (step 1, gamma 0.99) and its half with the value
[ -f sub-T.htds ] || $D refine net=boot16.hnet sub.htds sub-T.htds 128 200 1 1.0 survival 0.99
[ -f sub-H.htds ] || py "
r, a = htds.read('sub-T.htds'); _, b = htds.read('sub-V.htds')
htds.write('sub-H.htds', r, [0.5 * x + 0.5 * y for x, y in zip(a, b)], b'mix')"
# knewjade's target at other lookaheads (step 0.5, scaled over the subset)
[ -f sub-D10.htds ] || $D refine net=boot16.hnet sub.htds sub-D10.htds 50 10 17 0.5
[ -f sub-D30.htds ] || $D refine net=boot16.hnet sub.htds sub-D30.htds 50 30 17 0.5
[ -f sub-W200.htds ] || $D refine net=boot16.hnet sub.htds sub-W200.htds 200 10 17 0.5
for x in T H K D10 D30 W200; do
    [ -f ft$x.hnet ] || $B train --init boot16.hnet --data sub-$x.htds --out ft$x.hnet --quiet > ft$x.log
    [ -f m-ft$x.json ] || bash $S/ens-e/measure.sh ft$x
    bash $S/roll/cmp.sh . ft$x $S/boot boot16 | tail -1
done
# open40 (docs/experiments.md): raw pairs at 50 x 10 for the subset and at
# 50 x 40 for its wells of the first 40 pieces, targets built by hand
# (/work/runs/sl in session 25: x10/y10/xe/y40, sub-O10/O40/O40q), each
# fitted from boot 16 and played as 40 noisy-opening games at 10,000:
#   $D pairs net=boot16.hnet sub.htds x10.htds y10.htds 50 10 17
#   $D pairs net=boot16.hnet sub-early.htds xe.htds y40.htds 50 40 17
#   $D mc net=ftO40q.hnet 40 10000 20 0.3 > mc-ftO40q.jsonl
#   python3 $S/tall/mccmp.py mc-ftO40q.jsonl mc-ftO10.jsonl
