#!/usr/bin/env bash
# Session 43: how much of a generation's suite result is its learn step's
# seed? Generation 21's learn step again (generation 20's network, one
# epoch on generations 20's and 21's wells, the cycle's settings) with
# other seeds of the weights' batch order and validation split, each
# played on the three suites (width 1,000, one thread) and compared with
# generations 20 and 21. Seed 55743151230 is the cycle's own (its seed plus
# 2 x 0x9E3779B9): that fit must be generation 21's network byte for byte.
#   usage: run.sh [RUN] [SEEDS...]   (RUN: gen-b's run folder from generation 19)
set -euo pipefail
R=${1:-/work/runs/gen-b/r20}; shift || true
SEEDS=${*:-1 2 3}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
data=("$R/cycle-001/refined.htds" "$R/cycle-002/refined.htds")
"$B" train --data "${data[@]}" --init "$R/cycle-001/net.hnet" --max-epochs 1 --seed 55743151230 --out "$T/own.hnet" --quiet
cmp "$T/own.hnet" "$R/cycle-002/net.hnet" && echo "seed 55743151230 gives generation 21's network byte for byte"
S=$HERE/../suites
for s in $SEEDS; do
  [ -f "$HERE/s$s-dense2.json" ] && continue
  "$B" train --data "${data[@]}" --init "$R/cycle-001/net.hnet" --max-epochs 1 --seed "$s" --out "$T/s$s.hnet" --quiet
  screen_net "s$s" "$T/s$s.hnet"
done
for s in $SEEDS; do
  for P in g020 g021; do
    echo "seed $s against $P:"; compare_suites "$B" "$HERE/s$s" "$S/$P" | tail -3
  done
done
