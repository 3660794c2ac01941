#!/bin/bash
# pack.sh [RUN]: keeps what `hatetris cycle` needs to resume RUN (default
# /work/runs/boot2/r) in state/ beside this script, for a machine whose run
# directories do not outlive the session: config, metrics and every
# cycle's records; the networks and refined wells of the teacher window
# (the last two finished cycles) and whatever the cycle under way has
# finished (.htds compressed with xz). unpack.sh puts them back.
set -euo pipefail
R=${1:-/work/runs/boot2/r}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE/state
rm -rf "$OUT.new" && mkdir -p "$OUT.new"
cp "$R/config.json" "$R/metrics.jsonl" "$R/suite-000.json" "$OUT.new/"
done_cycles=$(wc -l < "$R/metrics.jsonl")
for d in "$R"/cycle-*; do
  c=$((10#${d##*cycle-})); n=$(basename "$d"); mkdir -p "$OUT.new/$n"
  cp "$d"/*.json "$OUT.new/$n/" 2>/dev/null || true
  if [ "$c" -ge $((done_cycles - 1)) ]; then
    cp "$d"/*.hnet "$OUT.new/$n/" 2>/dev/null || true
    # Finished cycles are read for their refined wells only; the cycle
    # under way skips its search only if its samples are there.
    for h in refined samples; do
      if [ -f "$d/$h.htds" ] && { [ $h = refined ] || [ "$c" -gt "$done_cycles" ]; }; then
        xz -T2 -c "$d/$h.htds" > "$OUT.new/$n/$h.htds.xz"
      fi
    done
  fi
done
rm -rf "$OUT" && mv "$OUT.new" "$OUT"
du -sh "$OUT"
