#!/usr/bin/env bash
# The steady phase: starts every 25th piece from 100 to 550 of
# master-310, -329 and -381 (57 starts, all before each game's second row
# from the floor froze: 599, 623, 560), and networks paired on them
# (width 1,000, 250 pieces), into OUT/p-A-vs-B.json (OUT default here).
# usage: run.sh [A-B ...] (default 35-34 36-35 37-36 37-34); THREADS
# (default 2). phase45 ran `OUT=<phase45> THREADS=1 run.sh 45-35 45-36`.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
G=$HERE/../..
OUT=${OUT:-$HERE}
"$B" suite --from "$G/master-310.b2048" --from "$G/master-329.b2048" --from "$G/master-381.b2048" \
  --every 25 --skip 100 --until 550 --out "$T/phase.htsu"
for pair in ${*:-35-34 36-35 37-36 37-34}; do
  a=${pair%-*} b=${pair#*-}
  for g in $a $b; do [ -f "$T/n$g.hnet" ] || packed_net "$g" "$T/n$g.hnet"; done
  "$B" strength --eval "net=$T/n$a.hnet" --vs "net=$T/n$b.hnet" --suite "$T/phase.htsu" --width 1000 --pieces 250 \
    --threads "${THREADS:-2}" --json --quiet > "$OUT/p-$a-vs-$b.json"
  "$B" compare "$OUT/p-$a-vs-$b.json" "$OUT/p-$a-vs-$b.json#1"
done
