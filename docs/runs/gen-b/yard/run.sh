#!/usr/bin/env bash
# Session 48: does any yardstick foretell a master game? gen-b's master
# games (record chains, band 0, depth 4, width 200,000) are single draws
# that track neither the suites nor plain `games`. This measures networks
# the way the master search uses them, small: 40 noisy-opening games with
# record chains (depth 4, band 0) at width 2,000, seed 0, one thread
# (../../chains/genb20/ measured generation 20's network so: 42.8 lines).
# Networks: generations 18 and 24 (the master games they searched, as
# generations 19 and 25: 223 lines and running), from the commits that
# packed them; and the gate study's fits (../gate/: g20own and its
# halves, WORK holds them, as ../gate/run.sh made them).
# Arms already run are kept.   usage: run.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
cd "$HERE/../../../.."
B=${BIN:-target/release/hatetris}
W=${WORK:-/work/exp/gate}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# net NAME: the network the arm NAME plays, into $T/NAME.hnet.
net() {
  case $1 in
    g0[0-9][0-9]) packed_net "${1#g0}" "$T/$1.hnet" ;;
    *) cp "$W/$1.hnet" "$T/$1.hnet" ;;
  esac
}
arm() {  # arm NAME SUFFIX WIDTH FLAGS...
  local name=$1 suffix=$2 width=$3; shift 3
  [ -f "$HERE/games-$name-$suffix.json" ] && return
  net "$name"
  EVAL=net=$T/$name.hnet BIN=$B nice -n 10 docs/runs/chains/games.sh "$HERE" "$name-$suffix" "$width" "$@"
}
for n in g024 g018 g20own-h2 g20own-h1 g20own; do
  arm "$n" rec4b0-2k 2000 --quiescence 4 --chain-rule record --chain-band 0
done
# Generation 20's chained arm is ../../chains/genb20's (the same binary
# code for search, evaluation and rules since).
cp docs/runs/chains/genb20/games-rec4b0-2k.json "$T/games-g020-rec4b0-2k.json"
grep '^rec4b0-2k' docs/runs/chains/genb20/times.tsv | sed 's/^rec4b0-2k/g020-rec4b0-2k/' > "$T/times.tsv"
cp "$HERE"/games-*.json "$T/"
cat "$HERE/times.tsv" >> "$T/times.tsv"
for n in g024 g018 g20own g20own-h1 g20own-h2; do
  python3 docs/runs/chains/welch.py "$T" g020-rec4b0-2k "$n-rec4b0-2k"
done
python3 docs/runs/chains/welch.py "$T" g20own-rec4b0-2k g20own-h2-rec4b0-2k
