#!/usr/bin/env bash
# calib.sh [RUN]: is this 20,000-wide lineage a fair proxy for gen-b's?
# (1) The proxy's yardstick on gen-b's networks: network 29 and d4 (the
# embedded default) searched as the record arm's master searches are
# (width 20,000, record chains depth 4, band 0, blend 1, seed 45, one
# thread). (2) gen-b's yardstick on the proxy's networks: `games` as
# gen-b/games.sh plays them (40 noisy openings, seed 0, plain 10,000),
# for the record arm's cycles named by CYCLES (default "5 10").
# One thread, niced; each output written whole or not at all.
set -euo pipefail
R=${1:-/work/runs/szloop/record}
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../.." && pwd)
B=${HATETRIS:-$root/target/release/hatetris}
. "$root/docs/runs/gen-b/net.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
. "$HERE/game.sh"
packed_net 29 "$T/g29.hnet"
game "net=$T/g29.hnet" record "$HERE/calib-g29-record.json"
game "net=$D4" record "$HERE/calib-d4-record.json"
for c in ${CYCLES:-5 10}; do
  name=$(printf 'r%03d' "$c")
  [ -s "$HERE/games/games-$name.json" ] && continue
  (cd "$root" && EVAL="net=$R/$(printf 'cycle-%03d' "$c")/net.hnet" BIN=$B nice -n 10 \
    docs/runs/chains/games.sh "$HERE/games" "$name" 10000 --quiescence 0)
done
