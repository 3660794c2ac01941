#!/usr/bin/env bash
# Network 29 as the embedded default would be measured in the README's
# "Lines by width and time": one plain game from the empty well a width
# (`hatetris search --width W --json`, seed 0, no chains), here on one
# thread beside other runs, so the CPU seconds are the measure; lines from
# the engine's replay of the written replay. Appends to widths.tsv:
# width, lines, pieces, CPU s, wall s, peak KB. G: gen-b's generation
# whose network plays (default 29); OUT: the folder widths.tsv goes to
# (default this one; ../default34 for G=34).
#   usage: [G=29] [OUT=dir] widths.sh [WIDTH...]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../.." && pwd)
. "$root/docs/runs/gen-b/net.sh"
B=${HATETRIS:-$root/target/release/hatetris}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
G=${G:-29} OUT=$(mkdir -p "${OUT:-$HERE}" && cd "${OUT:-$HERE}" && pwd)
packed_net "$G" "$T/g.hnet"
ws=("$@"); [ ${#ws[@]} -gt 0 ] || ws=(1000 10000 30000 40000 50000 60000 80000 100000 120000)
for w in "${ws[@]}"; do
  grep -q "^$w	" "$OUT/widths.tsv" 2>/dev/null && continue
  /usr/bin/time -f '%U %S %e %M' -o "$T/time" "$B" search --width "$w" --eval "net=$T/g.hnet" \
    --threads 1 --json --quiet > "$T/game.json"
  read -r lines pieces replay < <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['score'], d['pieces'], d['replay'])" "$T/game.json")
  v=$(echo "$replay" | "$B" verify - | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
  [ "$v" = "$lines" ] || { echo "width $w: search says $lines lines, its replay $v" >&2; exit 1; }
  read -r u s e m < "$T/time"
  printf '%s\t%s\t%s\t%.1f\t%s\t%s\n' "$w" "$lines" "$pieces" "$(echo "$u + $s" | bc)" "$e" "$m" | tee -a "$OUT/widths.tsv"
done
