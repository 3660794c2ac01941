#!/usr/bin/env bash
# `play` as it was (generation 25's network, damped record chains, width
# 10,000) against the default network (generation 29) without chains at
# width 65,000, alternating A B A B in one run on two quiet cores (every
# other job stopped), each game's score checked against its replay.
# Appends to ab.tsv: arm, round, lines, wall s, CPU s, peak KB.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../../target/release/hatetris}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
A=(play --eval play --quiescence 4 --chain-blend 0.5 --width 10000 --quiet)
P=(play --eval net --quiescence 0 --width 65000 --quiet)
for round in 1 2; do
  for arm in chained25-10k plain29-65k; do
    if [ "$arm" = chained25-10k ]; then args=("${A[@]}"); else args=("${P[@]}"); fi
    /usr/bin/time -f '%U %S %e %M' -o "$T/time" "$B" "${args[@]}" > "$T/out"
    lines=$(sed -n 's/^score //p' "$T/out")
    v=$(sed -n 2p "$T/out" | "$B" verify - | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
    [ "$v" = "$lines" ] || { echo "$arm: play says $lines, its replay $v" >&2; exit 1; }
    sed -n 2p "$T/out" > "$HERE/$arm.b2048"
    read -r u s e m < "$T/time"
    printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$arm" "$round" "$lines" "$e" "$(echo "$u + $s" | bc)" "$m" | tee -a "$HERE/ab.tsv"
  done
done
