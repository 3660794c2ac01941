#!/usr/bin/env bash
# forced: is master-419's covered hole at about piece 558 (the one that
# froze its second row at 561) forced by then? master-419 searched on
# from piece S (usage: forced.sh S..., default 460 500 520 540) to piece
# 600 at width 200,000 without chains, by the hand-made baseline and by
# network 38, one thread; prints the score and the six rows from the floor
# at pieces 540-600 of each game into forced.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
packed_net 38 "$T/n38.hnet"
for s in ${*:-460 500 520 540}; do
  for ev in baseline "net=$T/n38.hnet"; do
    name=f$s-${ev%%=*}
    "$B" search --from "$HERE/../master-419.b2048" --at "$s" --eval "$ev" --width 200000 --max-depth $((600 - s)) \
      --threads 1 --quiet --json --out "$T/$name.b2048" > /dev/null
    echo "$name"
    "$B" verify --trace "$T/$name.b2048" | python3 -c '
import json, sys
L = [json.loads(l) for l in sys.stdin.read().splitlines()[1:]]
for t in (540, 556, 561, 570, 580, 590, 600):
    if t <= len(L):
        w = L[t - 1]["well"][::-1][:6]
        print(" ", t, L[t - 1]["score"], " ".join(format(r, "010b").replace("0", ".").replace("1", "#") for r in w))'
  done
done >> "$HERE/forced.txt"
