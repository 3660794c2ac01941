#!/bin/bash
# Students from a scaled-down random first layer vs the cycle's students (scale 1), on ens-c cycle 1's targets.
set -euo pipefail
cd /work/runs/init
B=/work/main/target/release/hatetris; D=/work/main/target/release/examples/diagnose
C=/work/runs/ensc/c/cycle-001
for s in 1 2 3 4; do
  [ -f i01-$s.hnet ] || { $D init 48 $s 0.1 init01-$s.hnet; $B train --data $C/refined.htds --init init01-$s.hnet --seed $s --out i01-$s.hnet --threads 1 --quiet > i01-$s.log 2>&1; }
  [ -f m-i01-$s.json ] || $B strength --eval net=i01-$s.hnet --json --quiet --threads 1 > m-i01-$s.json
  [ -f m-st-$s.json ] || $B strength --eval net=$C/student-0$s.hnet --json --quiet --threads 1 > m-st-$s.json
done
echo finished
