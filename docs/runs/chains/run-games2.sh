#!/usr/bin/env bash
# A second set of 40 openings (seed 1) for the two equal-time arms of
# run-games.sh (plain 10,000; record chains depth 4 band 3 at 6,000), one
# after the other on one thread, so that with the first set (seed 0) each
# arm has 80 games.
set -euo pipefail
cd "$(dirname "$0")/../../.."
o=${1:-docs/runs/chains/games2}
g=docs/runs/chains/games.sh
$g $o plain-10k 10000 --quiescence 0 --seed 1
$g $o rec4b3-6000 6000 --quiescence 4 --chain-rule record --chain-band 3 --seed 1
