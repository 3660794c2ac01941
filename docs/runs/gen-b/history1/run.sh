#!/usr/bin/env bash
# Session 42: is generation 21's setback its learn step's two generations
# of wells? Trains generation 20's network one epoch on generation 21's
# wells alone (the record engine's history of one), with the cycle's
# settings (batch 8,192, lr 0.001, seed 0), then plays the three suites.
#   usage: run.sh [RUN]   (RUN: gen-b's run folder that holds cycles 1-2 from generation 19)
set -euo pipefail
R=${1:-/work/runs/gen-b/r20}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
"$B" train --data "$R/cycle-002/refined.htds" --init "$R/cycle-001/net.hnet" --max-epochs 1 --out "$T/h1.hnet"
screen_net h1 "$T/h1.hnet"
S=$HERE/../suites
for P in g020 g021; do
  compare_suites "$B" "$HERE/h1" "$S/$P" | tail -3
done
