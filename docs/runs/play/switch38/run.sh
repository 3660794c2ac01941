#!/usr/bin/env bash
# switch38: `play`'s game (network 34, width 9,000, record chains depth 4,
# blend 0.5; ../../default34/play.b2048, 120 lines, 330 pieces) searched
# on from piece P by network 38 at the same settings, one thread: what
# the lineage's late network adds after the default's opening, one game
# a start. Writes swP.json (the whole game, replay included) here.
#   usage: run.sh [P...]   (default 50 100 150 200)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../gen-b/net.sh"
study_setup
packed_net 38 "$T/n38.hnet"
for p in ${*:-50 100 150 200}; do
  "$B" search --from "$HERE/../../default34/play.b2048" --at "$p" --width 9000 --eval "net=$T/n38.hnet" \
    --quiescence 4 --chain-blend 0.5 --threads 1 --quiet --json > "$HERE/sw$p.json"
done
