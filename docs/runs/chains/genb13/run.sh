#!/usr/bin/env bash
# Session 36: do chains pay with a network trained on chained master games?
# gen-b's generation 13 network (`../../gen-b/latest.hnet` when packed at
# generation 13), 40 noisy-opening games, plain 10,000 against record
# chains band 0 depth 4 at 2,500 (about the same CPU with d4: `../band0/`).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
B=${BIN:-target/release/hatetris}
o=${1:-docs/runs/chains/genb13}
export EVAL=net=${NET:-docs/runs/gen-b/latest.hnet} BIN=$B
nice -n 10 docs/runs/chains/games.sh "$o" g13-plain-10k 10000 --quiescence 0
nice -n 10 docs/runs/chains/games.sh "$o" g13-rec4b0-2500 2500 --quiescence 4 --chain-rule record --chain-band 0
