#!/usr/bin/env bash
# games.sh N [RUN]: generation N's network in `hatetris games` as
# docs/runs/chains/ measured d4 (40 noisy-opening games, seed 0, plain
# width 10,000, one thread; d4: 51.2 lines in 337 CPU s), into
# games/games-gNNN.json and games/times.tsv beside this script, read by
# table.py. About 5 CPU minutes a generation, niced behind the run.
# FROM=G: RUN is a run that goes on from generation G (pack.sh).
set -euo pipefail
N=$1
R=${2:-/work/runs/gen-b/r}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/net.sh"
generation_net "$N" "$R"
cd "$HERE/../../.."
EVAL=net=$NET BIN=${BIN:-target/release/hatetris} nice -n 15 docs/runs/chains/games.sh \
  "$HERE/games" "$(printf 'g%03d' "$N")" 10000 --quiescence 0
