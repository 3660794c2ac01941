#!/usr/bin/env bash
# Is network 45 weaker than the trunk's networks before the second row
# froze? Generation 46 (network 45 from the empty well) froze its second
# row at piece 351, the trunk (master-381, network 35) at 561. The phase
# suite (every 25th piece from 100 to 550 of master-310, -329 and -381;
# as ../phase) with network 45 paired against 35 and 36 (width 1,000,
# 250 pieces, one thread, beside the lineage), into p-A-vs-B.json here.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../net.sh"
study_setup
G=$HERE/../..
"$B" suite --from "$G/master-310.b2048" --from "$G/master-329.b2048" --from "$G/master-381.b2048" \
  --every 25 --skip 100 --until 550 --out "$T/phase.htsu"
for g in 35 36 45; do packed_net "$g" "$T/n$g.hnet"; done
for pair in "45 35" "45 36"; do
  set -- $pair
  "$B" strength --eval "net=$T/n$1.hnet" --vs "net=$T/n$2.hnet" --suite "$T/phase.htsu" --width 1000 --pieces 250 \
    --threads 1 --json --quiet > "$HERE/p-$1-vs-$2.json"
  "$B" compare "$HERE/p-$1-vs-$2.json" "$HERE/p-$1-vs-$2.json#1"
done
