#!/usr/bin/env bash
# The t512 networks of TAG in `hatetris games` as gen-b's generations are
# measured (40 noisy-opening games, seed 0, plain width 10,000, one thread),
# into games/ beside this script; compare with ../games/games-gNNN.json.
# Usage: games.sh TAG [ARM...]   (WORK: /work/exp/t512-TAG)
set -euo pipefail
TAG=$1; shift
[ $# -gt 0 ] || set -- w512-s0.5 w50-s0.5
W=${WORK:-/work/exp/t512-$TAG}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../../../..
cd "$ROOT"
for arm in "$@"; do
  EVAL=net=$W/net-$arm.hnet BIN=${BIN:-target/release/hatetris} bash docs/runs/chains/games.sh \
    "$HERE/games" "$TAG-$arm" 10000 --quiescence 0
done
