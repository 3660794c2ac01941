#!/usr/bin/env bash
# Session 41: do the chains pay in noisy-opening games at a wider beam?
# At width 2,000-10,000 every chain rule loses in `games` at equal CPU
# (../band0/, ../enemy-band/), while from the empty well at 200,000 the
# chained master searches play about twice the lines of plain ones
# (gen-b). Here plain 40,000 against the enemy's-piece rule (band 0,
# depth 4, about five times a plain entry) at 8,000, d4, 40 games, seed 0,
# one thread each (compare CPU seconds).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
g=docs/runs/chains/games.sh
# usage: ARM=NAME run.sh WIDTH [games flags...] (results in OUT, default here)
o=${OUT:-docs/runs/chains/wide}
BIN=${BIN:-target/release/hatetris} $g "$o" "${ARM:?}" "$@"
