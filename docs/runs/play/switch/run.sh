#!/usr/bin/env bash
# Network 37 against 34 (the embedded default) from piece P of network
# 37's 40 `games` (../../gen-b/games/games-g037.json, plain width 10,000,
# noisy openings), each searched on to its end at plain width 10,000:
# is a later network's loss over whole games its opening's?
#   usage: run.sh P   (writes sP.json here; games shorter than P are left out)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../../target/release/hatetris}
. "$HERE/../../gen-b/net.sh"
P=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
packed_net 34 "$T/n34.hnet"
packed_net 37 "$T/n37.hnet"
python3 - "$HERE/../../gen-b/games/games-g037.json" "$T" "$P" <<'PY'
import json, sys
games = json.load(open(sys.argv[1]))["evals"][0]["games"]
for i, g in enumerate(games):
    if g["pieces"] > int(sys.argv[3]):
        open(f"{sys.argv[2]}/g{i:02d}.b2048", "w").write(g["replay"])
PY
"$B" suite $(for f in "$T"/g*.b2048; do echo --from "$f"; done) --every 100000 --skip "$P" --out "$T/at.htsu" > /dev/null
"$B" strength --eval "net=$T/n37.hnet" --vs "net=$T/n34.hnet" --suite "$T/at.htsu" --width 10000 --pieces 1000 \
  --threads 2 --json --quiet > "$HERE/s$P.json"
"$B" compare "$HERE/s$P.json" "$HERE/s$P.json#1"
