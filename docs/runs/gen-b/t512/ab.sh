#!/usr/bin/env bash
# Session 48: a's and b's w512-s0.5 targets (run.sh a 0, run.sh b 8 made
# them in WORK-a and WORK-b) together, and each set one epoch, from
# generation 22's network with the cycle's training settings; the three
# suites, compared with a's and b's arms and generation 22's network.
#   usage: ab.sh   (arms already made are kept)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
W=${WORK:-/work/exp/t512}
O=$HERE/ab
mkdir -p "$O"
packed_net 22 "$T/g22.hnet"
A=$W-a/w512-s0.5.htds
Bd=$W-b/w512-s0.5.htds
fit() {  # fit NAME EPOCHS DATA...
  local name=$1 epochs=$2; shift 2
  [ -f "$W-ab/net-$name.hnet" ] || EPOCHS=$epochs NICE=10 fit_as_cycle "$T/g22.hnet" "$1" "$W-ab/net-$name.hnet" \
    "${@:2}" > "$O/train-$name.txt" 2>&1
  [ -f "$O/$name-dense2.json" ] || (cd "$HERE/../../../.." && EVAL=net=$W-ab/net-$name.hnet BIN=$B nice -n 10 \
    bash docs/runs/chains/screen.sh "$O" "$name" 1000 --threads 1)
}
mkdir -p "$W-ab"
fit w512-s0.5 100 "$A" "$Bd"
fit a1 1 "$A"
fit ab1 1 "$A" "$Bd"
for n in w512-s0.5 a1 ab1; do echo "$n against generation 22's:"; compare_suites "$B" "$O/$n" "$HERE/../suites/g022" | tail -2 | head -1; done
for o in a b; do echo "ab against $o:"; compare_suites "$B" "$O/w512-s0.5" "$HERE/$o/w512-s0.5" | tail -2 | head -1; done
echo "a1 against a:"; compare_suites "$B" "$O/a1" "$HERE/a/w512-s0.5" | tail -2 | head -1
echo "ab1 against ab:"; compare_suites "$B" "$O/ab1" "$O/w512-s0.5" | tail -2 | head -1
