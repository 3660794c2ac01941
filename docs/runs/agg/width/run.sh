#!/bin/bash
# The default (d4) on the default suite at wider beams (250 pieces, two
# threads): how far width alone carries the suite measure. Resumable.
set -euo pipefail
cd /work/runs/wd
B=/work/main/target/release/hatetris
for w in 3000 10000 30000; do
    [ -s w$w.json ] || { /usr/bin/time -f "%e s %M KB" $B strength --eval net --width $w --json --quiet --threads 2 > w$w.tmp 2> w$w.time && mv w$w.tmp w$w.json; }
    python3 -c "import json; e=json.load(open('w$w.json'))['evals'][0]; print($w, round(e['mean_pieces'],1), round(e['mean_lines'],1))"
done
