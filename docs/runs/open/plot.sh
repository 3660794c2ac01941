#!/bin/bash
# plot.sh BOOT_RUN OPEN_RUNS: suite.png, the default suite by cycle of boot
# (from cycle 12) and of ctl, op and gd (from boot's cycle 18). Run from the
# repository root.
set -euo pipefail
args=$(python3 - "$1" "$2" <<'PY'
import json, sys
boot, runs = sys.argv[1], sys.argv[2]
def series(path, start):
    pts = []
    for l in open(path):
        d = json.loads(l)
        if d["cycle"] >= start and d.get("suite_pieces") is not None:
            pts.append(f"{d['cycle']}:{d['suite_pieces']:.2f}")
    return ",".join(pts)
print(f"boot={series(boot + '/metrics.jsonl', 12)}")
for name, start in [("ctl", 18), ("op", 18), ("gd", 19)]:
    print(f"{name}={series(f'{runs}/{name}/metrics.jsonl', start)}")
PY
)
cargo run --release -q -p hatetris-research --example series -- docs/runs/open/suite.png \
    "default suite by cycle: boot, then ctl, op, gd from its cycle 18" $args
