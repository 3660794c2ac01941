#!/usr/bin/env bash
# The screen of docs/experiments.md's "chains" row: chained arms at width
# 1,000 and plain beams at the widths that cost as much, one thread each
# (a generation ran on the other core), the 283 starts of three suites.
set -euo pipefail
cd "$(dirname "$0")/../../.."
o=${1:-docs/runs/chains/screen}
s=docs/runs/chains/screen.sh
t=(--threads 1)
$s $o plain-1k 1000 --quiescence 0 "${t[@]}"
$s $o rec4b3-1k 1000 --quiescence 4 --chain-rule record --chain-band 3 "${t[@]}"
$s $o plain-2k 2000 --quiescence 0 "${t[@]}"
$s $o rec1b2-1k 1000 --quiescence 1 --chain-rule record --chain-band 2 "${t[@]}"
$s $o enemy4b3-1k 1000 --quiescence 4 --chain-rule enemy --chain-band 3 "${t[@]}"
$s $o plain-1500 1500 --quiescence 0 "${t[@]}"
$s $o sz1b2-1k 1000 --quiescence 1 --chain-rule sz --chain-band 2 "${t[@]}"
$s $o plain-3k 3000 --quiescence 0 "${t[@]}"
