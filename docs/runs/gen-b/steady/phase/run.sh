#!/usr/bin/env bash
# The steady phase: starts every 25th piece from 100 to 550 of
# master-310, -329 and -381 (57 starts, all before each game's second row
# from the floor froze: 599, 623, 560), and networks 34-37 paired on them
# (width 1,000, 250 pieces, two threads), into p-A-vs-B.json here.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
G=$HERE/../..
"$B" suite --from "$G/master-310.b2048" --from "$G/master-329.b2048" --from "$G/master-381.b2048" \
  --every 25 --skip 100 --until 550 --out "$T/phase.htsu"
for g in 34 35 36 37; do packed_net "$g" "$T/n$g.hnet"; done
for pair in "35 34" "36 35" "37 36" "37 34"; do
  set -- $pair
  "$B" strength --eval "net=$T/n$1.hnet" --vs "net=$T/n$2.hnet" --suite "$T/phase.htsu" --width 1000 --pieces 250 \
    --threads 2 --json --quiet > "$HERE/p-$1-vs-$2.json"
  "$B" compare "$HERE/p-$1-vs-$2.json" "$HERE/p-$1-vs-$2.json#1"
done
