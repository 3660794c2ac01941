#!/usr/bin/env bash
# Session 42: what the record rule is worth at equal width with a network
# trained on chained master games (gen-b's generation 20), against d4's
# +1.0 lines at width 2,000 (../band0/). 40 noisy-opening games, seed 0,
# one thread each; generation 20's plain 10,000 is ../../gen-b/games/.
#   usage: run.sh   (both arms, one after another; results beside this file)
set -euo pipefail
cd "$(dirname "$0")/../../../.."
o=docs/runs/chains/genb20
g=docs/runs/chains/games.sh
. $o/g020.sh
export EVAL=net=$NET BIN=${BIN:-target/release/hatetris}
$g "$o" plain-2k 2000 --quiescence 0
$g "$o" rec4b0-2k 2000 --quiescence 4 --chain-rule record --chain-band 0
python3 docs/runs/chains/welch.py "$o" plain-2k rec4b0-2k
