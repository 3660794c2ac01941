#!/usr/bin/env bash
# `hatetris play` with its defaults, N times (default 2) on two quiet cores
# (every other job stopped): lines, wall s, CPU s, peak KB into play.tsv
# with the commit; each score checked against the engine's replay. OUT:
# the folder play.tsv and play.b2048 go to (default this one).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../../target/release/hatetris}
c=$(git -C "$HERE" rev-parse --short HEAD)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
OUT=$(mkdir -p "${OUT:-$HERE}" && cd "${OUT:-$HERE}" && pwd)
for i in $(seq "${1:-2}"); do
  /usr/bin/time -f '%U %S %e %M' -o "$T/time" "$B" play --quiet > "$T/out"
  lines=$(sed -n 's/^score //p' "$T/out")
  v=$(sed -n 2p "$T/out" | "$B" verify - | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
  [ "$v" = "$lines" ] || { echo "play says $lines, its replay $v" >&2; exit 1; }
  sed -n 2p "$T/out" > "$OUT/play.b2048"
  read -r u s e m < "$T/time"
  printf '%s\t%s\t%s\t%.1f\t%s\n' "$c" "$lines" "$e" "$(echo "$u + $s" | bc)" "$m" | tee -a "$OUT/play.tsv"
done
