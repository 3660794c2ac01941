#!/usr/bin/env bash
# A late-game yardstick: starts from gen-b's master games 14-26 (every 40
# pieces from piece 150: 120 starts), a plain 1,000-wide search from each
# for at most 250 pieces, with each packed gen-b network 13-27 and d4; then
# analyse.py (the means, and their correlation with the next master game).
#   usage: run.sh [BIN]   (one thread, about 45 s a network; W: scratch folder)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../../..
B=${1:-$ROOT/target/release/hatetris}
W=${W:-/work/exp/late}
mkdir -p "$W/replays" "$W/nets"
declare -A C=([13]=3f7b7e0 [14]=c4df6cf [15]=93a4400 [16]=377bf19 [17]=a74208d [18]=f975912 [19]=3971615
              [20]=fa8c652 [21]=988962f [22]=c380e33 [23]=cec6278 [24]=39c9635 [25]=b5221a7 [26]=f7fed21 [27]=e2e29a3)
from=()
for g in $(seq 14 26); do
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['replay'])" \
    "$ROOT/docs/runs/gen-b/cycle-0$g/search.json" > "$W/replays/g$g.txt"
  from+=(--from "$W/replays/g$g.txt")
done
"$B" suite "${from[@]}" --every 40 --skip 150 --out "$W/late.htsu"
for g in "${!C[@]}"; do
  git -C "$ROOT" show "${C[$g]}:docs/runs/gen-b/latest.hnet" > "$W/nets/n$g.hnet"
  [ -f "$HERE/s$g.json" ] || { "$B" strength --eval "net=$W/nets/n$g.hnet" --suite "$W/late.htsu" --width 1000 \
    --json --quiet --threads 1 > "$HERE/s$g.json.part" && mv "$HERE/s$g.json.part" "$HERE/s$g.json"; }
done
[ -f "$HERE/sd4.json" ] || { "$B" strength --eval net --suite "$W/late.htsu" --width 1000 --json --quiet --threads 1 \
  > "$HERE/sd4.json.part" && mv "$HERE/sd4.json.part" "$HERE/sd4.json"; }
(cd "$HERE" && python3 analyse.py | tee analyse.txt)
