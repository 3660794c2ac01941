#!/usr/bin/env bash
# Generation 37's learn step (network 36 fitted to its own 213,873
# refined wells, history 1, tag 37h1) against the same step with
# generation 36's 501,560 wells added (history 2, 37h2), at fit seeds
# 1-3, each against network 36 on the steady and public (default) suites
# (measure.sh), then h2 against h1 seed by seed.
#   usage: run.sh RUN   (RUN: /work/runs/gen-b/r36, cycles 1 and 2 = generations 36 and 37)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
packed_net 36 "$T/n36.hnet"
cd "$HERE"
for s in 1 2 3; do
  "$B" train --data "$1/cycle-002/refined.htds" --init "$T/n36.hnet" --seed "$s" --out "$T/h1-s$s.hnet" --quiet
  "$B" train --data "$1/cycle-001/refined.htds" "$1/cycle-002/refined.htds" --init "$T/n36.hnet" --seed "$s" \
    --out "$T/h2-s$s.hnet" --quiet
  for a in h1 h2; do
    HATETRIS=$B BASE=36 bash ../../../steady-a/measure.sh "$T/$a-s$s.hnet" "37$a-s$s" steady default
  done
done
for suite in steady default; do
  "$B" compare m-$suite-37h2-s1-vs-36.json m-$suite-37h1-s1-vs-36.json m-$suite-37h2-s2-vs-36.json \
    m-$suite-37h1-s2-vs-36.json m-$suite-37h2-s3-vs-36.json m-$suite-37h1-s3-vs-36.json
done
