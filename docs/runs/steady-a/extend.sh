#!/usr/bin/env bash
# From positions of master-381, a network against network 35 with the
# master's chains (record, depth 4, blend 0.5), each to the game's end;
# appends tag, piece, lines, pieces, seconds to extend.tsv in the current
# folder and keeps each replay.
#   usage: extend.sh NET TAG   (ATS: the pieces, default "560 660 780"; W: width, default 20000)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../target/release/hatetris}
G=$HERE/../gen-b/master-381.b2048
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
w=${W:-20000}
for at in ${ATS:-560 660 780}; do
  for n in "$2:$1" "35:$HERE/../gen-b/latest.hnet"; do
    tag=${n%%:*} net=${n#*:}
    "$B" search --from "$G" --at "$at" --width "$w" --threads 2 --eval "net=$net" --quiescence 4 --chain-rule record \
      --chain-blend 0.5 --json --quiet --out "ext-$tag-$at-w$w.b2048" > "$T/ext.json"
    python3 -c "import json; d=json.load(open('$T/ext.json')); print('$tag', $at, d['score'], d['pieces'], round(d['seconds']))" | tee -a extend.tsv
  done
done
