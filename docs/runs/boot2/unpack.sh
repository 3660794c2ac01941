#!/bin/bash
# unpack.sh [RUN]: restores state/ (pack.sh) into RUN (default
# /work/runs/boot2/r) so that the run's command resumes it. The bootstrap
# network (net-000.hnet) is rewritten by the command itself.
set -euo pipefail
R=${1:-/work/runs/boot2/r}
HERE=$(cd "$(dirname "$0")" && pwd)
[ -e "$R/config.json" ] && { echo "$R already holds a run" >&2; exit 1; }
mkdir -p "$R" && cp -r "$HERE/state/." "$R/"
for f in "$R"/cycle-*/*.xz; do [ -e "$f" ] && xz -d "$f"; done
# A refine step re-reads its samples only when refined.htds is missing.
echo "restored $(wc -l < "$R/metrics.jsonl") cycles into $R"
