#!/bin/bash
# ens-g: ens-e's and ens-f's fourteen networks (each cycle's own and six students) as
# one mean, labelling both cycles' wells, fitted from ens-e (the ens-a recipe).
set -euo pipefail
cd /work/runs/ensg
B=/work/main/target/release/hatetris
TEACH=(); for f in /work/runs/ensq/e-*.hnet /work/runs/ensf/f-*.hnet; do TEACH+=(--teacher "net=$f"); done
[ -f lab14.htds ] || $B label "${TEACH[@]}" --data /work/runs/ensq/c/cycle-001/samples.htds /work/runs/ensf/c/cycle-001/samples.htds --out lab14.htds > label.json
[ -f ens-g.hnet ] || $B train --data lab14.htds --init /work/runs/ensq/ens-e.hnet --out ens-g.hnet --quiet > train.log 2>&1
echo fit done $(date +%T)
bash /work/main/docs/runs/ens-e/measure.sh ens-g
echo finished $(date +%T)
