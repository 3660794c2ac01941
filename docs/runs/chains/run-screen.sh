#!/usr/bin/env bash
# The screen of docs/experiments.md's "chains" row: every arm at width 1,000
# and plain beams at the widths that cost as much.
set -euo pipefail
cd "$(dirname "$0")/../../.."
o=${1:-docs/runs/chains/screen}
s=docs/runs/chains/screen.sh
$s $o plain-1k 1000 --quiescence 0
$s $o rec4b2-1k 1000 --quiescence 4 --chain-rule record --chain-band 2
$s $o plain-2k 2000 --quiescence 0
$s $o rec4b4-1k 1000 --quiescence 4 --chain-rule record --chain-band 4
$s $o rec1b2-1k 1000 --quiescence 1 --chain-rule record --chain-band 2
$s $o rec20b2-1k 1000 --quiescence 20 --chain-rule record --chain-band 2
$s $o enemy4b2-1k 1000 --quiescence 4 --chain-rule enemy --chain-band 2
$s $o sz1b2-1k 1000 --quiescence 1 --chain-rule sz --chain-band 2
$s $o plain-4k 4000 --quiescence 0
$s $o rec4-1k 1000 --quiescence 4 --chain-rule record
