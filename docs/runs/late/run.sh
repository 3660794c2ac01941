#!/usr/bin/env bash
# A late-game yardstick: starts from gen-b's master games 14-26 (every 40
# pieces from piece 150: 120 starts), a plain 1,000-wide search from each
# for at most 250 pieces, with each packed gen-b network 13-29 and d4; then
# analyse.py (the means, and their correlation with the next master game).
#   usage: run.sh [BIN]   (one thread, about 45 s a network; W: scratch folder)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../../..
B=${1:-$ROOT/target/release/hatetris}
W=${W:-/work/exp/late}
mkdir -p "$W/replays" "$W/nets"
from=()
for g in $(seq 14 26); do
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['replay'])" \
    "$ROOT/docs/runs/gen-b/cycle-0$g/search.json" > "$W/replays/g$g.txt"
  from+=(--from "$W/replays/g$g.txt")
done
"$B" suite "${from[@]}" --every 40 --skip 150 --out "$W/late.htsu"
. "$ROOT/docs/runs/gen-b/net.sh"
for g in $(seq 13 29); do
  packed_net "$g" "$W/nets/n$g.hnet"
  LATE=$W/late.htsu late_net "net=$W/nets/n$g.hnet" "$HERE/s$g.json"
done
LATE=$W/late.htsu late_net "net=$D4" "$HERE/sd4.json"
(cd "$HERE" && python3 analyse.py | tee analyse.txt)
