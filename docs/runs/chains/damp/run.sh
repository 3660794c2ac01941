#!/usr/bin/env bash
# Session 48: damped chains. The record rule values a candidate at the best
# value along its chains of clears, max(v, m), an optimism the enemy does
# not always grant; here a candidate's value is v + lambda (max(v, m) - v)
# (damp.patch, a scratch patch on afd3490: lambda from the environment
# variable HATETRIS_CHAIN_LAMBDA, applied to the searched candidates only;
# the chains' inner wells keep the max). Gen-b's generation 20 network,
# 40 noisy-opening games at width 2,000 (record rule, depth 4, band 0,
# one thread), as ../genb20/ measured lambda 1 (42.8 lines) and plain
# (36.0); seeds 0 and 1; and generation 24's network at lambda 0.5
# against its lambda-1 arm in ../../gen-b/yard/ (38.8). Results beside
# this file, Welch by welch.py.
#   usage: run.sh   (arms already run are kept; builds the patched binary
#                    in a worktree under WORK)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../../../..
. "$ROOT/docs/runs/gen-b/net.sh"
W=${WORK:-/work/exp/damp}
[ -x "$W/target/release/hatetris" ] || {
  git -C "$ROOT" worktree add --detach "$W" afd3490
  git -C "$W" apply "$HERE/damp.patch"
  (cd "$W" && cargo build --release -p hatetris-cli)
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
packed_net 20 "$T/g20.hnet"
packed_net 24 "$T/g24.hnet"
cd "$ROOT"
arm() {  # arm NET LAMBDA SEED NAME
  [ -f "$HERE/games-$4.json" ] && return
  HATETRIS_CHAIN_LAMBDA=$2 EVAL=net=$T/$1.hnet BIN=$W/target/release/hatetris nice -n 10 \
    docs/runs/chains/games.sh "$HERE" "$4" 2000 --quiescence 4 --chain-rule record --chain-band 0 --seed "$3"
}
for a in "0.5 0" "0.75 0" "0.25 0" "0.5 1" "1 1"; do
  set -- $a; arm g20 "$1" "$2" "l$1-s$2-rec4b0-2k"
done
arm g24 0.5 0 g24-l0.5-s0-rec4b0-2k
# Seed 0's lambda-1 and plain arms are ../genb20's and ../../gen-b/yard/'s
# (the same games: search, evaluation and rules unchanged since).
cp "$HERE"/games-*.json "$T/"
cp "$HERE/times.tsv" "$T/"
cp docs/runs/chains/genb20/games-rec4b0-2k.json "$T/games-l1-s0-rec4b0-2k.json"
cp docs/runs/chains/genb20/games-plain-2k.json "$T/games-plain-s0-2k.json"
sed -n 's/^rec4b0-2k/l1-s0-rec4b0-2k/p; s/^plain-2k/plain-s0-2k/p' docs/runs/chains/genb20/times.tsv >> "$T/times.tsv"
cp docs/runs/gen-b/yard/games-g024-rec4b0-2k.json "$T/games-g24-l1-s0-rec4b0-2k.json"
sed -n 's/^g024-rec4b0-2k/g24-l1-s0-rec4b0-2k/p' docs/runs/gen-b/yard/times.tsv >> "$T/times.tsv"
for b in l0.25-s0 l0.5-s0 l0.75-s0; do
  [ -f "$T/games-$b-rec4b0-2k.json" ] && python3 docs/runs/chains/welch.py "$T" l1-s0-rec4b0-2k "$b-rec4b0-2k"
done
python3 docs/runs/chains/welch.py "$T" plain-s0-2k l0.5-s0-rec4b0-2k
python3 docs/runs/chains/welch.py "$T" l1-s1-rec4b0-2k l0.5-s1-rec4b0-2k
python3 docs/runs/chains/welch.py "$T" g24-l1-s0-rec4b0-2k g24-l0.5-s0-rec4b0-2k
