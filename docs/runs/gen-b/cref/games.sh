#!/usr/bin/env bash
# run.sh's networks in `hatetris games` as gen-b's generations are measured
# (40 noisy-opening games, seed 0, plain width 10,000, one thread), into
# games/games-ARM.json and games/times.tsv, and the chained targets'
# networks against the plain ones (Welch).
#   usage: games.sh [ARM...]   (default: all four; W and BIN as run.sh)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
W=${W:-/work/exp/cref}
arms=("$@"); [ ${#arms[@]} -gt 0 ] || arms=(plain-a chained-a plain-b chained-b)
cd "$HERE/../../../.."
for arm in "${arms[@]}"; do
  [ -f "$HERE/games/games-$arm.json" ] || EVAL=net=$W/net-$arm.hnet BIN=${BIN:-target/release/hatetris} \
    nice -n 15 docs/runs/chains/games.sh "$HERE/games" "$arm" 10000 --quiescence 0
done
for sub in a b; do
  [ -f "$HERE/games/games-chained-$sub.json" ] && [ -f "$HERE/games/games-plain-$sub.json" ] &&
    python3 docs/runs/chains/welch.py "$HERE/games" "plain-$sub" "chained-$sub"
done
