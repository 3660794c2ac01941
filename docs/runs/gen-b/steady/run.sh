#!/usr/bin/env bash
# The lineage's curve on the steady suite (issue #86): each packed
# generation's network (net.sh packed_net, 13-36; 34 is the embedded
# default) measured by `hatetris strength --suite steady` at width 1,000,
# 250 pieces, one thread, as the cycle now measures each new generation.
# Writes gGGG.json here (the starts' pieces, lines and rows frozen, no
# lines of moves) and prints a TSV row per generation.
# NET=FILE: the network to measure instead of packed_net's (one G, before
# its packing commit is in net.sh). SUITE=FILE and OUT=DIR: another suite
# and the folder for its results (../falling/ measures its suite so).
#   usage: run.sh [G...]    (default: 13 to 36)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
B=${HATETRIS:-$ROOT/target/release/hatetris}
gens=${*:-$(seq 13 36)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for g in $gens; do
  out=${OUT:-$HERE}/$(printf 'g%03d' "$g").json
  if [ ! -f "$out" ]; then
    study_net "$g" "$tmp/n.hnet"
    suite_net "${SUITE:-steady}" "net=$tmp/n.hnet" "$out"
  fi
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["evals"][0]
print(sys.argv[2], round(e["mean_pieces"],1), round(e["mean_lines"],1), round(e["mean_frozen_per_100"],3), e["frozen_starts"], sep="\t")' "$out" "$g"
done
