#!/usr/bin/env bash
# Generation 36's learn step again at fit seeds 1-3 (network 35 fitted to
# generation 36's refined wells, the cycle's training settings), each
# measured against network 35 on the steady suite (measure.sh): how much
# of a generation's step on the steady yardstick is its fit's seed.
#   usage: run.sh REFINED   (REFINED: r36/cycle-001/refined.htds)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
packed_net 35 "$T/net35.hnet"
cd "$HERE"
# Then the same fits with `--loss logit` (tags 36L1-3) and widened to 96
# hidden units (36H1-3), each compared with the plain fits seed by seed.
for s in 1 2 3; do
  "$B" train --data "$1" --init "$T/net35.hnet" --seed "$s" --out "$T/fit-s$s.hnet" --threads 1 --quiet
  HATETRIS=$B BASE=35 bash ../../../steady-a/measure.sh "$T/fit-s$s.hnet" "36s$s" steady
  "$B" train --data "$1" --init "$T/net35.hnet" --seed "$s" --loss logit --out "$T/logit-s$s.hnet" --threads 1 --quiet
  HATETRIS=$B BASE=35 bash ../../../steady-a/measure.sh "$T/logit-s$s.hnet" "36L$s" steady
  "$B" train --data "$1" --init "$T/net35.hnet" --seed "$s" --hidden 96 --out "$T/h96-s$s.hnet" --threads 1 --quiet
  HATETRIS=$B BASE=35 bash ../../../steady-a/measure.sh "$T/h96-s$s.hnet" "36H$s" steady
done
for arm in L H; do
  "$B" compare m-steady-36${arm}1-vs-35.json m-steady-36s1-vs-35.json m-steady-36${arm}2-vs-35.json \
    m-steady-36s2-vs-35.json m-steady-36${arm}3-vs-35.json m-steady-36s3-vs-35.json
done
