#!/usr/bin/env bash
# steady-b's starts: every 100th piece from piece 300 of gen-b's master
# games 14-31, 34 and 35 (their replays are metrics.jsonl's), none of the
# steady suite's games (generations 32, 33 and 36: master-310, -329, -381).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../target/release/hatetris}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
python3 - "$HERE/../gen-b/metrics.jsonl" "$T" <<'P'
import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["cycle"] >= 14 and d["cycle"] not in (32, 33):
        open(f"{sys.argv[2]}/g{d['cycle']:02d}.b2048", "w").write(d["replay"] + "\n")
P
args=(); for f in "$T"/g*.b2048; do args+=(--from "$f"); done
"$B" suite "${args[@]}" --every 100 --skip 300 --out "${1:-starts20.htsu}"
