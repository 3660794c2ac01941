#!/usr/bin/env bash
# open38: does a learn step that also sees the opening keep whole games?
# Generation 38's learn step (network 37 on its 289,498 wells of
# master-419 after piece 507) again with generation 36's 501,560
# whole-game wells of master-381 added (tag 38o), fit seed 0 as the cycle;
# then 38o in `games` (plain 10,000, 40 openings, as ../../games.sh) and
# on the steady and public suites against network 38 (measure.sh).
#   usage: run.sh RUN   (RUN: /work/runs/gen-b/r36, cycles 1 and 3 = generations 36 and 38)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
packed_net 37 "$T/n37.hnet"
cd "$HERE"
fit_as_cycle "$T/n37.hnet" "$1/cycle-003/refined.htds" "$T/38o.hnet" "$1/cycle-001/refined.htds" > fit.txt
(cd "$HERE/../../../../.." && EVAL=net=$T/38o.hnet BIN=$B docs/runs/chains/games.sh "$HERE" g038o 10000 --quiescence 0)
python3 "$HERE/../../../chains/welch.py" "$HERE" ../../games/g038 g038o
HATETRIS=$B BASE=38 bash ../../../steady-a/measure.sh "$T/38o.hnet" 38o steady default
