#!/usr/bin/env bash
# deep20's network (OUT/run/cycle-001/net.hnet) against network 39 (the
# same wells and compute, refined 512 x 10): the steady suite paired at
# width 1,000, 250 pieces (m-steady-d20-vs-39.json), and the three public
# suites as suites.sh measures a generation (d20-*.json here), compared
# start by start with generation 39's (../../suites/g039-*.json).
#   usage: [OUT=/work/exp/deep20] [HATETRIS=binary] measure.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/work/exp/deep20}
B=${HATETRIS:-/work/runs/gen-b/hatetris-a99442b}
NET=$OUT/run/cycle-001/net.hnet
[ -f "$NET" ] || { echo "measure.sh: no network $NET yet (deep20 has not ended)" >&2; exit 2; }
. "$HERE/../../net.sh"
cd "$HERE"
BASE=39 T=1 HATETRIS=$B bash ../../../steady-a/measure.sh "$NET" d20 steady
(cd "$HERE/../../../../.." && EVAL=net=$NET BIN=$B docs/runs/chains/screen.sh "$HERE" d20 1000 --threads 1)
compare_suites "$B" "$HERE/d20" "$HERE/../../suites/g039" | tee "$HERE/compare-d20-vs-39.txt"
# Rows frozen per 100 pieces, paired (`hatetris compare` gives pieces and lines).
python3 ../../../chains/follow-late/pair.py m-steady-d20-vs-39.json 'm-steady-d20-vs-39.json#1' | grep frozen
