#!/usr/bin/env bash
# Session 42: do the chains pay in games whose openings are short? From the
# empty well (one game) d4 plays 55 lines plain and 85 with record chains
# at width 10,000, while over 40 games opened by 20 noisy pieces every rule
# loses at equal CPU. Here the openings are 5 noisy pieces (`--open 5`):
# plain 10,000 against the enemy's-piece rule (band 0, depth 4) at 2,000,
# d4, 40 games, seed 0, one thread each (compare CPU seconds).
#   usage: run.sh   (both arms, one after another; results beside this file)
set -euo pipefail
cd "$(dirname "$0")/../../../.."
o=docs/runs/chains/open5
g=docs/runs/chains/games.sh
export BIN=${BIN:-target/release/hatetris}
$g "$o" plain-10k 10000 --open 5 --quiescence 0
$g "$o" enemy4b0-2k 2000 --open 5 --quiescence 4 --chain-rule enemy --chain-band 0
python3 docs/runs/chains/welch.py "$o" enemy4b0-2k plain-10k
