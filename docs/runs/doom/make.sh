#!/bin/bash
# doom (docs/experiments.md): a classifier of the lookahead's deaths, tried as
# a term of the evaluator. Needs step-1's targets (docs/runs/step/run.sh s1 1.0)
# and /work/runs/htds.py (read/write of .htds in Python).
set -euo pipefail
mkdir -p /work/runs/doom && cd /work/runs/doom
B=/work/main/target/release/hatetris
N=/work/main/docs/runs/ens-b/ens-b.hnet
python3 - <<'PY'
import sys; sys.path.insert(0, '/work/runs'); import htds
rows, t = htds.read('/work/runs/s1/refined-s1.htds')
# -1 exactly is a death of the 50-wide lookahead (28% of the wells).
htds.write('doom.htds', rows, [-1.0 if x <= -0.9999 else 1.0 for x in t], b'doom labels')
PY
$B train --data doom.htds --seed 1 --out d1.hnet --threads 1 --quiet > d1.log
$B strength --eval net=d1.hnet --json --quiet --threads 1 > m-d1.json
$B strength --eval mean=$N,d1.hnet --json --quiet --threads 1 > m-mean1.json
$B strength --eval mean=$N,$N,$N,d1.hnet --json --quiet --threads 1 > m-mean3.json
