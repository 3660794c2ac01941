#!/bin/bash
# par (docs/experiments.md): the 21 networks of three cycles searched by
# g3-level networks (g4's and g5's cycles of roll.sh, rollc's first) label
# those cycles' wells, fitted from g4; then the three suites.
set -euo pipefail
B=${HATETRIS:-/work/main/target/release/hatetris}
R=/work/runs/roll; C=/work/runs/rollc/cycle-001
mkdir -p /work/runs/par && cd /work/runs/par
TEACH=(); DATA=()
for d in $R/g4 $R/g5; do
    for f in $d/t-*.hnet; do TEACH+=(--teacher net=$f); done
    DATA+=($d/c/cycle-001/samples.htds)
done
for f in $C/own.hnet $C/student-0*.hnet; do TEACH+=(--teacher net=$f); done
DATA+=($C/samples.htds)
$B label "${TEACH[@]}" --data "${DATA[@]}" --out lab.htds > label.json
$B train --data lab.htds --init $R/g4/out.hnet --out par.hnet --quiet > train.log 2>&1
bash /work/main/docs/runs/ens-e/measure.sh par
