#!/bin/bash
# xc: the cross-lineage ensemble. g3's window (21 networks of ens-h's, g2's,
# g3's cycles) and boot's window at cycle 14 (21 networks of its cycles
# 12-14) label both windows' wells; fitted from g3.
set -euo pipefail
cd /work/runs/xc
B=${HATETRIS:-./hb}
T=(); D=()
for d in h g2 g3; do for f in /work/runs/roll/$d/t-*.hnet; do T+=(--teacher net=$f); done; D+=(/work/runs/roll/$d/c/cycle-001/samples.htds); done
for c in 012 013 014; do for f in /work/runs/boot/r/cycle-$c/own.hnet /work/runs/boot/r/cycle-$c/student-*.hnet; do T+=(--teacher net=$f); done; D+=(/work/runs/boot/r/cycle-$c/samples.htds); done
echo "${#T[@]} teacher args, ${#D[@]} data sets"
[ -f lab.htds ] || { time $B label "${T[@]}" --data "${D[@]}" --out lab.htds --threads 1 > label.json; }
[ -f xc.hnet ] || { time $B train --data lab.htds --init /work/main/docs/runs/roll/g3.hnet --out xc.hnet --quiet --threads 1 > train.log 2>&1; }
HATETRIS=$B bash /work/main/docs/runs/ens-e/measure.sh xc
