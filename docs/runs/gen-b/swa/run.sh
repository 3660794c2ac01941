#!/usr/bin/env bash
# Session 43: the weight mean of the lineage's last networks (as stochastic
# weight averaging over generations): generations 19-21 (m3) and 20-21
# (m2), each on the three suites (width 1,000, one thread), compared with
# generation 20's network, the best of them.
#   usage: run.sh [RUN]   (RUN: gen-b's run folder from generation 19)
set -euo pipefail
R=${1:-/work/runs/gen-b/r20}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
python3 "$HERE/average.py" "$T/m3.hnet" "$R/net-000.hnet" "$R/cycle-001/net.hnet" "$R/cycle-002/net.hnet"
python3 "$HERE/average.py" "$T/m2.hnet" "$R/cycle-001/net.hnet" "$R/cycle-002/net.hnet"
for n in m3 m2; do
  screen_net "$n" "$T/$n.hnet"
  echo "$n against generation 20's:"; compare_suites "$B" "$HERE/$n" "$HERE/../suites/g020" | tail -3
done
# m2 in `games` as gen-b's generations are measured (games.sh: 40
# noisy-opening games, plain width 10,000), beside games/games-g020.json.
[ -f "$HERE/games-m2.json" ] || (cd "$HERE/../../../.." && EVAL=net=$T/m2.hnet BIN=$B nice -n 15 docs/runs/chains/games.sh "$HERE" m2 10000 --quiescence 0)
