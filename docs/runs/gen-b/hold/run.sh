#!/usr/bin/env bash
# hold: master-419 searched again from piece S (usage: run.sh S...) by
# network 37, width W (default 20,000), record chains depth 4, blend 0.5,
# one thread, to the game's end: does a search that starts before piece
# 561, where master-381, -390 and -419 all froze their second row from the
# floor, keep that row open longer? Writes wW-sS.b2048 and .json here and
# a line to log.txt (start, lines, rows_frozen_at of the first four rows).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
packed_net 37 "$T/n37.hnet"
W=${W:-20000}
for s in "$@"; do
  out=$HERE/w$W-s$s.b2048
  [ -f "$out" ] && continue
  "$B" search --from "$HERE/../master-419.b2048" --at "$s" --width "$W" --eval "net=$T/n37.hnet" \
    --quiescence 4 --chain-blend 0.5 --threads 1 --quiet --json --out "$out" > "${out%.b2048}.json"
  echo "$s $("$B" verify "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["score"], d["rows_frozen_at"][:4])')" \
    >> "$HERE/log.txt"
done
