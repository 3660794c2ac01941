#!/usr/bin/env bash
# pack.sh [RUN]: the records of gen-b's run (default /work/runs/gen-b/r)
# kept in the tree as each generation ends: config, metrics, plots, every
# generation's records (its master game's replay is in metrics.jsonl and
# search.json) and the latest network (latest.hnet, replaced each time;
# each earlier one is in the history at the commit that packed it).
# Data sets stay outside (docs/README.md, the rule for run records): a run
# directory that is lost goes on from latest.hnet as a new run (resume.sh).
set -euo pipefail
R=${1:-/work/runs/gen-b/r}
HERE=$(cd "$(dirname "$0")" && pwd)
cp "$R/config.json" "$R/metrics.jsonl" "$HERE/"
cp "$R"/*.png "$HERE/" 2>/dev/null || true
python3 "$HERE/../../pngsmall.py" "$HERE"/*.png > /dev/null
cp "$R"/suite-000.json "$HERE/" 2>/dev/null || true
done_cycles=$(wc -l < "$R/metrics.jsonl")
for d in "$R"/cycle-*; do
  c=$((10#${d##*cycle-}))
  [ "$c" -le "$done_cycles" ] || continue
  mkdir -p "$HERE/$(basename "$d")"
  cp "$d"/*.json "$HERE/$(basename "$d")/"
done
last=$(printf '%s/cycle-%03d' "$R" "$done_cycles")
cp "$last/net.hnet" "$HERE/latest.hnet"
echo "packed $done_cycles generations; latest.hnet is generation $done_cycles's network"
