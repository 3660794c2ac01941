#!/usr/bin/env bash
# Issue #45, item 4: a generation becomes the embedded default when its
# master game is longer and `games` at `play`'s settings is significantly
# better. `games` as gen-b/games.sh plays them (40 noisy openings, seed 0,
# width 10,000, one thread), but with `play`'s chains (record rule, depth 4,
# every candidate, blend 0.5), one arm a network:
#   g029: gen-b's generation 29; d4: the default before it; g025: `play`'s old
#   network (generation 25's). Arms named on the command line, or all three.
#   NET=FILE: the network of a gNNN arm (default: its packing commit's).
#   SEED=S: another set of openings (`games --seed S`); its arms are named
#   ARM-sS (games-g034-s1.json), the default set's plain ARM.
#   usage: [BIN=hatetris] [NET=FILE] [SEED=0] run.sh [ARM...]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../../.." && pwd)
. "$root/docs/runs/gen-b/net.sh"
study_setup  # B, the binary (BIN=...); T, a scratch folder
arms=("$@"); [ ${#arms[@]} -gt 0 ] || arms=(g029 d4 g025)
seed_suffix  # seed, suffix (SEED=...)
for arm in "${arms[@]}"; do
  [ -s "$HERE/games-$arm$suffix.json" ] && continue
  case $arm in
    d4) eval="net=$D4" ;;
    g025) eval=play ;;
    g*) study_net "$((10#${arm#g}))" "$T/$arm.hnet"; eval="net=$T/$arm.hnet" ;;
  esac
  (cd "$root" && EVAL=$eval BIN=$B docs/runs/chains/games.sh "$HERE" "$arm$suffix" 10000 --quiescence 4 --chain-blend 0.5 --seed "$seed")
done
