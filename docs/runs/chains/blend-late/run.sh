#!/usr/bin/env bash
# blend-late: the chains' blend on the steady suite (late positions of
# gen-b's master games), network 37, record chains depth 4, width 1,000,
# one thread each: blends 0.25, 0.75 and 1 against the lineage's 0.5
# (b0.5.json is ../follow-late/tree-1k.json), and the network's mean with
# the hand-made baseline at blend 0.5. ../follow-late/pair.py A B pairs them.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../gen-b/net.sh"
study_setup
packed_net 37 "$T/n37.hnet"
run() { # NAME EVAL BLEND
  local s; s=$(date +%s.%N)
  "$B" strength --eval "$2" --suite steady --width 1000 --quiescence 4 --chain-blend "$3" --threads 1 --json --quiet > "$HERE/$1.json"
  echo "$1 $(echo "$(date +%s.%N) - $s" | bc) s" >> "$HERE/times.txt"
}
for bl in 0.25 0.75 1; do run "b$bl" "net=$T/n37.hnet" "$bl"; done
run mean-base "mean=$T/n37.hnet,baseline" 0.5
