#!/usr/bin/env bash
# Session 37: the enemy's-piece rule with a band. Over the same 40
# noisy-opening games (seed 0) the enemy rule chaining every candidate gave
# +5.75 [+3.3, +8.2] lines over plain at the same width 2,000 (Welch,
# ../band0/ against ../games-small/), at six times the CPU; a band of 3
# chains only the 3 x width best candidates and costs 1.62 times plain (one
# game from the empty well at 2,000, binary of `0839f66`). Arm: enemy rule,
# depth 4, band 3, at width 6,000 (about plain 10,000's CPU:
# ../games/games-plain-10k.json, 51.2 lines in 337 CPU s; the record rule
# with the same band and width: ../games/, 48.4 lines).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
export BIN=${BIN:-target/release/hatetris}
o=${1:-docs/runs/chains/enemy-band}
nice -n 10 docs/runs/chains/games.sh "$o" enemy4b3-6000 6000 --quiescence 4 --chain-rule enemy --chain-band 3
