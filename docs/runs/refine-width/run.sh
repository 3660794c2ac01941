#!/usr/bin/env bash
# Does a wider refine make a better network from the same wells? The record
# engine refines each sampled well with a beam 512 wide (10 pieces); gen-b
# with one 50 wide. Every 16th of gen-b generation 15's sampled wells
# (56,223), refined by generation 14's network (the one that refined them in
# the cycle) 10 pieces on at width 50 (A: the cycle's own targets for those
# wells) and at width 400 (B); a network trained from generation 14's on
# each, with the cycle's training settings; both measured on the three
# suites (283 starts, width 1,000) and compared start by start.
# Usage: run.sh [WORK]  (WORK: /tmp/rw; the run folder /work/runs/gen-b/r)
set -euo pipefail
W=${1:-/tmp/rw}
R=${RUN:-/work/runs/gen-b/r}
HERE=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$HERE/../../../target/release/hatetris}
mkdir -p "$W/cycle-014" "$W/cycle-015"
[ -f "$W/A.htds" ] || python3 "$HERE/subsample.py" 16 "$R/cycle-015" "$W"
cp "$R/cycle-014/net.hnet" "$W/cycle-014/"
cp "$R/cycle-015/search.json" "$W/cycle-015/"
python3 -c "import json; c=json.load(open('$R/config.json')); c['refine']['width']=400; json.dump(c, open('$W/config.json','w'), indent=2)"
[ -f "$W/B.htds" ] || /usr/bin/time -f '%U %e' -o "$W/B.time" nice -n 10 "$B" refine --run "$W" --cycle 15 --out "$W/B.htds" --threads 1
for arm in A B; do
  [ -f "$W/net-$arm.hnet" ] || nice -n 10 "$B" train --data "$W/$arm.htds" --init "$W/cycle-014/net.hnet" --out "$W/net-$arm.hnet" \
      --hidden 48 --seed 0 --batch 8192 --lr 0.001 --max-epochs 100 --patience 3 --validation 0.1 --loss mse --threads 1 \
      --plot "$HERE/train-$arm.png" > "$HERE/train-$arm.txt" 2>&1
  [ -f "$HERE/$arm-dense2.json" ] || EVAL=net=$W/net-$arm.hnet BIN=$B nice -n 10 "$HERE/../chains/screen.sh" "$HERE" "$arm" 1000 --threads 1
done
"$B" compare "$HERE/B-default.json" "$HERE/A-default.json" "$HERE/B-other.json" "$HERE/A-other.json" \
  "$HERE/B-dense2.json" "$HERE/A-dense2.json" | tee "$HERE/compare.txt"
