#!/usr/bin/env bash
# `play`'s one game (the default network, from the empty well) at each of
# WIDTHS with the given flags, one thread (RAYON_NUM_THREADS=1), so that
# CPU seconds are the measure; lines from the engine's replay of the
# written replay. Appends width, lines, CPU s, wall s, peak KB, flags to
# results.tsv.   usage: run.sh "WIDTHS" [play flags...]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$HERE/../../../../target/release/hatetris}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
widths=$1; shift
for w in $widths; do
  RAYON_NUM_THREADS=1 /usr/bin/time -f '%U %S %e %M' -o "$T/time" "$B" play --quiet --width "$w" "$@" > "$T/out.txt"
  lines=$(tail -n 1 "$T/out.txt" | "$B" verify - | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
  read -r u sy e m < "$T/time"
  printf '%s\t%s\t%.1f\t%s\t%s\t%s\n' "$w" "$lines" "$(echo "$u + $sy" | bc)" "$e" "$m" "$*" | tee -a "$HERE/results.tsv"
done
