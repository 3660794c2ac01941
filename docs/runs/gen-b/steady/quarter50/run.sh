#!/usr/bin/env bash
# Session 88: does generation 50's learn step need all its refined wells?
# Network 49 (r50's net-000) fitted with the cycle's settings to a
# seeded quarter of generation 50's 574,013 refined wells (--max-samples:
# what refine_every = 16 would have refined, at a quarter of the refine's
# two core-hours), at fit seeds S, each measured as the cycle measures a
# network (steady suite; the three public suites; ../../falling/) and
# compared with network 50 (all the wells, the cycle's own seed).
# ALL=1: the same fits on all the wells (arms f1, f2...), to tell the
# fit seed's share of a difference from the quarter's.
#   usage: [ALL=1] run.sh [RUN] [SEEDS...]   (RUN: /work/runs/gen-b/r50)
set -euo pipefail
R=${1:-/work/runs/gen-b/r50}; shift || true
SEEDS=${*:-1 2}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
a=q; subset=(--max-samples 143503)
[ -z "${ALL:-}" ] || { a=f; subset=(); }
for s in $SEEDS; do
  net=$T/$a$s.hnet
  if [ ! -f "$HERE/$a$s-dense2.json" ] || [ ! -f "$HERE/$a$s-steady.json" ] || [ ! -f "$HERE/$a$s-falling.json" ]; then
    nice "$B" train --data "$R/cycle-001/refined.htds" --init "$R/net-000.hnet" "${subset[@]}" \
      --seed "$s" --threads 1 --out "$net" --quiet > /dev/null
    sha256sum "$net" | cut -c1-16 > "$HERE/$a$s.sha"
  fi
  suite_net steady "net=$net" "$HERE/$a$s-steady.json"
  suite_net "$HERE/../../falling/falling.htsu" "net=$net" "$HERE/$a$s-falling.json"
  screen_net "$a$s" "$net"
done
S=$HERE/../../suites
for s in $SEEDS; do
  echo "$a$s (fit seed $s) against network 50: steady, falling, public pooled"
  "$B" compare "$HERE/$a$s-steady.json" "$HERE/../g050.json" | sed -n 2p
  "$B" compare "$HERE/$a$s-falling.json" "$HERE/../../falling/g050.json" | sed -n 2p
  compare_suites "$B" "$HERE/$a$s" "$S/g050" | tail -2 | head -1
done
