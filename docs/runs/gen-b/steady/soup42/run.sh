#!/usr/bin/env bash
# A learn step averaged over fit seeds: generation 42's step (network 41
# fitted to generation 42's refined wells with the cycle's settings,
# net.sh's fit_as_cycle) at fit seeds 1..K (default 4), and the weight
# mean of those K fits (the soup, ../../swa/average.py: fits from one
# network keep their hidden units in correspondence). Each against network
# 41 on the suites SUITES (default: steady default; measure.sh, one
# thread), then the soup against the single fits, pooled over the seeds.
# The cycle's own fit (network 42) is finish.sh's m-*-42-vs-41.
#   usage: [K=4] [SUITES="steady default"] run.sh RUN   (RUN: /work/runs/gen-b/r42, cycle 1 = generation 42)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
packed_net 41 "$T/n41.hnet"
W=${WORK:-/work/exp/soup42}
mkdir -p "$W"
cd "$HERE"
k=${K:-4}
fits=()
for s in $(seq 1 "$k"); do
  [ -f "$W/s$s.hnet" ] || FIT_SEED=$s NICE=5 fit_as_cycle "$T/n41.hnet" "$1/cycle-001/refined.htds" "$W/s$s.hnet" \
    > "train-s$s.txt" 2>&1
  fits+=("$W/s$s.hnet")
done
python3 ../../swa/average.py "$W/soup$k.hnet" "${fits[@]}"
# The arms: each fit (tag 42sS) and the soup (42soupK), as NAME:FILE.
arms=()
for s in $(seq 1 "$k"); do arms+=("42s$s:$W/s$s.hnet"); done
arms+=("42soup$k:$W/soup$k.hnet")
for suite in ${SUITES:-steady default}; do
  pairs=()
  for arm in "${arms[@]}"; do
    tag=${arm%%:*}
    [ -f "m-$suite-$tag-vs-41.json" ] || HATETRIS=$B BASE=41 T=1 bash ../../../steady-a/measure.sh "${arm#*:}" "$tag" "$suite" > /dev/null
    [ "$tag" = "42soup$k" ] || pairs+=("m-$suite-42soup$k-vs-41.json" "m-$suite-$tag-vs-41.json")
  done
  echo "== $suite: the soup of $k fits against each fit, pooled"
  "$B" compare "${pairs[@]}"
done
# The soup against network 42 (the cycle's fit) on the three public
# suites (283 starts; network 42's from finish.sh) and in `games` (40
# noisy openings, plain 10,000; network 42's: ../../games/).
screen_net "soup$k" "$W/soup$k.hnet"
echo "== the soup of $k fits against network 42, three public suites"
compare_suites "$B" "$HERE/soup$k" "$HERE/../../suites/g042"
[ -f "games-soup$k.json" ] || (cd "$ROOT" && EVAL=net=$W/soup$k.hnet BIN=$B nice -n 5 docs/runs/chains/games.sh \
  "$HERE" "soup$k" 10000 --quiescence 0)
echo "== games: the soup of $k fits against network 42"
python3 ../../../chains/welch.py "$HERE" ../../games/g042 "soup$k"
