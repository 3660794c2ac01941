#!/usr/bin/env bash
# Hindsight families (`diagnose trunk`): the master games' own choices as
# targets for network 47, and whether the fit ranks the played child
# first on games it never saw (master-310, -329, -381, the yardsticks'
# games). usage: run.sh [NET] (default: network 47, packed). One thread,
# a minute. Output: results.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
G=$HERE/..
. "$G/net.sh"
study_setup
(cd "$ROOT" && cargo build --release -q -p hatetris-research --example diagnose)
D=$ROOT/target/release/examples/diagnose
if [ $# -ge 1 ]; then cp "$1" "$T/n.hnet"; else packed_net 47 "$T/n.hnet"; fi
HELD=$G/master-310.b2048,$G/master-329.b2048,$G/master-381.b2048
# The 11 master games there were besides the held-out three (session 82).
TRAIN=$(for n in 261 341 390 419 420 453 456 459 461 462 480; do echo "$G/master-$n.b2048"; done)
export RAYON_NUM_THREADS=1
{
  echo "== families of the training games (network 47)"
  "$D" trunk "net=$T/n.hnet" 0.02 "$T/trunk.htds" "$HELD" $TRAIN
  "$B" train --data "$T/trunk.htds" --init "$T/n.hnet" --out "$T/ta.hnet" --lr 0.0001 --threads 1 --quiet
  "$B" train --data "$T/trunk.htds" --init "$T/n.hnet" --out "$T/tc.hnet" --lr 0.001 --max-epochs 30 --patience 30 --threads 1 --quiet
  "$B" train --data "$T/trunk.htds" --init "$T/n.hnet" --out "$T/td.hnet" --lr 0.001 --max-epochs 30 --patience 30 --loss logit --threads 1 --quiet
  for n in n ta tc td; do
    echo "== $n: training games"
    "$D" trunk "net=$T/$n.hnet" 0.02 "$T/x.htds" "$HELD" $TRAIN | sed -n 2,4p
    echo "== $n: held-out games (310, 329, 381)"
    "$D" trunk "net=$T/$n.hnet" 0.02 "$T/x.htds" - $(echo "$HELD" | tr , ' ') | sed -n 2,4p
  done
} > "$HERE/results.txt"
cat "$HERE/results.txt"
