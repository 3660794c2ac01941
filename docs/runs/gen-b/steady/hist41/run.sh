#!/usr/bin/env bash
# History 2 again, now that both generations' wells lie in the game's
# tail: generation 41's learn step (network 40 fitted to its own 283,923
# refined wells of master-480's pieces 672-1,232, history 1, tag 41h1)
# against the same step with generation 40's 298,005 wells of
# master-456's pieces 583-1,172 added (history 2, 41h2), at fit seed S
# (default 1), each against network 40 (measure.sh, one thread) on the
# suites SUITES (default: steady), then h2 against h1.
#   usage: [S=1] [SUITES="steady default"] run.sh RUN   (RUN: /work/runs/gen-b/r36, cycles 5 and 6 = generations 40 and 41)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
packed_net 40 "$T/n40.hnet"
cd "$HERE"
s=${S:-1}
"$B" train --data "$1/cycle-006/refined.htds" --init "$T/n40.hnet" --seed "$s" --out "$T/h1.hnet" --quiet
"$B" train --data "$1/cycle-005/refined.htds" "$1/cycle-006/refined.htds" --init "$T/n40.hnet" --seed "$s" \
  --out "$T/h2.hnet" --quiet
for suite in ${SUITES:-steady}; do
  for a in h1 h2; do
    [ -f "m-$suite-41$a-s$s-vs-40.json" ] || HATETRIS=$B BASE=40 T=1 bash ../../../steady-a/measure.sh "$T/$a.hnet" "41$a-s$s" "$suite"
  done
  "$B" compare "m-$suite-41h2-s$s-vs-40.json" "m-$suite-41h1-s$s-vs-40.json"
  python3 ../../../chains/follow-late/pair.py "m-$suite-41h2-s$s-vs-40.json" "m-$suite-41h1-s$s-vs-40.json" | grep frozen
done
