#!/usr/bin/env bash
# Session 45: how deep should gen-b's master search follow a chain? Its
# search is bound by width, not time, so the depth worth most at equal
# width is the one to retune it to. The record rule, band 0, at depths 8
# and 16 beside rules.sh's depth 4 (40 noisy-opening games at width 2,000,
# seed 0, one thread, generation 20's network), Welch against depth 4.
#   usage: depth.sh   (results beside this file; arms already run are kept)
set -euo pipefail
cd "$(dirname "$0")/../../../.."
o=docs/runs/chains/genb20
. $o/g020.sh
export EVAL=net=$NET BIN=${BIN:-target/release/hatetris}
for q in 16 8; do
  [ -f $o/games-rec${q}b0-2k.json ] ||
    docs/runs/chains/games.sh $o rec${q}b0-2k 2000 --quiescence $q --chain-rule record --chain-band 0
  python3 docs/runs/chains/welch.py $o rec4b0-2k rec${q}b0-2k
done
