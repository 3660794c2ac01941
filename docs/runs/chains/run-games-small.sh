#!/usr/bin/env bash
# Chains against plain beams in full games at small widths, where the
# suites found chains ahead at equal CPU time: plain 2,000 against record
# chains (depth 4, band 3) at 1,000 (0.90x its CPU on the suites), and
# plain 1,000 against chains at 500; 40 games each (seed 0), one thread.
set -euo pipefail
cd "$(dirname "$0")/../../.."
o=${1:-docs/runs/chains/games-small}
g=docs/runs/chains/games.sh
$g $o plain-2k 2000 --quiescence 0
$g $o rec4b3-1k 1000 --quiescence 4 --chain-rule record --chain-band 3
$g $o plain-1k 1000 --quiescence 0
$g $o rec4b3-500 500 --quiescence 4 --chain-rule record --chain-band 3
