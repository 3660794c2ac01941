#!/usr/bin/env bash
# pack.sh [RUNS]: the two lineages' records into this folder (config,
# metrics, plots, each cycle's small JSON records; networks and data sets
# stay outside), every master game's replay checked by `hatetris verify`
# against the lines its metrics claim.
set -euo pipefail
R=${1:-/work/runs/szloop}
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../target/release/hatetris}
for arm in sz record; do
  mkdir -p "$HERE/$arm"
  cp "$R/$arm/config.json" "$R/$arm/metrics.jsonl" "$R/$arm"/*.png "$HERE/$arm/"
  n=$(wc -l < "$R/$arm/metrics.jsonl")
  for c in $(seq 1 "$n"); do
    d=$(printf 'cycle-%03d' "$c")
    mkdir -p "$HERE/$arm/$d"
    cp "$R/$arm/$d"/*.json "$HERE/$arm/$d/"
  done
  python3 - "$HERE/$arm/metrics.jsonl" "$B" <<'PY'
import json, subprocess, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    out = subprocess.run([sys.argv[2], "verify", "-"], input=m["replay"], capture_output=True, text=True, check=True).stdout
    got = json.loads(out)["score"]
    assert got == m["lines"], f"cycle {m['cycle']}: replay scores {got}, metrics say {m['lines']}"
print(f"{sys.argv[1]}: every replay verified")
PY
done
python3 "$HERE/../../pngsmall.py" "$HERE"/*/*.png > /dev/null
python3 "$HERE/table.py" "$HERE" > "$HERE/table.md"
