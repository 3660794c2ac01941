#!/usr/bin/env bash
# Chains against a plain beam of the same CPU time in full games: the
# plain width 10,000 (the `games` default) against record chains (depth 4,
# band 3) at 4,500, which the suite screen priced at 2.2 times a plain
# entry; both arms run at once, one thread each, on the same 40 openings.
set -euo pipefail
cd "$(dirname "$0")/../../.."
o=${1:-docs/runs/chains/games}
g=docs/runs/chains/games.sh
$g $o plain-10k 10000 --quiescence 0 &
$g $o rec4b3-4500 4500 --quiescence 4 --chain-rule record --chain-band 3 &
wait
# The chained arm at the width that costs as much as the plain one (the
# first pair priced a chained entry at 0.74 x 10,000 / 4,500 = 1.6 plain
# ones in full games), run after the first two beside the enemy arm.
$g $o rec4b3-6000 6000 --quiescence 4 --chain-rule record --chain-band 3
