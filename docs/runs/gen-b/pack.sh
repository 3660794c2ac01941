#!/usr/bin/env bash
# pack.sh [RUN]: the records of gen-b's run (default /work/runs/gen-b/r)
# kept in the tree as each generation ends: config, metrics, plots, every
# generation's records (its master game's replay is in metrics.jsonl and
# search.json) and the latest network (latest.hnet, replaced each time;
# each earlier one is in the history at the commit that packed it).
# Data sets stay outside (docs/README.md, the rule for run records).
# A run folder that is lost goes on as a new run from latest.hnet (run.sh,
# INIT and SEED); FROM=G packs such a run whose cycle k is generation G+k:
# its cycles as cycle-(G+k), its metrics after the first G generations'
# (renumbered), its config as config-from-(G+1).json and its plots, which
# count its own cycles, as progress-*-from-(G+1).png.
set -euo pipefail
R=${1:-/work/runs/gen-b/r}
G=${FROM:-0}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "$G" -eq 0 ]; then
  cp "$R/config.json" "$HERE/"
  cp "$R/metrics.jsonl" "$HERE/"
  for p in "$R"/*.png; do [ -f "$p" ] && cp "$p" "$HERE/"; done
else
  suffix=$(printf 'from-%03d' $((G + 1)))
  cp "$R/config.json" "$HERE/config-$suffix.json"
  for p in "$R"/*.png; do [ -f "$p" ] && cp "$p" "$HERE/$(basename "${p%.png}")-$suffix.png"; done
  python3 - "$HERE/metrics.jsonl" "$R/metrics.jsonl" "$G" <<'PY'
import json, os, sys
packed, run, g = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(packed).read().splitlines()[:g]
assert len(lines) == g and json.loads(lines[-1])["cycle"] == g, f"{packed} does not hold generations 1 to {g}"
for line in open(run).read().splitlines():
    m = json.loads(line)
    m["cycle"] += g
    lines.append(json.dumps(m, ensure_ascii=False, separators=(",", ":")))
tmp = packed + ".tmp"
open(tmp, "w").write("\n".join(lines) + "\n")
os.replace(tmp, packed)
PY
fi
python3 "$HERE/../../pngsmall.py" "$HERE"/*.png > /dev/null
[ "$G" -ne 0 ] || cp "$R"/suite-000.json "$HERE/" 2>/dev/null || true
done_cycles=$(wc -l < "$R/metrics.jsonl")
for d in "$R"/cycle-*; do
  c=$((10#${d##*cycle-}))
  [ "$c" -le "$done_cycles" ] || continue
  out=$(printf '%s/cycle-%03d' "$HERE" $((c + G)))
  mkdir -p "$out"
  cp "$d"/*.json "$out/"
done
last=$(printf '%s/cycle-%03d' "$R" "$done_cycles")
cp "$last/net.hnet" "$HERE/latest.hnet"
echo "packed $done_cycles generations from $((G + 1)); latest.hnet is generation $((done_cycles + G))'s network"
