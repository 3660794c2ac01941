#!/usr/bin/env bash
# `play` as it was (generation 25's network, damped record chains, width
# 10,000) against the default network (generation 29) without chains at
# width 65,000, alternating A B A B in one run on two quiet cores (every
# other job stopped), each game's score checked against its replay.
# Appends to ab.tsv: arm, round, lines, wall s, CPU s, peak KB.
# Other arms: A and P name them, A_ARGS and P_ARGS give their play flags
# (words split on spaces), OUT the folder (../../default34: A=play
# A_ARGS='' P=plain60k P_ARGS='--quiescence 0 --width 60000').
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../gen-b/net.sh"
B=${HATETRIS:-$HERE/../../../../target/release/hatetris}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
OUT=$(mkdir -p "${OUT:-$HERE}" && cd "${OUT:-$HERE}" && pwd)
# The default arms name network 29 by its file: `net` is another network
# since network 34 became the default.
packed_net 29 "$T/g29.hnet"
names=("${A:-chained25-10k}" "${P:-plain29-65k}")
flags=("${A_ARGS---eval play --quiescence 4 --chain-blend 0.5 --width 10000}"
       "${P_ARGS---eval net=$T/g29.hnet --quiescence 0 --width 65000}")
for round in 1 2; do
  for i in 0 1; do
    arm=${names[i]}
    read -r -a args <<< "${flags[i]}"
    /usr/bin/time -f '%U %S %e %M' -o "$T/time" "$B" play --quiet "${args[@]}" > "$T/out"
    lines=$(sed -n 's/^score //p' "$T/out")
    v=$(sed -n 2p "$T/out" | "$B" verify - | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
    [ "$v" = "$lines" ] || { echo "$arm: play says $lines, its replay $v" >&2; exit 1; }
    sed -n 2p "$T/out" > "$OUT/$arm.b2048"
    read -r u s e m < "$T/time"
    printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$arm" "$round" "$lines" "$e" "$(echo "$u + $s" | bc)" "$m" | tee -a "$OUT/ab.tsv"
  done
done
