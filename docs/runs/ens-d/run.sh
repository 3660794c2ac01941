#!/bin/bash
# ens-d: the mean of every random-start student of the ensc run (18, three cycles' targets),
# the four small-init students, ens-a and ens-b, labelling the ensc run's wells, distilled from ens-b.
set -euo pipefail
cd /work/runs/ensd
B=/work/main/target/release/hatetris
C=/work/runs/ensc/c
T=(--teacher net=/work/main/crates/eval/nets/default.hnet --teacher net=/work/main/docs/runs/ens-b/ens-b.hnet)
for f in $C/cycle-00?/student-*.hnet /work/runs/init/i01-?.hnet; do T+=(--teacher "net=$f"); done
echo "${#T[@]} teacher args"
[ -f lab.htds ] || $B label "${T[@]}" --data $C/cycle-001/samples.htds $C/cycle-002/samples.htds $C/cycle-003/samples.htds --out lab.htds > label.json
[ -f ens-d.hnet ] || $B train --data lab.htds --init /work/main/docs/runs/ens-b/ens-b.hnet --out ens-d.hnet --quiet > train.jsonl 2>train.err
S=/work/main/docs/runs/strength
$B strength --eval net=ens-d.hnet --json --quiet > m-ens-d.json
$B strength --eval net=ens-d.hnet --suite /work/main/docs/runs/ens-a/dense2.htsu --json --quiet > m-ens-d-dense2.json
$B strength --eval net=ens-d.hnet --suite $S/other.htsu --json --quiet > m-ens-d-other.json
$B strength --eval net=ens-d.hnet --suite $S/dense.htsu --json --quiet > m-ens-d-dense.json
echo finished
