#!/bin/bash
# plot.sh RUN: suite pieces against core-hours, boot's cycles (RUN/metrics.jsonl,
# two threads throughout) beside the earlier lineage of embedded networks (its
# core-hours from the bootstrap in docs/lineage.md, measured without the S/Z chains).
set -euo pipefail
BOOT=$(python3 - "$1/metrics.jsonl" <<'PY'
import json, sys
t, pts = 0.0, ["0:45.4"]
for l in open(sys.argv[1]):
    d = json.loads(l); t += 2 * d["wall_secs"] / 3600
    pts.append("%.2f:%.1f" % (t, d["suite_pieces"]))
print(",".join(pts))
PY
)
LINEAGE="0:45.4,1.3:54.6,6.0:62.1,6.4:66.0,9.3:70.9,10.1:76.0,10.5:78.9,11.9:82.7"
cd "$(dirname "$0")/../../.."
cargo run -q --release -p hatetris-research --example series -- docs/runs/boot/boot-suite.png \
    "default suite (pieces, width 1,000) against core-hours from the bootstrap" \
    "boot=$BOOT" "earlier lineage, to g3=$LINEAGE"
