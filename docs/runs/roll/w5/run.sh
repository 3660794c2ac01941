#!/bin/bash
# w5: the 35 networks of the last five roll cycles (h, g2, g3, g4, g5) label their wells, fitted from g3.
set -euo pipefail
cd /work/runs/w5
B=/work/main/target/release/hatetris
TEACH=(); DATA=()
for d in h g2 g3 g4 g5; do for f in /work/runs/roll/$d/t-*.hnet; do TEACH+=(--teacher "net=$f"); done; DATA+=(/work/runs/roll/$d/c/cycle-001/samples.htds); done
[ -f lab.htds ] || $B label "${TEACH[@]}" --data "${DATA[@]}" --out lab.htds > label.json
[ -f w5.hnet ] || $B train --data lab.htds --init /work/runs/g3.hnet --out w5.hnet --quiet > train.log 2>&1
echo fit done $(date +%T)
bash /work/main/docs/runs/ens-e/measure.sh w5
echo finished $(date +%T)
