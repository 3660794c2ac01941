#!/usr/bin/env bash
# Session 43: is the learn step's Adam step size what makes one generation
# gain and the next lose? Two steps of gen-b, each one epoch (seed 0) from
# the network that searched, on that search's wells alone, at smaller step
# sizes than the cycle's 0.001:
#   a: generation 19's network on generation 20's wells (at 0.001, the
#      cycle's: +2.33 pieces against generation 19's, ../suites/ and
#      ../../../runs/epochs/init-*);
#   b: generation 20's network on generation 21's wells (at 0.001:
#      -1.72 against generation 20's, ../history1/).
# Each plays the three suites (width 1,000, one thread).
#   usage: run.sh [RUN]   (RUN: gen-b's run folder from generation 19)
set -euo pipefail
R=${1:-/work/runs/gen-b/r20}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
for lr in 0.0003 0.0001; do
  for step in a=$R/net-000.hnet=$R/cycle-001/refined.htds b=$R/cycle-001/net.hnet=$R/cycle-002/refined.htds; do
    IFS== read -r s init data <<< "$step"
    n=$s$lr
    [ -f "$HERE/$n-dense2.json" ] && continue
    "$B" train --data "$data" --init "$init" --max-epochs 1 --lr "$lr" --out "$T/$n.hnet" --quiet
    screen_net "$n" "$T/$n.hnet"
  done
done
for lr in 0.0003 0.0001; do
  echo "a$lr against generation 19's:"; compare_suites "$B" "$HERE/a$lr" "$HERE/../../epochs/init" | tail -3
  echo "a$lr against generation 20's:"; compare_suites "$B" "$HERE/a$lr" "$HERE/../suites/g020" | tail -3
  echo "b$lr against generation 20's:"; compare_suites "$B" "$HERE/b$lr" "$HERE/../suites/g020" | tail -3
  echo "b$lr against history1 (0.001):"; compare_suites "$B" "$HERE/b$lr" "$HERE/../history1/h1" | tail -3
done
