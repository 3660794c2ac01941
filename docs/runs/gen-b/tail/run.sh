#!/usr/bin/env bash
# Session 43: is the tail of generation 21's master game (its last depths,
# where most lookaheads die) what pulls its network back? As history1:
# generation 20's network trained one epoch (seed 0) on generation 21's
# wells alone, here without their last fifth (t80) or without the wells
# whose lookahead died (alive), then the three suites (width 1,000, one
# thread), compared with generation 20's network and with history1's fit
# on all of those wells.
#   usage: run.sh [RUN]   (RUN: gen-b's run folder from generation 19)
set -euo pipefail
R=${1:-/work/runs/gen-b/r20}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
python3 "$HERE/subset.py" stats "$R/cycle-002/refined.htds"
for arm in t80=head:0.8 alive=alive; do
  n=${arm%%=*}; rule=${arm#*=}
  [ -f "$HERE/$n-dense2.json" ] && continue
  python3 "$HERE/subset.py" "$R/cycle-002/refined.htds" "$T/$n.htds" "$rule"
  "$B" train --data "$T/$n.htds" --init "$R/cycle-001/net.hnet" --max-epochs 1 --out "$T/$n.hnet" --quiet
  screen_net "$n" "$T/$n.hnet"
done
for n in t80 alive; do
  for P in suites/g020 history1/h1; do
    echo "$n against $P:"; compare_suites "$B" "$HERE/$n" "$HERE/../$P" | tail -3
  done
done
