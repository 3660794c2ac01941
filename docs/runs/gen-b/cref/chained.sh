#!/usr/bin/env bash
# run.sh's four networks (plain and chained targets, subsets a and b) on the
# three suites searched as the master search searches (record chains,
# depth 4, every candidate, blend 0.5; width 1,000, one thread), named
# ARM-q4-{default,other,dense2}.json, and the chained targets' networks
# compared with the plain ones there.
#   usage: chained.sh [ARM...]   (default: all four; W and BIN as run.sh)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
W=${W:-/work/exp/cref}
. "$HERE/../net.sh"
study_setup
arms=("$@"); [ ${#arms[@]} -gt 0 ] || arms=(plain-a chained-a plain-b chained-b)
for arm in "${arms[@]}"; do
  [ -f "$HERE/$arm-q4-dense2.json" ] || (cd "$HERE/../../../.." && EVAL=net=$W/net-$arm.hnet BIN=$B \
    docs/runs/chains/screen.sh "$HERE" "$arm-q4" 1000 --threads 1 --quiescence 4 --chain-blend 0.5)
done
for sub in a b; do
  [ -f "$HERE/chained-$sub-q4-dense2.json" ] && [ -f "$HERE/plain-$sub-q4-dense2.json" ] &&
    compare_suites "$B" "$HERE/chained-$sub-q4" "$HERE/plain-$sub-q4" | tee "$HERE/compare-$sub-q4.txt"
done
