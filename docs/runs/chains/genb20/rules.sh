#!/usr/bin/env bash
# Session 44: which chain rule is worth more at equal width with a
# generation network (gen-b's generation 20)? The master search is bound by
# width, not time, so this is the rule gen-b's master search should use.
# Games: the enemy's-piece rule at 2,000 beside run.sh's record arm (40
# noisy-opening games, seed 0, one thread). Suites: both rules and plain at
# width 1,000 on the 283 starts (screen.sh), paired by pair.py.
#   usage: rules.sh   (results beside this file; arms already run are kept)
set -euo pipefail
cd "$(dirname "$0")/../../../.."
o=docs/runs/chains/genb20
. $o/g020.sh
export EVAL=net=$NET BIN=${BIN:-target/release/hatetris}
[ -f $o/games-enemy4b0-2k.json ] ||
  docs/runs/chains/games.sh $o enemy4b0-2k 2000 --quiescence 4 --chain-rule enemy --chain-band 0
python3 docs/runs/chains/welch.py $o plain-2k enemy4b0-2k
python3 docs/runs/chains/welch.py $o rec4b0-2k enemy4b0-2k
s=$o/screen
arm() { [ -f "$s/$1-dense2.json" ] || docs/runs/chains/screen.sh "$s" "$@"; }
arm plain-1k 1000 --quiescence 0
arm rec4b0-1k 1000 --quiescence 4 --chain-rule record --chain-band 0
arm enemy4b0-1k 1000 --quiescence 4 --chain-rule enemy --chain-band 0
python3 docs/runs/chains/pair.py $s plain-1k rec4b0-1k
python3 docs/runs/chains/pair.py $s plain-1k enemy4b0-1k
python3 docs/runs/chains/pair.py $s rec4b0-1k enemy4b0-1k
