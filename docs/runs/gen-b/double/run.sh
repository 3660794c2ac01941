#!/usr/bin/env bash
# Twice the refined wells in one learn step: generation 27's training wells
# (a: every 16th sampled well of its master search, the cycle's refine) and
# the disjoint every 16th from the 8th (b: the same refine by `hatetris
# refine`, on a copy of the run whose samples start 8 wells later); a
# network fitted from generation 26's on a and on a + b with the cycle's
# settings (net.sh's fit_as_cycle), each played on the three suites (283
# starts) and the late suite (../../late/).
#   usage: run.sh [RUN]   (RUN: gen-b's run folder, default /work/runs/gen-b/r25;
#   W: scratch folder, default /work/exp/dbl; BIN: the binary)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
R=${1:-/work/runs/gen-b/r25}
W=${W:-/work/exp/dbl}
. "$HERE/../net.sh"
study_setup
mkdir -p "$W/run/cycle-002" "$W/run/cycle-003"
if [ ! -f "$W/b.htds" ]; then
  cp "$R/config.json" "$W/run/"
  cp "$R/cycle-002/net.hnet" "$W/run/cycle-002/"
  cp "$R/cycle-003/search.json" "$W/run/cycle-003/"
  python3 "$HERE/shift.py" "$R/cycle-003/samples.htds" "$W/run/cycle-003/samples.htds" 8
  nice "$B" refine --run "$W/run" --cycle 3 --out "$W/b.htds" --threads 1 --quiet
fi
NET=$R/cycle-002/net.hnet   # generation 26's
[ -f "$W/net-a.hnet" ] || fit_as_cycle "$NET" "$R/cycle-003/refined.htds" "$W/net-a.hnet" > "$HERE/train-a.txt" 2>&1
[ -f "$W/net-ab.hnet" ] || fit_as_cycle "$NET" "$R/cycle-003/refined.htds" "$W/net-ab.hnet" "$W/b.htds" > "$HERE/train-ab.txt" 2>&1
for arm in a ab; do
  screen_net "$arm" "$W/net-$arm.hnet"
  late_net "net=$W/net-$arm.hnet" "$HERE/late-$arm.json"
done
{ compare_suites "$B" "$HERE/ab" "$HERE/a"; "$B" compare "$HERE/late-ab.json" "$HERE/late-a.json"; } | tee "$HERE/compare.txt"
